// `lbmc resume FILE`: continues a run from the state file its --checkpoint
// wrote (engine/run_state.hpp), with the arguments stored in it; --threads,
// --csv and --json may be given anew (none of them changes a byte of the
// results). The stored arguments run again with the state preloaded: every
// block the state holds is skipped, and the output is that of the run had
// it never stopped. The run keeps checkpointing to the same file.
#include <string>
#include <utility>
#include <vector>

#include "lbmc/engine/run_state.hpp"
#include "lbmc/exp/command.hpp"
#include "lbmc/exp/stored_run.hpp"

namespace lbmc::exp {
namespace {

class ResumeCommand final : public Command {
 public:
  ResumeCommand() : Command("resume", "continue a run from the state file its --checkpoint wrote") {}

  void attach(OptionSet& options) override {
    state_file_.attach(options, "the state file");
    options.footer(
        "The run goes on with the arguments stored in the state (seed included) and writes the bytes of the run\n"
        "had it never stopped; it keeps checkpointing to the file its --checkpoint names.");
  }

  std::unique_ptr<CheckedCommand> check(const std::string&) override {
    engine::RunState state = state_file_.read();
    std::vector<std::string> arguments = with_overrides(state.arguments, state_file_.overrides);
    return std::make_unique<CheckedAction>([state = std::move(state), arguments = std::move(arguments)]() mutable {
      return run_stored(std::move(state), std::move(arguments));
    });
  }

 private:
  StateFileArguments state_file_;
};

}  // namespace

std::unique_ptr<Command> make_resume_command() { return std::make_unique<ResumeCommand>(); }

}  // namespace lbmc::exp
