// Verdicts and z-scores of result rows.
#include "lbmc/engine/results.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <boost/math/distributions/normal.hpp>
#include <fmt/format.h>

#include "lbmc/engine/math_policy.hpp"

namespace lbmc::engine {

const char* to_string(ReferenceKind kind) {
  switch (kind) {
    case ReferenceKind::exact: return "exact";
    case ReferenceKind::asymptotic: return "asymptotic";
    case ReferenceKind::corrected: return "corrected";
    case ReferenceKind::bound: return "bound";
    case ReferenceKind::paper: return "paper";
  }
  return "";
}

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::none: return "";
    case Verdict::pass: return "pass";
    case Verdict::fail: return "fail";
    case Verdict::info: return "info";
  }
  return "";
}

double normal_critical(double level) {
  const boost::math::normal_distribution<double, engine::MathPolicy> standard;
  return boost::math::quantile(standard, (1.0 + level) / 2.0);
}

MeanSummary reciprocal(double scale, MeanSummary x) {
  return {scale / x.mean, scale * x.se / (x.mean * x.mean)};
}

Estimate normal_estimate(double value, double se, std::int64_t reps, double level) {
  const double half = normal_critical(level) * se;
  return {value, se, value - half, value + half, reps};
}

namespace {

// The z of `estimate` against `reference`, or why the sample cannot decide.
struct ZScore {
  std::optional<double> z;
  std::string unresolved;
};

ZScore z_score(const Estimate& estimate, double reference) {
  const double diff = estimate.value - reference;
  if (diff == 0.0) return {0.0, {}};
  if (estimate.exact) return {std::copysign(std::numeric_limits<double>::infinity(), diff), {}};
  const double se = estimate.se_toward(reference);
  if (se > 0.0 && std::isfinite(se)) return {diff / se, {}};
  // An exact interval (quantile, proportion) of zero width on the reference's
  // side excludes it: that is a finding, not a lack of data.
  if (estimate.sided && se == 0.0) return {std::copysign(std::numeric_limits<double>::infinity(), diff), {}};
  if (!estimate.unresolved_note.empty()) return {std::nullopt, estimate.unresolved_note};
  if (std::isnan(se)) return {std::nullopt, "no standard error (fewer than two replications)"};
  if (se == 0.0) {
    return {std::nullopt, fmt::format("every one of the {} replications gave {}: a sample without variation "
                                      "cannot check a different value",
                                      estimate.reps, estimate.value)};
  }
  return {std::nullopt, "the interval is open on the reference's side"};
}

Verdict judge(const Reference& ref, double z, double z_tol) {
  switch (ref.kind) {
    case ReferenceKind::exact: return std::abs(z) <= z_tol ? Verdict::pass : Verdict::fail;
    case ReferenceKind::bound:
      return (ref.upper_bound ? z <= z_tol : z >= -z_tol) ? Verdict::pass : Verdict::fail;
    case ReferenceKind::asymptotic:
    case ReferenceKind::corrected:
    case ReferenceKind::paper: return Verdict::info;
  }
  return Verdict::none;
}

bool is_check(ReferenceKind kind) { return kind == ReferenceKind::exact || kind == ReferenceKind::bound; }

}  // namespace

std::string ResultTable::describe(const std::vector<std::string>& params) const {
  std::string text;
  for (std::size_t i = 0; i < param_names.size() && i < params.size(); ++i) {
    text += fmt::format("{}{}={}", text.empty() ? "" : " ", param_names[i], params[i]);
  }
  return text;
}

void ResultTable::note_unavailable(const std::vector<std::string>& params, const std::string& statistic,
                                   const std::string& reference, const std::string& why) {
  notes.push_back(fmt::format("{} {}: reference {} unavailable: {}", describe(params), statistic, reference, why));
}

void ResultTable::add(const std::vector<std::string>& params, const std::string& statistic,
                      const Estimate& estimate, const std::vector<Reference>& references) {
  if (!declared.empty() && !declares(declared, statistic)) {
    throw std::logic_error(fmt::format("{}: statistic '{}' is not in the experiment's list", experiment, statistic));
  }
  if (references.empty()) {
    rows.push_back({params, statistic, estimate, std::nullopt, std::nullopt, std::nullopt, Verdict::none});
    return;
  }
  for (const Reference& ref : references) {
    Row row{params, statistic, estimate, ref, std::nullopt, std::nullopt, Verdict::none};
    if (std::isfinite(ref.value) && !std::isnan(estimate.value)) {
      if (ref.value != 0.0) row.rel_diff = (estimate.value - ref.value) / std::abs(ref.value);
      const ZScore z = z_score(estimate, ref.value);
      const bool safe_side = ref.upper_bound ? estimate.value < ref.value : estimate.value > ref.value;
      if (z.z) {
        row.z = z.z;
        row.verdict = judge(ref, *z.z, z_tol);
      } else if (ref.kind == ReferenceKind::bound && estimate.se == 0.0 && safe_side) {
        // Every replication gave the same value, on the bound's side: the
        // rule estimate - z_tol·se <= bound holds as it reads.
        row.z = std::copysign(std::numeric_limits<double>::infinity(), estimate.value - ref.value);
        row.verdict = Verdict::pass;
      } else if (is_check(ref.kind)) {
        notes.push_back(fmt::format("{} {} ({} {}): no verdict: {}", describe(params), statistic, to_string(ref.kind),
                                    ref.name, z.unresolved));
      } else {
        row.verdict = Verdict::info;
      }
    } else if (estimate.reps == 0) {
      // No replication gave the variable a value: nothing to judge.
      if (is_check(ref.kind)) {
        notes.push_back(fmt::format("{} {} ({} {}): no verdict: no replication gave it a value", describe(params),
                                    statistic, to_string(ref.kind), ref.name));
      } else {
        row.verdict = Verdict::info;
      }
    } else {
      row.verdict = is_check(ref.kind) ? Verdict::fail : Verdict::info;
    }
    if (row.verdict == Verdict::fail && !ref.caveat.empty()) {
      notes.push_back(fmt::format("{} {} ({} {}): not respected: {}", describe(params), statistic, to_string(ref.kind),
                                  ref.name, ref.caveat));
    }
    rows.push_back(std::move(row));
  }
}

std::int64_t ResultTable::failures(ReferenceKind kind) const {
  return std::count_if(rows.begin(), rows.end(), [kind](const Row& r) {
    return r.verdict == Verdict::fail && r.reference && r.reference->kind == kind;
  });
}

}  // namespace lbmc::engine
