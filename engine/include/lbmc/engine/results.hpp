// Result rows and their verdicts (DESIGN §4).
//
// An experiment reports statistics (an estimate with its standard error and
// interval) at parameter points, each against zero or more references. Every
// (point, statistic, reference) becomes one row; a statistic without a
// reference is one row with empty reference fields. z and rel_diff are
// derived here, as is the verdict: exact references pass when |z| <= z_tol,
// bounds when the estimate is on the right side within z_tol standard errors,
// and asymptotic, corrected and paper references are informational.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lbmc::engine {

enum class ReferenceKind { exact, asymptotic, corrected, bound, paper };

//! The CSV spelling: exact, asymptotic, corrected, bound, paper.
const char* to_string(ReferenceKind kind);

struct Reference {
  std::string name;
  ReferenceKind kind = ReferenceKind::exact;
  double value = 0.0;
  //! For bounds: true when the estimate must not exceed the value, false
  //! when it must not fall below it.
  bool upper_bound = true;
};

struct Estimate {
  double value = 0.0;
  double se = 0.0;
  double ci_low = 0.0;
  double ci_high = 0.0;
  std::int64_t reps = 0;
};

//! A mean and its standard error: what the stopping rule watches, and the
//! input of derived estimates.
struct MeanSummary {
  double mean = 0.0;
  double se = 0.0;
};

//! scale/x.mean with the delta-method se scale·x.se/x.mean² (e.g. an
//! efficiency λ/E[max]).
MeanSummary reciprocal(double scale, MeanSummary x);

//! A mean-like estimate with a normal interval at `level`.
Estimate normal_estimate(double value, double se, std::int64_t reps, double level);
//! The two-sided normal quantile z_{(1+level)/2}.
double normal_critical(double level);

enum class Verdict { none, pass, fail, info };
const char* to_string(Verdict verdict);

struct Row {
  std::vector<std::string> params;
  std::string statistic;
  Estimate estimate;
  std::optional<Reference> reference;
  std::optional<double> z;
  std::optional<double> rel_diff;
  Verdict verdict = Verdict::none;
};

//! All rows of one run of one experiment; the parameter columns are the same
//! for every row.
struct ResultTable {
  std::string experiment;
  std::vector<std::string> param_names;
  std::vector<Row> rows;
  double z_tol = 4.0;

  //! Adds one row per reference (or one bare row when there are none).
  void add(const std::vector<std::string>& params, const std::string& statistic,
           const Estimate& estimate, const std::vector<Reference>& references);
  //! Number of rows against references of `kind` whose verdict is fail.
  std::int64_t failures(ReferenceKind kind) const;
};

}  // namespace lbmc::engine
