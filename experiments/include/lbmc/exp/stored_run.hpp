// Running a command line stored in a state file (engine/run_state.hpp), as
// `lbmc resume` and `lbmc merge` do: the stored arguments, with some options
// replaced, run with the state preloaded into the run's journal.
#pragma once

#include <string>
#include <vector>

#include "lbmc/engine/run_state.hpp"
#include "lbmc/exp/option_set.hpp"

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
//! its results: --threads, --csv, --json, --progress, --device (each when not
//! empty) and --quiet (when set). A new --device keeps the stored run's
//! stream: --rng is set to it (philox for a run on a GPU without --rng).
struct StoredRunOverrides {
  std::string threads;
  std::string csv;
  std::string json;
  std::string progress;
  std::string device;
  bool quiet = false;
};
std::vector<std::string> with_overrides(std::vector<std::string> arguments, const StoredRunOverrides& overrides);
//! Declares --threads, --csv, --json, --progress and --quiet into
//! `overrides`; `stored` (a stored run goes on): the outputs default to the
//! stored run's, and --device is declared too.
void add_overrides(OptionSet& options, StoredRunOverrides& overrides, bool stored);

//! The state file at `path` (engine::read_run_state); throws InputError
//! naming `path` unless it was written by this lbmc and stores a command line.
engine::RunState read_stored_state(const std::string& path);

//! The arguments of `resume` and `extend`: one state file and the overrides.
struct StateFileArguments {
  std::string path;
  StoredRunOverrides overrides;

  //! Declares the positional state file (`help`) and the overrides.
  void attach(OptionSet& options, const std::string& help);
  //! read_stored_state(path).
  engine::RunState read() const { return read_stored_state(path); }
};

//! Runs `lbmc arguments...` with `state` restored (its blocks are not run
//! again; `extending`: its runs may now have more replications, see
//! RunJournal::restore); returns the exit code.
int run_stored(engine::RunState state, std::vector<std::string> arguments, bool extending = false);

}  // namespace lbmc::exp
