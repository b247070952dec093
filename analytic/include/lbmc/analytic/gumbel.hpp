// Gumbel (extreme-value) approximations of Z = max of n iid loads.
//
// Mehrotra–Ranka–Wang 1992, §3 (after David 1970): for iid U_i with cdf F and
// density f, P(b_n (Z* - a_n) <= x) -> exp(-e^{-x}) with F(a_n) = (n-1)/n and
// b_n = n f(a_n); then E Z* ~ a_n + gamma/b_n, Var Z* ~ pi^2/(6 b_n^2). For
// normal loads the paper takes a_n = b_n = sqrt(2 ln n).
//
// Design: both forms are expressed as one value type, GumbelApprox, "Z is
// approximately location + scale·G with G standard Gumbel" (the same
// parametrisation as boost::math::extreme_value_distribution), with free
// functions mean, variance, cdf, quantile in Boost.Math's API shape. The
// paper form (DESIGN §6 reference `gumbel-paper`) uses only the mean mu and
// standard deviation sigma of the law: location mu + sigma·sqrt(2 ln n),
// scale sigma/sqrt(2 ln n). The general norming (`gumbel-quantile-norming`)
// uses the law itself: location a_n = F^{-1}(1 - 1/n), scale 1/b_n; it is an
// std::optional because it has no meaning for integer-valued laws or where
// the density at a_n vanishes. These are limit formulas: they are reported as
// `asymptotic` references, never checked as exact.
#pragma once

#include <cstdint>
#include <optional>

#include "lbmc/dist/laws.hpp"

namespace lbmc::analytic {

//! Z ~ location + scale·G, where P(G <= g) = exp(-e^{-g}) (standard Gumbel).
//! In the paper's notation location = a_n and scale = 1/b_n (for Z*), or
//! mu + sigma a_n and sigma/b_n for Z = mu + sigma Z*.
struct GumbelApprox {
  double location = 0.0;
  double scale = 1.0;  // >= 0; 0 for a point mass
};

//! location + gamma·scale (Mehrotra §3: E(Z*) = a_n + gamma/b_n).
double mean(const GumbelApprox& g);
//! pi^2 scale^2 / 6 (Mehrotra §3: Var(Z*) = pi^2 / (6 b_n^2)).
double variance(const GumbelApprox& g);
//! exp(-exp(-(x - location)/scale)) (Mehrotra §3, the extreme-value limit);
//! a step at location when scale = 0.
double cdf(const GumbelApprox& g, double x);
//! location - scale·ln(-ln alpha) for alpha in [0,1] (Mehrotra §3, the
//! "alpha-th percentile"); -inf at 0 and +inf at 1 (location when scale = 0).
//! Throws engine::InputError for alpha outside [0,1].
double quantile(const GumbelApprox& g, double alpha);

//! The paper's form for loads of mean mu and standard deviation sigma >= 0
//! (Mehrotra §3 with a_n = b_n = sqrt(2 ln n)):
//!   E(Z) = mu + sigma (sqrt(2 ln n) + gamma/sqrt(2 ln n)),
//!   Var(Z) = pi^2 sigma^2 / (12 ln n),
//!   alpha-percentile mu + sigma (sqrt(2 ln n) - ln(-ln alpha)/sqrt(2 ln n)).
//! Defined for n >= 2; throws engine::InputError for n < 2 or sigma < 0.
GumbelApprox gumbel_paper(double mu, double sigma, std::int64_t n);
//! The paper's form with mu and sigma the mean and standard deviation of law.
GumbelApprox gumbel_paper(const dist::LoadLaw& law, std::int64_t n);

//! The general norming constants (Mehrotra §3 after David 1970):
//! a_n = F^{-1}(1 - 1/n) and b_n = n f(a_n), so E ~ a_n + gamma/b_n,
//! Var ~ pi^2/(6 b_n^2), quantile a_n - ln(-ln alpha)/b_n. Returns nothing for
//! laws without a density, for laws in the Fréchet domain (Pareto), and where a_n is not
//! finite or f(a_n) = 0 (e.g. n = 1 for unbounded laws). Throws
//! engine::InputError for n < 1.
std::optional<GumbelApprox> gumbel_norming(const dist::LoadLaw& law, std::int64_t n);

}  // namespace lbmc::analytic
