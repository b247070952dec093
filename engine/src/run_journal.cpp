// The process's journal of driver calls.
#include "lbmc/engine/run_journal.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "lbmc/engine/build_info.hpp"
#include "lbmc/engine/cluster.hpp"
#include "lbmc/engine/errors.hpp"

namespace lbmc::engine {

RunJournal& RunJournal::get() {
  static RunJournal journal;
  return journal;
}

RunJournal::~RunJournal() {
  if (writer_.joinable()) writer_.join();
}

void RunJournal::reset() {
  if (writer_.joinable()) writer_.join();
  arguments_.clear();
  path_.reset();
  every_seconds_ = 60.0;
  last_write_ = {};
  restored_.reset();
  extending_ = false;
  extended_ = {};
  calls_.clear();
  writer_failure_ = nullptr;
}

void RunJournal::set_arguments(std::vector<std::string> arguments) { arguments_ = std::move(arguments); }

void RunJournal::record_to(std::string path, double every_seconds, std::uint64_t seed) {
  path_ = std::move(path);
  every_seconds_ = every_seconds;
  last_write_ = std::chrono::steady_clock::now();
  if (std::find(arguments_.begin(), arguments_.end(), "--seed") == arguments_.end()) {
    arguments_.push_back("--seed");
    arguments_.push_back(std::to_string(seed));
  }
}

void RunJournal::restore(RunState state, bool extending) {
  restored_ = std::move(state);
  extending_ = extending;
}

const CallState* RunJournal::begin_call(const CallIdentity& identity) {
  CallState call;
  call.identity = identity;
  calls_.push_back(std::move(call));
  if (!restored_ || calls_.size() > restored_->calls.size()) return nullptr;
  const CallState& before = restored_->calls[calls_.size() - 1];
  CallIdentity longer = before.identity;
  longer.reps = identity.reps;
  if (extending_ && !identity.target_rse && identity.reps > before.identity.reps && longer == identity) {
    // Blocks keep their replications but the last, when it was short: the
    // nodes holding it are left out, and their blocks run again.
    extended_ = CallState{};
    extended_.identity = identity;
    const std::int64_t last = blocks_of(before.identity) - 1;
    const bool short_last = before.identity.reps % before.identity.block_reps != 0;
    for (const NodeState& node : before.nodes) {
      const std::int64_t first = node.index << node.level;
      const std::int64_t end = (node.index + 1) << node.level;
      if (!(short_last && first <= last && last < end)) extended_.nodes.push_back(node);
    }
    return &extended_;
  }
  if (extending_ && identity.reps < before.identity.reps) {
    throw InputError(fmt::format("--reps: {} is fewer than the {} the state's run {} has", identity.reps,
                                 before.identity.reps, calls_.size()));
  }
  if (!(before.identity == identity)) {
    throw InputError(fmt::format("the state's run {} was made with another seed or plan than this one",
                                 calls_.size()));
  }
  return &before;
}

bool RunJournal::due() const {
  return recording() &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - last_write_).count() >= every_seconds_;
}

void RunJournal::update(const CallState& progress, bool force, const std::function<std::vector<NodeState>()>& snapshot) {
  if (calls_.empty()) return;
  CallState& call = calls_.back();
  call.finished = progress.finished;
  call.next = progress.next;
  call.decided = progress.decided;
  // A finished call's nodes are kept for every later write; an unfinished
  // one's only when a write follows.
  if (!recording() || !(progress.finished || force || due())) return;
  call.nodes = snapshot();
  if (force) {
    write(false);
  } else if (due()) {
    write(true);
  }
}

void RunJournal::finish() {
  if (recording()) write(false);
}

void RunJournal::wait_for_writer() {
  if (writer_.joinable()) writer_.join();
  if (writer_failure_) std::rethrow_exception(std::exchange(writer_failure_, nullptr));
}

void RunJournal::write(bool in_background) {
  last_write_ = std::chrono::steady_clock::now();
  if (!cluster::is_root()) return;
  wait_for_writer();
  // The calls move into the state and back (their bytes are the bulk of it).
  RunState state;
  state.version = version_line();
  state.arguments = arguments_;
  state.calls = std::move(calls_);
  std::vector<std::byte> bytes;
  try {
    bytes = encode_run_state(state);
  } catch (...) {
    calls_ = std::move(state.calls);
    throw;
  }
  calls_ = std::move(state.calls);
  if (!in_background) {
    write_run_state_bytes(*path_, bytes);
    return;
  }
  // The file is written and flushed while the run goes on: the previous
  // checkpoint stays whole until the rename, as with a write in place.
  writer_ = std::thread([this, path = *path_, file = std::move(bytes)] {
    try {
      write_run_state_bytes(path, file);
    } catch (...) {
      writer_failure_ = std::current_exception();
    }
  });
}

}  // namespace lbmc::engine
