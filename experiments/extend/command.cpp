// `lbmc extend FILE --reps R`: a run, finished or interrupted, goes on to R
// replications per point, and the output is that of one run of R. Blocks
// hold the same replications in both runs (block sizes depend on the work
// per replication only), so every block the state holds is kept but a short
// last one, which the longer run fills: the nodes holding it are left out
// and their blocks run again. The state file named by the run's
// --checkpoint then holds the longer run. Runs with --target-rse, whose
// stopping decisions depend on the waves they took, and slices are not
// extended.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/run_state.hpp"
#include "lbmc/exp/command.hpp"
#include "lbmc/exp/run_options.hpp"
#include "lbmc/exp/stored_run.hpp"

namespace lbmc::exp {
namespace {

class ExtendCommand final : public Command {
 public:
  ExtendCommand() : Command("extend", "continue a run's state to more replications (--reps)") {}

  void attach(OptionSet& options) override {
    state_file_.attach(options, "the state file its --checkpoint wrote");
    options.text("--reps", reps_text_, "replications per point, more than the run had").required();
  }

  std::unique_ptr<CheckedCommand> check(const std::string&) override {
    engine::RunState state = state_file_.read();
    const std::string& path = state_file_.path;
    const std::int64_t reps = parse_option("--reps", reps_text_, engine::parse_integer);
    const auto& arguments = state.arguments;
    const auto has = [&](const char* option) { return std::find(arguments.begin(), arguments.end(), option) != arguments.end(); };
    if (has("--target-rse")) {
      throw engine::InputError(fmt::format("state file '{}': a --target-rse run is not extended (its stopping "
                                           "decisions depend on its waves); run it again with the new target",
                                           path));
    }
    if (has("--blocks")) throw engine::InputError(fmt::format("state file '{}': a slice; merge the slices first", path));
    if (reps < 1) throw engine::InputError(fmt::format("--reps: '{}' must be >= 1", reps_text_));
    std::vector<std::string> extended =
        with_overrides(with_option(arguments, "--reps", std::to_string(reps)), state_file_.overrides);
    return std::make_unique<CheckedAction>([state = std::move(state), extended = std::move(extended)]() mutable {
      return run_stored(std::move(state), std::move(extended), true);
    });
  }

 private:
  StateFileArguments state_file_;
  std::string reps_text_;
};

}  // namespace

std::unique_ptr<Command> make_extend_command() { return std::make_unique<ExtendCommand>(); }

}  // namespace lbmc::exp
