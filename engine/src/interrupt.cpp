// SIGINT and SIGTERM: a flag for the driver, a grace period, and removal of
// temporary files when the process must stop without unwinding.
//
// Everything the handlers touch is async-signal-safe: lock-free atomics,
// fixed buffers, sigaction, unlink, write, alarm and _exit.
//
// SIGALRM is taken only when a grace period starts: until the process is
// asked to stop, the alarm belongs to whoever else uses it (a test harness,
// libFuzzer's per-input timeout), and a timer of theirs must not end a run.
#include "lbmc/engine/interrupt.hpp"

#include <array>
#include <atomic>
#include <csignal>
#include <cstring>

#include <signal.h>
#include <unistd.h>

#include "lbmc/engine/embedding.hpp"

namespace lbmc::engine {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;

// A slot is claimed before its path is copied in and holds a path for the
// handlers only once published, so that two threads registering at once
// (a checkpoint written in the background, an output file) never share one.
constexpr std::size_t kSlots = 32;
constexpr std::size_t kPathBytes = 4096;
enum Slot : int { kFree, kClaimed, kPublished };
std::array<std::array<char, kPathBytes>, kSlots> g_paths{};
std::array<std::atomic<int>, kSlots> g_slots{};

void write_stderr(const char* text) noexcept {
  const std::size_t size = std::strlen(text);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(STDERR_FILENO, text + done, size - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

[[noreturn]] void stop_now(const char* line) noexcept {
  for (std::size_t i = 0; i < kSlots; ++i) {
    if (g_slots[i].load() == kPublished) ::unlink(g_paths[i].data());
  }
  write_stderr(line);
  ::_exit(130);
}

extern "C" void on_grace_over(int) {
  stop_now("lbmc: interrupted: no block boundary was reached within the grace period; stopped without a final "
           "checkpoint\n");
}

void handle(int signal_number, void (*handler)(int)) noexcept {
  struct sigaction action {};
  action.sa_handler = handler;
  ::sigemptyset(&action.sa_mask);
  ::sigaction(signal_number, &action, nullptr);
}

extern "C" void on_stop_signal(int) {
  if (g_interrupted != 0) stop_now("lbmc: interrupted again: stopped at once, without a final checkpoint\n");
  g_interrupted = 1;
  handle(SIGALRM, on_grace_over);
  ::alarm(kInterruptGraceSeconds);
}

}  // namespace

void install_interrupt_handler() {
  handle(SIGINT, on_stop_signal);
  handle(SIGTERM, on_stop_signal);
  // A file past the size limit (ulimit -f) is a failed write, reported like
  // a full disk (exit 3, one line), not a signal that kills the run.
  handle(SIGXFSZ, SIG_IGN);
}

bool interrupt_requested() noexcept {
  if (g_interrupted != 0) return true;
  const Embedding* embedding = current_embedding();
  return embedding != nullptr && embedding->stop.load(std::memory_order_relaxed);
}

void throw_if_interrupted() {
  if (interrupt_requested()) throw Interrupted();
}

void interrupt_reached_boundary() noexcept {
  if (g_interrupted != 0) ::alarm(0);
}

int register_temporary_file(const std::string& path) noexcept {
  if (path.size() >= kPathBytes) return -1;
  for (std::size_t i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].compare_exchange_strong(expected, kClaimed)) continue;
    std::memcpy(g_paths[i].data(), path.c_str(), path.size() + 1);
    g_slots[i].store(kPublished);
    return static_cast<int>(i);
  }
  return -1;
}

void unregister_temporary_file(int slot) noexcept {
  if (slot >= 0 && static_cast<std::size_t>(slot) < kSlots) g_slots[static_cast<std::size_t>(slot)].store(kFree);
}

}  // namespace lbmc::engine
