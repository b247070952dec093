// `lbmc merge STATE...`: the output of a whole run from the states of its
// slices (--blocks FIRST:COUNT --checkpoint FILE), run anywhere: on the
// machines of an array job, on one machine at different times. The slices
// must come from the same command line and seed, differing only in their
// block ranges and where they wrote (--blocks, --checkpoint, --csv, --json,
// --threads, --progress, --quiet), and cover every block once. The stored
// command then runs with every block restored: its rows are computed from
// the same reduction tree as a single run's, so the output has its bytes.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/run_state.hpp"
#include "lbmc/exp/command.hpp"
#include "lbmc/exp/run_options.hpp"
#include "lbmc/exp/stored_run.hpp"

namespace lbmc::exp {
namespace {

// The value of `option` in the stored arguments ("--option VALUE" or
// "--option=VALUE"), or "" when it is absent.
std::string option_value(const std::vector<std::string>& arguments, const std::string& option) {
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == option && i + 1 < arguments.size()) return arguments[i + 1];
    if (arguments[i].starts_with(option + "=")) return arguments[i].substr(option.size() + 1);
  }
  return "";
}

// The stored arguments without the options in which slices may differ:
// how they wrote, and where they ran (--device; the stream they drew from,
// as check_stream reads it, is kept as --rng at the end, and left out where
// it is the default pcg64),
// so that slices run on a GPU merge with slices run on a CPU, and on a
// machine without a GPU.
std::vector<std::string> common_arguments(std::vector<std::string> arguments) {
  StreamText where{option_value(arguments, "--rng"), option_value(arguments, "--device")};
  if (where.device.empty()) where.device = "cpu";
  const bool philox = check_stream(where).first == engine::Stream::philox;
  for (const char* option : {"--blocks", "--checkpoint", "--checkpoint-every", "--csv", "--json", "--threads",
                             "--progress", "--device", "--rng"}) {
    arguments = without_option(arguments, option);
  }
  arguments = without_option(arguments, "--quiet", true);
  if (philox) arguments.push_back("--rng=philox");
  return arguments;
}

class MergeCommand final : public Command {
 public:
  MergeCommand() : Command("merge", "the output of a whole run from the states of its --blocks slices") {}

  void attach(OptionSet& options) override {
    options.texts("states", paths_, "the slices' state files").required();
    add_overrides(options, overrides_, false);
    options.footer(
        "Slices: lbmc COMMAND ... --seed S --blocks FIRST:COUNT --checkpoint FILE, for contiguous block ranges that\n"
        "together cover every block of every point; the last slice may name a COUNT past the end (--blocks 64:1e12).\n"
        "Gaps or overlaps are an error naming the blocks.");
  }

  std::unique_ptr<CheckedCommand> check(const std::string&) override {
    std::vector<engine::RunState> states;
    for (const std::string& path : paths_) {
      states.push_back(read_stored_state(path));
      if (std::find(states.back().arguments.begin(), states.back().arguments.end(), "--blocks") ==
          states.back().arguments.end()) {
        throw engine::InputError(fmt::format("merge: '{}' is not a slice (its run had no --blocks)", path));
      }
      if (common_arguments(states.back().arguments) != common_arguments(states.front().arguments)) {
        throw engine::InputError(fmt::format("merge: '{}' and '{}' are slices of different runs (command, options or "
                                             "seed)",
                                             paths_.front(), path));
      }
    }
    // The output must not replace a slice it is read from.
    for (const auto& [option, output] : {std::pair{"--csv", overrides_.csv}, std::pair{"--json", overrides_.json}}) {
      const auto target = output.empty() ? std::nullopt : replaced_file(output);
      for (const std::string& path : paths_) {
        if (target && target == replaced_file(path)) {
          throw engine::InputError(fmt::format("merge: {} '{}' is the slice '{}'", option, output, path));
        }
      }
    }
    engine::RunState merged = engine::merge_slices(states, paths_);
    std::vector<std::string> arguments = with_overrides(common_arguments(merged.arguments), overrides_);
    return std::make_unique<CheckedAction>([merged = std::move(merged), arguments = std::move(arguments)]() mutable {
      return run_stored(std::move(merged), std::move(arguments));
    });
  }

 private:
  std::vector<std::string> paths_;
  StoredRunOverrides overrides_;
};

}  // namespace

std::unique_ptr<Command> make_merge_command() { return std::make_unique<MergeCommand>(); }

}  // namespace lbmc::exp
