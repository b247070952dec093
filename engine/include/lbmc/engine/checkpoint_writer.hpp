// One checkpoint at a time, written off the simulating threads.
//
// start() hands an encoded state (run_state.hpp) to a thread of its own,
// which computes its checksum and writes it durably (write_run_state_file:
// temporary file, fsync, rename, fsync of the folder) while the caller goes
// on; the pieces are freed by that thread when the write ends. At most one
// write is in flight: start() requires !busy(). A write's failure is kept
// and thrown to the owner, on its own thread, by check() once the write
// ended or by wait(); drop() and the destructor wait and forget it. The
// thread blocks SIGINT, SIGTERM and SIGALRM, so that the process's handlers
// (interrupt.hpp) run on the other threads and its writes are not cut short.
#pragma once

#include <atomic>
#include <exception>
#include <string>
#include <thread>

#include "lbmc/engine/run_state.hpp"

namespace lbmc::engine {

class CheckpointWriter {
 public:
  CheckpointWriter() = default;
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;
  //! Waits for a write in flight (its failure is dropped).
  ~CheckpointWriter();

  //! True while a write started and has not ended.
  bool busy() const noexcept;
  //! Starts writing `encoded` to `path` (requires !busy()).
  void start(std::string path, EncodedRunState encoded);
  //! When the last write ended: throws its failure (RuntimeFailure naming
  //! the file), once. Never waits.
  void check();
  //! Waits for the write in flight, then as check().
  void wait();
  //! Waits for the write in flight and forgets its failure (a run that
  //! failed already reports its own).
  void drop() noexcept;

 private:
  std::thread thread_;
  std::atomic<bool> ended_{true};
  std::exception_ptr failure_;
};

}  // namespace lbmc::engine
