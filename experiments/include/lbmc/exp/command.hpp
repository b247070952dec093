// A command of the `lbmc` executable. Each experiment is one Command, made by
// a factory `make_<name>_command()` in its own folder and registered by one
// line in src/registry.cpp; adding an experiment never touches the engine.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "lbmc/engine/statistic_info.hpp"

namespace lbmc::exp {

class Command {
 public:
  virtual ~Command() = default;
  virtual const char* name() const = 0;
  virtual const char* summary() const = 0;
  //! The statistics its rows hold (engine/statistics.hpp), for --help, the
  //! docs and the check of its rows; empty for commands without rows.
  virtual std::vector<engine::StatisticInfo> statistics() const { return {}; }
  //! Declares the command's options on its subcommand.
  virtual void attach(CLI::App& app) = 0;
  //! Runs after parsing; returns the exit code. Throws engine::InputError on
  //! bad input (exit 2) and engine::RuntimeFailure on failures (exit 3).
  virtual int run(const std::string& command_line) = 0;
};

//! Every registered command, in the order `lbmc --help` lists them.
std::vector<std::unique_ptr<Command>> make_commands();

//! What run_cli does with a valid command line: run it, or stop as soon as
//! the command has checked its options (no file is created, nothing is
//! simulated), which lets the whole parser be exercised in process.
enum class CliMode { run, check_only };

//! The whole command line: parses, runs, maps errors to exit codes
//! (0 ran, 1 failed check under --strict/validate, 2 bad input, 3 failure,
//! 130 interrupted) and prints one line on stderr for each error.
int run_cli(int argc, const char* const* argv, CliMode mode = CliMode::run);

//! Called by every command at the point where all its options are checked,
//! before it opens a file or starts any work: a restored run's input files
//! are checked there (RunJournal::check_restored_inputs), and under
//! CliMode::check_only the command ends there (run_cli returns 0).
void options_checked();

}  // namespace lbmc::exp
