// Rows of one parameter point: where an accumulator becomes an estimate with
// its interval, and the estimate with its references becomes rows (DESIGN
// §4-§5). Every experiment emits its statistics through these functions, so
// a mean, a variance or a quantile has one interval rule everywhere.
//
// Estimates at interval level `level`:
//  - mean: X̄, se s/√R, the normal interval X̄ ± z·se;
//  - variance: s², the se of s² from the fourth central moment, normal
//    interval;
//  - quantile: the empirical α-quantile with the distribution-free
//    order-statistic interval, and the se implied by that interval;
//  - reciprocal: c/X̄ with the delta-method se c·se(X̄)/X̄² (an efficiency
//    such as λ/E[max] or t1/(p·E T_p));
//  - exact_value: a value without sampling error (se 0, a one-point interval).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/results.hpp"

namespace lbmc::engine {

//! The mean of `m` with its normal interval.
Estimate mean_estimate(const Moments& m, double level);
//! The unbiased variance of `m` with its normal interval.
Estimate variance_estimate(const Moments& m, double level);
//! The α-quantile of `q` with its order-statistic interval.
Estimate quantile_estimate(const QuantileStore& q, double alpha, double level);
//! scale/x.value with the delta-method se scale·x.se/x.value².
Estimate reciprocal_estimate(double scale, const Estimate& x, double level);
//! A value with no sampling error, from `reps` replications.
Estimate exact_value(double value, std::int64_t reps = 0);

//! The name of the α-quantile of `variable`: "q0.95", or "W'.q0.95".
std::string quantile_statistic(std::string_view variable, double alpha);

//! The rows of one parameter point of `table`.
class PointRows {
 public:
  PointRows(ResultTable& table, std::vector<std::string> params, double level)
      : table_(table), params_(std::move(params)), level_(level) {}

  //! `statistic` = the mean of `m`, against `refs`.
  void mean(const std::string& statistic, const Moments& m, const std::vector<Reference>& refs = {}) {
    add(statistic, mean_estimate(m, level_), refs);
  }
  //! `statistic` = the variance of `m`, against `refs`.
  void variance(const std::string& statistic, const Moments& m, const std::vector<Reference>& refs = {}) {
    add(statistic, variance_estimate(m, level_), refs);
  }
  //! quantile_statistic(variable, alpha) = the α-quantile of `q`, against `refs`.
  void quantile(std::string_view variable, const QuantileStore& q, double alpha,
                const std::vector<Reference>& refs = {}) {
    add(quantile_statistic(variable, alpha), quantile_estimate(q, alpha, level_), refs);
  }
  //! `statistic` = an estimate formed elsewhere, against `refs`.
  void add(const std::string& statistic, const Estimate& estimate, const std::vector<Reference>& refs = {}) {
    table_.add(params_, statistic, estimate, refs);
  }

  const std::vector<std::string>& params() const noexcept { return params_; }
  double level() const noexcept { return level_; }

 private:
  ResultTable& table_;
  std::vector<std::string> params_;
  double level_;
};

}  // namespace lbmc::engine
