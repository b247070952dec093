// The journal of a run's driver calls: checkpoints written while it runs,
// and the state a resumed run starts from (run_state.hpp).
//
// One journal per process. The command line sets what it records
// (arguments, --checkpoint FILE, --checkpoint-every SECONDS) or what it
// restores (`lbmc resume`); the driver asks it, per call, for the restored
// nodes and hands it the reduction's nodes at wave boundaries, on SIGINT or
// SIGTERM, and when the call ends. It writes the file when a checkpoint is
// due, when the run is interrupted, and once more when the command ends.
// Under MPI rank 0 alone writes. A due checkpoint is encoded at the wave
// boundary and written and flushed by a background thread while the next
// wave runs (one at a time: the next write waits for it, and throws its
// failure); the interrupted and final writes are done before returning.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <exception>
#include <thread>

#include "lbmc/engine/run_state.hpp"

namespace lbmc::engine {

class RunJournal {
 public:
  //! The process's journal.
  static RunJournal& get();

  //! Forgets everything: no recording, nothing restored.
  void reset();
  //! The command line after "lbmc", stored in the state.
  void set_arguments(std::vector<std::string> arguments);
  //! Records into `path` every `every_seconds` (and at the end); `seed` is
  //! added to the stored arguments when they name none.
  void record_to(std::string path, double every_seconds, std::uint64_t seed);
  //! Starts from `state` (its calls are matched in order). When
  //! `extending`, a fixed-length call may now have more replications: it
  //! keeps every node but one holding a short last block, and goes on.
  void restore(RunState state, bool extending = false);

  bool recording() const noexcept { return path_.has_value(); }
  bool restoring() const noexcept { return restored_.has_value(); }
  bool active() const noexcept { return recording() || restored_.has_value(); }

  //! Opens the next call; returns its restored state, or nullptr. Throws
  //! InputError when the restored call was made with another plan.
  const CallState* begin_call(const CallIdentity& identity);
  //! True when a checkpoint is due.
  bool due() const;
  //! The current call's progress and nodes, from `snapshot` (called only
  //! when a write follows or the call finished); writes the file when
  //! `force` or when due.
  void update(const CallState& progress, bool force, const std::function<std::vector<NodeState>()>& snapshot);
  //! Writes the final state (every call finished) when recording.
  void finish();

  RunJournal() = default;
  RunJournal(const RunJournal&) = delete;
  RunJournal& operator=(const RunJournal&) = delete;
  //! Waits for a checkpoint still being written (its failure is dropped).
  ~RunJournal();

 private:
  // Encodes the state now; writes it in the background (periodic
  // checkpoints) or before returning (forced and final ones). Either way a
  // write still in progress is waited for first, and its failure thrown.
  void write(bool in_background);
  void wait_for_writer();

  std::vector<std::string> arguments_;
  std::optional<std::string> path_;
  double every_seconds_ = 60.0;
  std::chrono::steady_clock::time_point last_write_{};
  std::optional<RunState> restored_;
  bool extending_ = false;
  CallState extended_;  // the current call's restored state, when extended
  std::vector<CallState> calls_;  // the calls of this run so far
  std::thread writer_;            // a periodic checkpoint being written
  std::exception_ptr writer_failure_;
};

}  // namespace lbmc::engine
