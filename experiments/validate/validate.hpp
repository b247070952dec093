// `lbmc validate`: runs every experiment's validators on fixed seeds at modest
// replication counts and summarises pass/fail (DESIGN §3). Each case runs the
// lbmc executable itself with the case's command line and reads the verdict
// column of its tidy CSV, so the checks are those a user's run makes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lbmc::exp {

struct ValidationCase {
  std::string experiment;
  std::string name;
  std::vector<std::string> args;  //!< command and options, without --reps/--seed/--csv
  double reps_weight = 1.0;       //!< replications as a fraction of the run's base count
};

//! The cases, grouped by experiment.
std::vector<ValidationCase> validation_cases();

//! Counts of one case's CSV rows by reference kind and verdict.
struct VerdictCounts {
  std::int64_t rows = 0;
  std::int64_t exact_pass = 0;
  std::int64_t exact_fail = 0;
  std::int64_t bound_pass = 0;
  std::int64_t bound_fail = 0;
  std::vector<std::string> failed;  //!< "statistic (reference) z=…" of each failed exact check
  std::vector<std::string> missed;  //!< the same of each bound not respected
};

//! Reads a tidy result CSV (DESIGN §4): the columns are found by name in the
//! header; quoted fields may hold commas and doubled quotes. Throws
//! std::runtime_error when a needed column is missing.
VerdictCounts count_verdicts(const std::string& csv);

}  // namespace lbmc::exp
