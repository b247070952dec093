// Verdicts and z-scores of result rows.
#include "lbmc/engine/results.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/normal.hpp>

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

// (estimate − reference)/se; with se = 0 (a degenerate law, or a discrete
// quantile whose interval is one point) agreement is z = 0 and anything
// else is infinitely far.
double z_score(double estimate, double se, double reference) {
  const double diff = estimate - reference;
  if (se > 0.0) return diff / se;
  if (diff == 0.0) return 0.0;
  return std::copysign(std::numeric_limits<double>::infinity(), diff);
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

}  // namespace

void ResultTable::add(const std::vector<std::string>& params, const std::string& statistic,
                      const Estimate& estimate, const std::vector<Reference>& references) {
  if (references.empty()) {
    rows.push_back({params, statistic, estimate, std::nullopt, std::nullopt, std::nullopt, Verdict::none});
    return;
  }
  for (const Reference& ref : references) {
    Row row{params, statistic, estimate, ref, std::nullopt, std::nullopt, Verdict::none};
    if (std::isfinite(ref.value) && !std::isnan(estimate.value)) {
      const double z = z_score(estimate.value, estimate.se, ref.value);
      row.z = z;
      if (ref.value != 0.0) row.rel_diff = (estimate.value - ref.value) / std::abs(ref.value);
      row.verdict = judge(ref, z, z_tol);
    } else {
      row.verdict = ref.kind == ReferenceKind::exact || ref.kind == ReferenceKind::bound
                        ? Verdict::fail
                        : Verdict::info;
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
