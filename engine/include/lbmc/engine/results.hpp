// Result rows and their verdicts (DESIGN §4).
//
// An experiment reports statistics (an estimate with its standard error and
// interval) at parameter points, each against zero or more references. Every
// (point, statistic, reference) becomes one row; a statistic without a
// reference is one row with empty reference fields. z and rel_diff are
// derived here, as is the verdict: exact references pass when |z| <= z_tol,
// bounds when the estimate is on the right side within z_tol standard errors,
// and asymptotic, corrected and paper references are informational.
//
// z uses the standard error on the reference's side of the estimate (the
// two sides differ for quantiles and proportions). A check the sample cannot
// decide gets no z and no verdict, never a failure, and a note says why: an
// interval open on the reference's side (a quantile beyond the sample's
// extremes), a sample without variation (every replication equal, say no
// hit of a rare event) or without a standard error (one replication). A
// value without sampling error (Estimate::exact) must equal its exact
// reference to pass. Equality always passes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lbmc/engine/statistic_info.hpp"

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
  //! For a published bound known not to hold everywhere: why, noted with
  //! every row that fails it.
  std::string caveat = {};
};

//! The standard errors of an estimate toward lower and toward higher values,
//! for an interval that is not symmetric (quantiles, proportions); +inf on a
//! side the sample cannot resolve.
struct SidedSe {
  double down = 0.0;
  double up = 0.0;
};

struct Estimate {
  double value = 0.0;
  //! Standard error; NaN when the sample cannot give one (fewer than two
  //! replications), +inf when its interval is open.
  double se = 0.0;
  double ci_low = 0.0;
  double ci_high = 0.0;
  std::int64_t reps = 0;
  //! One-sided standard errors; when absent, se on both sides.
  std::optional<SidedSe> sided = std::nullopt;
  //! True for a value without sampling error (a count of failed checks, a
  //! computed value): any difference from an exact reference is a failure.
  bool exact = false;
  //! Why the sample cannot resolve the statistic, when it cannot (e.g. the
  //! replications an open quantile interval needs); shown with unresolved
  //! checks.
  std::string unresolved_note = {};

  //! The standard error toward `reference`: the upper side when the
  //! reference lies above the value, else the lower side.
  double se_toward(double reference) const noexcept {
    if (!sided) return se;
    return reference > value ? sided->up : sided->down;
  }
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
  //! One line per exact check or bound the sample could not decide, and per
  //! reference that could not be computed (printed on stderr, kept in JSON).
  std::vector<std::string> notes;
  //! The statistics the experiment declares (statistics.hpp); when not
  //! empty, add() refuses a statistic none of them names.
  std::vector<StatisticInfo> declared;

  //! Adds one row per reference (or one bare row when there are none).
  //! Throws std::logic_error for a statistic `declared` does not name.
  void add(const std::vector<std::string>& params, const std::string& statistic,
           const Estimate& estimate, const std::vector<Reference>& references);
  //! Number of rows against references of `kind` whose verdict is fail.
  std::int64_t failures(ReferenceKind kind) const;
  //! Records that a reference of `statistic` at `params` could not be
  //! computed: the statistic's rows are added without it, and `why` is noted.
  void note_unavailable(const std::vector<std::string>& params, const std::string& statistic,
                        const std::string& reference, const std::string& why);
  //! "name=value ..." of `params`, for notes.
  std::string describe(const std::vector<std::string>& params) const;
};

}  // namespace lbmc::engine
