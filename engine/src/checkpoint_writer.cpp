// The background writer of checkpoints.
#include "lbmc/engine/checkpoint_writer.hpp"

#include <utility>

#include <pthread.h>
#include <signal.h>

namespace lbmc::engine {
namespace {

void block_stop_signals() noexcept {
  sigset_t set;
  ::sigemptyset(&set);
  for (const int s : {SIGINT, SIGTERM, SIGALRM}) ::sigaddset(&set, s);
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

}  // namespace

CheckpointWriter::~CheckpointWriter() { drop(); }

bool CheckpointWriter::busy() const noexcept { return !ended_.load(std::memory_order_acquire); }

void CheckpointWriter::start(std::string path, EncodedRunState encoded) {
  wait();  // the last write's thread, ended (!busy()): joined, its failure thrown
  ended_.store(false, std::memory_order_relaxed);
  try {
    thread_ = std::thread([this, path = std::move(path), encoded = std::move(encoded)]() mutable {
      block_stop_signals();
      try {
        write_run_state_file(path, encoded);
      } catch (...) {
        failure_ = std::current_exception();
      }
      encoded = {};  // freed before the next snapshot may be taken
      ended_.store(true, std::memory_order_release);
    });
  } catch (...) {
    ended_.store(true, std::memory_order_relaxed);
    throw;
  }
}

void CheckpointWriter::check() {
  if (busy() || !thread_.joinable()) return;
  thread_.join();
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

void CheckpointWriter::wait() {
  if (thread_.joinable()) thread_.join();
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

void CheckpointWriter::drop() noexcept {
  if (thread_.joinable()) thread_.join();
  failure_ = nullptr;
}

}  // namespace lbmc::engine
