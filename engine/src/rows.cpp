// Estimates from accumulators.
#include "lbmc/engine/rows.hpp"

#include <fmt/format.h>

namespace lbmc::engine {

Estimate mean_estimate(const Moments& m, double level) {
  return normal_estimate(m.mean(), m.mean_se(), m.count(), level);
}

Estimate variance_estimate(const Moments& m, double level) {
  return normal_estimate(m.variance(), m.variance_se(), m.count(), level);
}

Estimate quantile_estimate(const QuantileStore& q, double alpha, double level) {
  const QuantileEstimate e = q.quantile(alpha, level);
  return {e.value, e.se, e.low, e.high, q.count()};
}

Estimate reciprocal_estimate(double scale, const Estimate& x, double level) {
  const MeanSummary r = reciprocal(scale, {x.value, x.se});
  return normal_estimate(r.mean, r.se, x.reps, level);
}

Estimate exact_value(double value, std::int64_t reps) { return {value, 0.0, value, value, reps}; }

std::string quantile_statistic(std::string_view variable, double alpha) {
  return variable.empty() ? fmt::format("q{}", alpha) : fmt::format("{}.q{}", variable, alpha);
}

}  // namespace lbmc::engine
