// `lbmc resume FILE`: continues a run from the state file its --checkpoint
// wrote (engine/run_state.hpp), with the arguments stored in it; --threads,
// --csv and --json may be given anew (none of them changes a byte of the
// results). The stored arguments run again with the state preloaded: every
// block the state holds is skipped, and the output is that of the run had
// it never stopped. The run keeps checkpointing to the same file.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "lbmc/engine/build_info.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/run_journal.hpp"
#include "lbmc/engine/run_state.hpp"
#include "lbmc/exp/command.hpp"

namespace lbmc::exp {
namespace {

// `arguments` without `option` (as "--option VALUE" or "--option=VALUE"),
// then with "--option value" when a value is given.
std::vector<std::string> replace_option(std::vector<std::string> arguments, const std::string& option,
                                        const std::string& value) {
  if (value.empty()) return arguments;
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i] == option) {
      ++i;  // its value
      continue;
    }
    if (arguments[i].rfind(option + "=", 0) == 0) continue;
    kept.push_back(arguments[i]);
  }
  kept.push_back(option);
  kept.push_back(value);
  return kept;
}

// Ends the restored state's use whatever way the resumed run ends.
struct RestoredState {
  explicit RestoredState(engine::RunState state) { engine::RunJournal::get().restore(std::move(state)); }
  ~RestoredState() { engine::RunJournal::get().reset(); }
  RestoredState(const RestoredState&) = delete;
  RestoredState& operator=(const RestoredState&) = delete;
};

class ResumeCommand final : public Command {
 public:
  const char* name() const override { return "resume"; }
  const char* summary() const override { return "continue a run from the state file its --checkpoint wrote"; }

  void attach(CLI::App& app) override {
    app.add_option("state", path_, "the state file")->required();
    app.add_option("--threads", threads_, "OpenMP threads (default: all)");
    app.add_option("--csv", csv_, "write tidy CSV to FILE, or - for stdout (default: as stored)");
    app.add_option("--json", json_, "write JSON to FILE, or - for stdout (default: as stored)");
    app.footer(
        "The run goes on with the arguments stored in the state (seed included) and writes the bytes of the run\n"
        "had it never stopped; it keeps checkpointing to the file its --checkpoint names.");
  }

  int run(const std::string&) override {
    engine::RunState state = engine::read_run_state(path_);
    if (state.version != engine::version_line()) {
      throw engine::InputError(fmt::format("state file '{}': written by {}, this is {}", path_, state.version,
                                           engine::version_line()));
    }
    if (state.arguments.empty() || state.arguments.front() == name()) {
      throw engine::InputError(fmt::format("state file '{}': no command to resume", path_));
    }
    std::vector<std::string> arguments = replace_option(std::move(state.arguments), "--threads", threads_);
    arguments = replace_option(std::move(arguments), "--csv", csv_);
    arguments = replace_option(std::move(arguments), "--json", json_);
    options_checked();
    arguments.insert(arguments.begin(), "lbmc");
    const RestoredState restored(std::move(state));
    std::vector<const char*> argv;
    for (const auto& a : arguments) argv.push_back(a.c_str());
    return run_cli(static_cast<int>(argv.size()), argv.data());
  }

 private:
  std::string path_;
  std::string threads_;
  std::string csv_;
  std::string json_;
};

}  // namespace

std::unique_ptr<Command> make_resume_command() { return std::make_unique<ResumeCommand>(); }

}  // namespace lbmc::exp
