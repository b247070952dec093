// Running a command line stored in a state file (engine/run_state.hpp), as
// `lbmc resume` and `lbmc merge` do: the stored arguments, with some options
// replaced, run with the state preloaded into the run's journal.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "lbmc/engine/run_state.hpp"

namespace lbmc::exp {

//! `arguments` without `option` and its value ("--option VALUE" or
//! "--option=VALUE"); a flag (no value) when `flag`.
std::vector<std::string> without_option(const std::vector<std::string>& arguments, const std::string& option,
                                        bool flag = false);

//! `arguments` with "--option value" in place of any `option`, when `value`
//! is not empty.
std::vector<std::string> with_option(std::vector<std::string> arguments, const std::string& option,
                                     const std::string& value);

//! The options a stored run may take anew, none of which changes a byte of
//! its results: --threads, --csv, --json, --progress (each when not empty)
//! and --quiet (when set).
struct StoredRunOverrides {
  std::string threads;
  std::string csv;
  std::string json;
  std::string progress;
  bool quiet = false;
};
std::vector<std::string> with_overrides(std::vector<std::string> arguments, const StoredRunOverrides& overrides);
//! Declares --threads, --csv, --json, --progress and --quiet into
//! `overrides`; `stored`: the outputs default to the stored run's.
void add_overrides(CLI::App& app, StoredRunOverrides& overrides, bool stored);

//! Throws InputError naming `path` unless `state` was written by this lbmc
//! and stores a command line.
void check_state_origin(const engine::RunState& state, const std::string& path);

//! Runs `lbmc arguments...` with `state` restored (its blocks are not run
//! again; `extending`: its runs may now have more replications, see
//! RunJournal::restore); returns the exit code.
int run_stored(engine::RunState state, std::vector<std::string> arguments, bool extending = false);

}  // namespace lbmc::exp
