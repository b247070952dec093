// Estimates from accumulators.
#include "lbmc/engine/rows.hpp"

#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <fmt/format.h>

#include "lbmc/engine/math_policy.hpp"

namespace lbmc::engine {

double verdict_level(double z_tol) {
  const boost::math::normal_distribution<double, MathPolicy> standard;
  return 1.0 - 2.0 * boost::math::cdf(boost::math::complement(standard, z_tol));
}

namespace {

// One-sided standard errors from an exact interval [low, high] at
// verdict_level(z_tol): half-widths over z_tol, so that |z| <= z_tol exactly
// when the reference lies inside that interval.
SidedSe sided_from(double value, double low, double high, double z_tol) {
  return {(value - low) / z_tol, (high - value) / z_tol};
}

}  // namespace

Estimate mean_estimate(const Moments& m, double level) {
  // No observation has no mean (Moments keeps 0 there, its merge's start).
  const double mean = m.count() > 0 ? m.mean() : std::numeric_limits<double>::quiet_NaN();
  return normal_estimate(mean, m.mean_se(), m.count(), level);
}

namespace {

// Bonett's (2006) interval for a variance at confidence `level`, valid for
// non-normal data at small R, where the studentised s² has a heavy lower
// tail: exp(ln(c·s²) ± z·se) with c = R/(R − z) and
// se = c·√((γ − (R − 3)/R)/(R − 1)), γ the sample kurtosis R·M4/M2² (Bonett
// estimates it about a trimmed mean; the moments here have the mean only).
// D. G. Bonett, Approximate confidence interval for standard deviation of
// nonnormal distributions, Comput. Stat. Data Anal. 50 (2006) 775–782.
std::pair<double, double> variance_interval(const Moments& m, double level) {
  const double r = static_cast<double>(m.count());
  const double z = normal_critical(level);
  const double c = r / (r - z);
  const double spread = (m.kurtosis() - (r - 3.0) / r) / (r - 1.0);
  const double se = c * std::sqrt(spread > 0.0 ? spread : 0.0);
  const double center = std::log(c * m.variance());
  return {std::exp(center - z * se), std::exp(center + z * se)};
}

}  // namespace

Estimate variance_estimate(const Moments& m, double level, double z_tol) {
  Estimate estimate = normal_estimate(m.variance(), m.variance_se(), m.count(), level);
  if (!(m.count() >= 4 && m.variance() > 0.0)) return estimate;
  std::tie(estimate.ci_low, estimate.ci_high) = variance_interval(m, level);
  const auto [low, high] = variance_interval(m, verdict_level(z_tol));
  estimate.sided = sided_from(estimate.value, low, high, z_tol);
  return estimate;
}

Estimate proportion_estimate(const Proportion& p, double level, double z_tol) {
  using Binomial = boost::math::binomial_distribution<double, MathPolicy>;
  if (p.trials() == 0) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan, nan, nan, 0};
  }
  const double r = static_cast<double>(p.trials());
  const double k = static_cast<double>(p.hits());
  const double value = p.value();
  const auto bounds = [&](double at_level) {
    const double tail = (1.0 - at_level) / 2.0;
    return std::pair{Binomial::find_lower_bound_on_p(r, k, tail), Binomial::find_upper_bound_on_p(r, k, tail)};
  };
  const auto [low, high] = bounds(level);
  Estimate estimate{value, p.se(), low, high, p.trials()};
  const auto [verdict_low, verdict_high] = bounds(verdict_level(z_tol));
  estimate.sided = sided_from(value, verdict_low, verdict_high, z_tol);
  return estimate;
}

Estimate quantile_estimate(const QuantileResult& q, double alpha, double level, double z_tol) {
  const double check_level = verdict_level(z_tol);
  const QuantileInterval verdict = q.interval(alpha, check_level);
  const QuantileEstimate e = q.quantile(alpha, level);
  Estimate estimate{e.value, e.se, e.low, e.high, q.count()};
  estimate.sided = sided_from(e.value, verdict.low, verdict.high, z_tol);
  if (std::isfinite(verdict.low) && std::isfinite(verdict.high)) return estimate;
  // An end beyond the sample: the check can decide only on the other side.
  // X_(R) bounds q_α above at level c once α^R <= (1 − c)/2, X_(1) below
  // once (1 − α)^R <= (1 − c)/2.
  const double log_tail = std::log((1.0 - check_level) / 2.0);
  const bool open_low = !std::isfinite(verdict.low);
  const bool open_high = !std::isfinite(verdict.high);
  const double needed = std::ceil(std::max(open_low ? log_tail / std::log1p(-alpha) : 0.0,
                                           open_high ? log_tail / std::log(alpha) : 0.0));
  estimate.unresolved_note = fmt::format(
      "the sample cannot bound the {}-quantile {} with {} replications (a check at |z| <= {:g} needs at least {:.0f})",
      alpha, open_low && open_high ? "on either side" : open_low ? "from below" : "from above", q.count(), z_tol,
      needed);
  return estimate;
}

Estimate reciprocal_estimate(double scale, const Estimate& x, double level) {
  const MeanSummary r = reciprocal(scale, {x.value, x.se});
  return normal_estimate(r.mean, r.se, x.reps, level);
}

Estimate exact_value(double value, std::int64_t reps) {
  Estimate e{value, 0.0, value, value, reps};
  e.exact = true;
  return e;
}

std::string quantile_statistic(std::string_view variable, double alpha) {
  return variable.empty() ? fmt::format("q{}", alpha) : fmt::format("{}.q{}", variable, alpha);
}

}  // namespace lbmc::engine
