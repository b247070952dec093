// SIGINT and SIGTERM flag.
#include "lbmc/engine/interrupt.hpp"

#include <csignal>

namespace lbmc::engine {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void on_stop_signal(int) { g_interrupted = 1; }

}  // namespace

void install_interrupt_handler() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  // A file past the size limit (ulimit -f) is a failed write, reported like
  // a full disk (exit 3, one line), not a signal that kills the run.
  std::signal(SIGXFSZ, SIG_IGN);
}

bool interrupt_requested() noexcept { return g_interrupted != 0; }

}  // namespace lbmc::engine
