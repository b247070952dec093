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
#pragma once

namespace lbmc::dist::detail {

//! log P(X = k) for Poisson(lambda), k >= 0 an integer, lambda > 0, by Loader
//! (2000) "Fast and accurate computation of binomial probabilities" eq. (5):
//! -stirlerr(k) - bd0(k, lambda) - log(2 pi k)/2; no cancellation for large lambda.
double poisson_log_pmf(double k, double lambda);
//! log P(X = k) for Binomial(n, p), q = 1 - p given separately; Loader (2000) eq. (4).
double binomial_log_pmf(double k, double n, double p, double q);

}  // namespace lbmc::dist::detail
