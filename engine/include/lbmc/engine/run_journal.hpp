// The journal of a run's driver calls: checkpoints written while it runs,
// and the state a resumed run starts from (run_state.hpp).
//
// One journal per thread that runs commands: one in the executable, one per
// command in a process that runs several at once (embedding.hpp). The
// command line sets what it records (arguments, --checkpoint FILE,
// --checkpoint-every SECONDS) or what it restores (`lbmc resume`); the
// driver asks it, per call, for the restored nodes and hands it the
// reduction's nodes at wave boundaries, on SIGINT or SIGTERM, and when the
// call ends. It writes the file when a checkpoint is
// due, when the run is interrupted, and once more when the command ends.
// Under MPI rank 0 alone takes the nodes and writes.
//
// A due checkpoint is taken at the wave boundary (a consistent state: the
// nodes' bytes, encoded into pieces that take over the running call's
// bytes) and written by a background thread (checkpoint_writer.hpp) while
// the next waves run. One write at a time, and the simulating threads never
// wait for the disk: a checkpoint that falls due while the previous one is
// still being written is not taken, and the next boundary tries again. A
// background write's failure is thrown at the next wave boundary (on the
// simulating thread that calls update()), or at the end of the call or of
// the command, which wait for a write in flight. The interrupted and final
// writes are done before they return; settle() waits for a write in flight
// when a command fails, so that none outlives the process.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lbmc/engine/checkpoint_writer.hpp"
#include "lbmc/engine/run_state.hpp"

namespace lbmc::engine {

class RunJournal {
 public:
  //! This thread's journal.
  static RunJournal& get();

  //! Forgets everything: no recording, nothing restored.
  void reset();
  //! The command line after "lbmc", stored in the state.
  void set_arguments(std::vector<std::string> arguments);
  //! Records into `path` every `every_seconds` (and at the end); `seed` is
  //! added to the stored arguments when they name none.
  void record_to(std::string path, double every_seconds, std::uint64_t seed);
  //! Records that the run's data come from `files` (the state stores them;
  //! a restored run must read the same bytes).
  void note_inputs(std::vector<InputFile> files);
  //! Starts from `state` (its calls are matched in order). When
  //! `extending`, a fixed-length call may now have more replications: it
  //! keeps every node but one holding a short last block, and goes on.
  void restore(RunState state, bool extending = false);

  bool recording() const noexcept { return path_.has_value(); }
  bool restoring() const noexcept { return restored_.has_value(); }
  bool active() const noexcept { return recording() || restored_.has_value(); }

  //! Throws InputError when a restored run read other input files, or
  //! other bytes under their names, than `files`, those of the checked job
  //! (command.hpp) that would go on with it. Changes nothing.
  void check_restored_inputs(const std::vector<InputFile>& files) const;
  //! Opens the next call; returns its restored state, or nullptr. Throws
  //! InputError when the restored call was made with another plan.
  const CallState* begin_call(const CallIdentity& identity);
  //! True when a checkpoint is due.
  bool due() const;
  //! The current call's progress and nodes, from `snapshot` (called only
  //! when a write follows or the call finished); writes the file before
  //! returning when `force`, or starts writing it in the background when due
  //! and no write is in flight. Throws the failure of a background write
  //! that ended (RuntimeFailure); when `force` or the call finished, waits
  //! for one in flight first.
  void update(const CallState& progress, bool force, const std::function<std::vector<NodeState>()>& snapshot);
  //! Waits for a write in flight, then writes the final state (every call
  //! finished) when recording; records nothing more.
  void finish();
  //! Waits for a write in flight and forgets its failure: for a command
  //! that failed, which reports its own.
  void settle() noexcept;

  RunJournal() = default;
  RunJournal(const RunJournal&) = delete;
  RunJournal& operator=(const RunJournal&) = delete;

 private:
  // The state to write, encoded: the finished calls' nodes copied (later
  // writes need them), the running call's moved (this write alone does);
  // every call's moved when `last`.
  EncodedRunState encode(bool last);

  std::vector<std::string> arguments_;
  std::vector<InputFile> inputs_;
  std::optional<std::string> path_;
  double every_seconds_ = 60.0;
  std::chrono::steady_clock::time_point last_write_{};
  std::optional<RunState> restored_;
  bool extending_ = false;
  CallState extended_;  // the current call's restored state, when extended
  std::vector<CallState> calls_;  // the calls of this run so far
  CheckpointWriter writer_;       // last: its thread ends before the rest goes
};

}  // namespace lbmc::engine
