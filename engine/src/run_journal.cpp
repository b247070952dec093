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
  thread_local RunJournal journal;
  return journal;
}

void RunJournal::reset() {
  writer_.drop();
  arguments_.clear();
  inputs_.clear();
  path_.reset();
  every_seconds_ = 60.0;
  last_write_ = {};
  restored_.reset();
  extending_ = false;
  extended_ = {};
  calls_.clear();
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

void RunJournal::note_inputs(std::vector<InputFile> files) { inputs_ = std::move(files); }

void RunJournal::restore(RunState state, bool extending) {
  restored_ = std::move(state);
  extending_ = extending;
}

void RunJournal::check_restored_inputs(const std::vector<InputFile>& files) const {
  if (!restored_) return;
  if (const auto m = first_mismatch(restored_->inputs, files)) {
    throw InputError(fmt::format("{}: not the data the state's run read ({} then, {} now); a run cannot go on "
                                 "with other data",
                                 m->path, m->first, m->second));
  }
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
  if (!recording() || !cluster::is_root()) return;
  // A background write's failure surfaces here; a forced write and a call's
  // end wait for the one in flight.
  if (force || progress.finished) {
    writer_.wait();
  } else {
    writer_.check();
  }
  // A due checkpoint is not taken while the last one is still being written.
  const bool background = !force && due() && !writer_.busy();
  // A finished call's nodes are kept for every later write; an unfinished
  // one's only for the write that follows.
  if (!(progress.finished || force || background)) return;
  call.nodes = snapshot();
  if (force) {
    last_write_ = std::chrono::steady_clock::now();
    write_run_state_file(*path_, encode(false));
  } else if (background) {
    last_write_ = std::chrono::steady_clock::now();
    writer_.start(*path_, encode(false));
  }
}

void RunJournal::finish() {
  if (!recording() || !cluster::is_root()) return;
  writer_.wait();
  write_run_state_file(*path_, encode(true));
  path_.reset();
}

void RunJournal::settle() noexcept { writer_.drop(); }

EncodedRunState RunJournal::encode(bool last) {
  RunState state;
  state.version = version_line();
  state.arguments = arguments_;
  state.inputs = inputs_;
  for (CallState& call : calls_) {
    if (call.finished && !last) {
      state.calls.push_back(call);
      continue;
    }
    std::vector<NodeState> nodes = std::move(call.nodes);
    call.nodes.clear();
    state.calls.push_back(call);
    state.calls.back().nodes = std::move(nodes);
  }
  return encode_run_state_pieces(std::move(state));
}

}  // namespace lbmc::engine
