// Poisson and binomial log-probabilities by Loader's saddle-point formulas
// (part of samplers.hpp, which is the header to include).
//
// Design note
// - C. Loader (2000), "Fast and accurate computation of binomial
//   probabilities": log P(X = k) = -stirlerr(k) - bd0(k, np) - log(2 pi k)/2
//   and its binomial analogue, in log space, with the Stirling error stirlerr
//   and the deviance term bd0 = x log(x/np) + np - x computed without
//   cancellation. Stable for any parameter size; Boost's cdf, by contrast, is
//   off by up to 5e-5 for binomials at M ~ 2^53.
// - They give every probability of the Poisson and binomial samplers
//   (discrete_samplers.hpp): tables, tails and the rejection samplers' final
//   tests. stirlerr(n) for n <= 32 is tabulated once in double-double
//   (log_pmf.cpp); beyond, the series. Both functions call std::log.
// - The negative binomial (failures before the R-th success, R > 0 real) in
//   the same form, by the identity f(k) = R/(R+k)·b(R; R+k, P) with b
//   Loader's binomial term (eq. (4)) at real arguments: with n = R + k,
//     log f(k) = stirlerr(n) - stirlerr(R) - stirlerr(k) - bd0(R, nP)
//                - bd0(k, nQ) + log(R/(2 pi n k))/2,          k >= 1,
//   and log f(0) = R log P. nP, nQ and the deviation R - nP = nQ - k are
//   formed in double-double from n = R + k (exact there) and P, Q = 1 - P,
//   so that neither bd0 inherits a rounding of nP (~1e-6 absolute at
//   n ~ 1e10) nor the cancellation of R - (R - nP) when nP << R.
//   stirlerr at the real arguments R + j < 32 comes from a table solved
//   once per law by the recurrence (in double-double), and every logarithm
//   is portable_log (portable_exp_log.hpp): the same bits with every C
//   library. Error within 16 eps·(40 + |log f|), tested against 50-digit
//   log-gamma for R from 0.01 to 1e10.
#pragma once

#include <vector>

#include "lbmc/dist/portable_exp_log.hpp"

namespace lbmc::dist::detail {

//! log P(X = k) for Poisson(lambda), k >= 0 an integer, lambda > 0, by Loader
//! (2000) "Fast and accurate computation of binomial probabilities" eq. (5):
//! -stirlerr(k) - bd0(k, lambda) - log(2 pi k)/2; no cancellation for large lambda.
double poisson_log_pmf(double k, double lambda);
//! log P(X = k) for Binomial(n, p), q = 1 - p given separately; Loader (2000) eq. (4).
double binomial_log_pmf(double k, double n, double p, double q);

//! log P(X = k) for the negative binomial law of R (real, > 0) and P in
//! (0, 1), failures: Loader's form (design note), portable_log only.
class NegBinomialLogPmf {
 public:
  //! The law's constants; r > 0 and 0 < p < 1, both finite (unchecked).
  NegBinomialLogPmf(double r, double p);
  //! log P(X = k) for an integer k >= 0 (below 2^53).
  double operator()(double k) const;

 private:
  double r_ = 1.0;
  double p_ = 0.5;
  double log_f0_ = 0.0;                // R log P
  double stirlerr_r_ = 0.0;            // stirlerr(R)
  double log_r_by_2pi_ = 0.0;          // log(R/(2 pi))
  std::vector<double> stirlerr_head_;  // stirlerr(R + j) for R + j < 32
  const ExpLogTables* math_ = &exp_log_tables();
};

}  // namespace lbmc::dist::detail
