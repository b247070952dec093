// Rows of one parameter point: where an accumulator becomes an estimate with
// its interval, and the estimate with its references becomes rows (DESIGN
// §4-§5). Every experiment emits its statistics through these functions, so
// a mean, a variance or a quantile has one interval rule everywhere.
//
// Estimates at interval level `level`:
//  - mean: X̄, se s/√R, the normal interval X̄ ± z·se;
//  - variance: s², the se of s² from the fourth central moment, and
//    Bonett's (2006) log-scale interval with a kurtosis estimate, valid for
//    non-normal data at small R (rows.cpp);
//  - proportion: hits/trials with the exact binomial interval;
//  - quantile: the empirical α-quantile with the distribution-free
//    order-statistic interval, and the se implied by that interval.
//    Proportions and quantiles are checked against exact references by an
//    exact interval at the level that matches --z-tol (verdict_level), not by
//    a normal approximation, which fails for rare events and discrete laws;
//  - reciprocal: c/X̄ with the delta-method se c·se(X̄)/X̄² (an efficiency
//    such as λ/E[max] or t1/(p·E T_p));
//  - exact_value: a value without sampling error (se 0, a one-point interval).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/proportion.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/results.hpp"

namespace lbmc::engine {

//! The mean of `m` with its normal interval.
Estimate mean_estimate(const Moments& m, double level);
//! The unbiased variance s² of `m` with its se (from the fourth central
//! moment) and Bonett's interval, which holds for non-normal data at small
//! R; exact checks use Bonett's interval at verdict_level(z_tol), one-sided.
Estimate variance_estimate(const Moments& m, double level, double z_tol);
//! The proportion of `p` with its exact binomial interval (Clopper–Pearson)
//! at `level`, se √(p̂(1 − p̂)/R); z against a reference uses the half of the
//! exact interval at verdict_level(z_tol) on the reference's side over z_tol,
//! so |z| <= z_tol exactly when that interval holds the reference (no hit in
//! R trials still bounds p).
Estimate proportion_estimate(const Proportion& p, double level, double z_tol);
//! The α-quantile of `q` with its order-statistic interval at `level` and
//! the se it implies; z against a reference comes, as for proportions, from
//! the order-statistic interval at verdict_level(z_tol), and a side that
//! interval cannot bound (beyond the sample) leaves the check undecided with
//! a note naming the replications it needs.
Estimate quantile_estimate(const QuantileResult& q, double alpha, double level, double z_tol);
//! The level 1 − 2Φ(−z_tol) of the intervals that decide exact checks of
//! quantiles and proportions (6.3e-5 outside at z_tol = 4).
double verdict_level(double z_tol);
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
    add(statistic, variance_estimate(m, level_, table_.z_tol), refs);
  }
  //! `statistic` = the proportion `p`, against `refs`.
  void proportion(const std::string& statistic, const Proportion& p, const std::vector<Reference>& refs = {}) {
    add(statistic, proportion_estimate(p, level_, table_.z_tol), refs);
  }
  //! quantile_statistic(variable, alpha) = the α-quantile of `q`, against `refs`.
  void quantile(std::string_view variable, const QuantileStore& q, double alpha,
                const std::vector<Reference>& refs = {}) {
    add(quantile_statistic(variable, alpha), quantile_estimate(q.result(), alpha, level_, table_.z_tol), refs);
  }
  //! `statistic` = scale/mean(m) by the delta method, against `refs`.
  void reciprocal(const std::string& statistic, double scale, const Moments& m,
                  const std::vector<Reference>& refs = {}) {
    add(statistic, reciprocal_estimate(scale, mean_estimate(m, level_), level_), refs);
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
