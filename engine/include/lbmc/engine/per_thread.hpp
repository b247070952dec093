// Scratch that a kernel keeps for each thread of one run, from block to
// block: built on the thread's first block and freed with the kernel at the
// end of the run (a thread_local would hold it for as long as the process's
// OpenMP threads live, past the run).
//
// The driver calls a kernel's run() from the threads of one parallel region
// of the run's thread count (driver.hpp), so omp_get_thread_num() names a
// slot no other thread of the run uses.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <vector>

#include <omp.h>

namespace lbmc::engine {

template <class T>
class PerThread {
 public:
  //! Slots for a run of `threads` threads.
  explicit PerThread(int threads) : slots_(static_cast<std::size_t>(threads < 1 ? 1 : threads)) {}

  //! The calling thread's T, built by make() on its first call.
  template <class Make>
  T& get(Make&& make) {
    const auto slot = static_cast<std::size_t>(omp_get_thread_num());
    if (slot >= slots_.size()) throw std::logic_error("per-thread scratch: a thread beyond the run's count");
    std::optional<T>& held = slots_[slot];
    if (!held) held.emplace(make());
    return *held;
  }

 private:
  std::vector<std::optional<T>> slots_;
};

}  // namespace lbmc::engine
