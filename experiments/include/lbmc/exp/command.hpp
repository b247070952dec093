// A command of the `lbmc` executable. Each experiment is one Command, made by
// a factory `make_<name>_command()` in its own folder and registered by one
// line in src/registry.cpp; adding an experiment never touches the engine.
//
// A command runs in three steps, in an order the types enforce:
//  1. check(): every option and input file is checked, and nothing changes
//     (no file is written, no thread count set, no journal started, no MPI
//     call); the result is a CheckedCommand, or an InputError (exit 2);
//  2. its common options are applied (run_options.hpp: the seed drawn,
//     the threads set, the journal recording), which yields the AppliedRun
//     that output files (Report) and the driver's plans need;
//  3. it runs.
// run_cli does 1, then 2 and 3 through CheckedCommand::start, unless it only
// checks.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lbmc/engine/input_file.hpp"
#include "lbmc/engine/statistic_info.hpp"
#include "lbmc/exp/option_set.hpp"
#include "lbmc/exp/run_options.hpp"

namespace lbmc::exp {

//! A command whose options are checked.
class CheckedCommand {
 public:
  virtual ~CheckedCommand() = default;
  //! Applies what it needs applied and runs; returns the exit code.
  //! Throws engine::InputError (exit 2) only for what cannot be known before
  //! running, engine::RuntimeFailure on failures (exit 3).
  virtual int start() = 0;
  //! The files its data come from (measured samples), checked against a
  //! restored run's and stored in its state.
  const std::vector<engine::InputFile>& inputs() const noexcept { return inputs_; }

 protected:
  std::vector<engine::InputFile> inputs_;
};

//! A checked experiment: its checked common options and the run, which
//! receives them applied.
class CheckedExperiment final : public CheckedCommand {
 public:
  using Run = std::function<int(const AppliedRun&)>;
  CheckedExperiment(RunOptions options, std::vector<engine::InputFile> inputs, Run run)
      : options_(std::move(options)), run_(std::move(run)) {
    inputs_ = std::move(inputs);
  }
  //! apply_run_options, then the run.
  int start() override { return run_(apply_run_options(std::move(options_), inputs_)); }

 private:
  RunOptions options_;
  Run run_;
};

//! A checked command that needs nothing applied (it runs a stored command
//! line, which applies its own).
class CheckedAction final : public CheckedCommand {
 public:
  explicit CheckedAction(std::function<int()> run) : run_(std::move(run)) {}
  int start() override { return run_(); }

 private:
  std::function<int()> run_;
};

class Command {
 public:
  //! `statistics`: those its rows hold (engine/statistics.hpp), for --help,
  //! the docs and the check of its rows; none for commands without rows.
  Command(const char* name, const char* summary, std::vector<engine::StatisticInfo> statistics = {})
      : name_(name), summary_(summary), statistics_(std::move(statistics)) {}
  virtual ~Command() = default;
  const char* name() const noexcept { return name_; }
  //! The line `lbmc --help` shows.
  const char* summary() const noexcept { return summary_; }
  const std::vector<engine::StatisticInfo>& statistics() const noexcept { return statistics_; }
  //! Declares the command's options on its subcommand (run_cli adds the
  //! statistics and, to a command taking laws, the law table to its help).
  virtual void attach(OptionSet& options) = 0;
  //! Step 1 (top of this file): checks the parsed options and returns what
  //! runs them; `command_line` is the whole line, for the output's metadata.
  //! Throws engine::InputError on bad input.
  virtual std::unique_ptr<CheckedCommand> check(const std::string& command_line) = 0;

 private:
  const char* name_;
  const char* summary_;
  std::vector<engine::StatisticInfo> statistics_;
};

//! Every registered command, in the order `lbmc --help` lists them.
std::vector<std::unique_ptr<Command>> make_commands();

//! What run_cli does with a valid command line: run it, or stop once the
//! command has checked its options (no file is created, nothing is
//! simulated), which lets the whole parser be exercised in process.
enum class CliMode { run, check_only };

//! The whole command line: parses, checks, runs, maps errors to exit codes
//! (0 ran, 1 failed check under --strict/validate, 2 bad input, 3 failure,
//! 130 interrupted) and prints one line on stderr for each error.
int run_cli(int argc, const char* const* argv, CliMode mode = CliMode::run);

//! How a command line ended: its exit code and, for a failure, its class
//! and the one line run_cli prints.
struct CliOutcome {
  enum class Failure { none, bad_input, out_of_memory, runtime, interrupted, remote };
  int code = 0;
  Failure failure = Failure::none;
  std::string message;
};

//! An option of a command as its parser declares it.
struct OptionSpec {
  std::string name;  // "--n", or a positional argument's name ("paper")
  bool positional = false;
  bool flag = false;     // takes no value
  bool several = false;  // takes several values (repeated, or several positionals)
  std::string help;
};

//! A command as its parser declares it: for front ends that derive their
//! own interface from the registry (the Python module).
struct CommandSpec {
  std::string name;
  std::string summary;
  std::string help;  // what `lbmc NAME --help` prints
  std::vector<OptionSpec> options;
};

//! Every registered command, in the order `lbmc --help` lists them.
std::vector<CommandSpec> describe_commands();

//! A command line (the arguments after "lbmc") run in a process that embeds
//! lbmc, on a thread with an engine::Embedding in scope: as run_cli, but the
//! process's signal handlers are left alone and the failure is returned,
//! not printed.
CliOutcome run_embedded(const std::vector<std::string>& arguments);

}  // namespace lbmc::exp
