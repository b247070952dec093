// The end of every experiment command: collects result rows and run
// statistics, prints the seed and throughput on stderr, and writes the
// readable table, CSV and JSON (DESIGN §3-§4). Output files are opened when
// the report is made, after every check and before any work, so an
// unwritable path fails first, and are renamed into place only when complete.
// Under an embedding (engine/embedding.hpp) the table goes to its output
// instead of stdout.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/output_file.hpp"
#include "lbmc/engine/results.hpp"
#include "lbmc/engine/statistic_info.hpp"
#include "lbmc/engine/writers.hpp"
#include "lbmc/exp/run_options.hpp"

namespace lbmc::exp {

class Report {
 public:
  //! `declared`: the experiment's statistics (statistics.hpp); the table
  //! refuses a row none of them names. Opens the output files of `run`'s
  //! --csv and --json (written only by finish()).
  Report(std::string experiment, std::vector<std::string> param_names, std::vector<engine::StatisticInfo> declared,
         const AppliedRun& run, std::string command_line);

  engine::ResultTable& table() noexcept { return table_; }

  //! Records one parameter point's run: adds to the totals of the JSON
  //! metadata and prints reps, time and throughput on stderr (unless quiet).
  void record(const std::string& label, const engine::RunReport& run, double variates_per_rep);

  //! Writes every output; returns the exit code (1 when --strict and an
  //! exact check failed, else 0).
  int finish();

 private:
  engine::ResultTable table_;
  RunOptions settings_;
  engine::RunMeta meta_;
  std::optional<engine::OutputFile> csv_;
  std::optional<engine::OutputFile> json_;
  double variates_ = 0.0;
  double busy_seconds_ = 0.0;   // in replication loops
  double store_seconds_ = 0.0;  // sorting stored values after them
  std::vector<std::string> stopping_;
  std::chrono::steady_clock::time_point start_;
};

//! The command line as one string, each argument quoted when needed.
std::string join_command_line(int argc, const char* const* argv);

}  // namespace lbmc::exp
