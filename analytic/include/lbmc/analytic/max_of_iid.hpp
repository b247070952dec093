// Exact finite-n law of Z = max(X_1, ..., X_n), X_i iid with cdf F
// (DESIGN §6 "Maximum of n iid loads"; Mehrotra–Ranka–Wang 1992, §3).
//
// P(Z <= x) = F(x)^n is the only formula; everything else is about
// evaluating it and its moments without losing digits for n up to ~1e9:
//  - F^n and 1 - F^n go through log1p(-P(X > x)) and expm1 in the upper
//    tail, so 1 - F^n keeps full relative accuracy when it is tiny;
//  - quantiles solve F(x) = alpha^{1/n} through the upper tail
//    1 - alpha^{1/n} = -expm1(ln(alpha)/n) and quantile_upper;
//  - moments are centred at c = the median of Z:
//      E Z = c + int_c^inf (1 - F^n) dx - int_{-inf}^c F^n dx,
//      E (Z-c)^2 = 2 int_c^inf (x-c)(1 - F^n) dx + 2 int_{-inf}^c (c-x) F^n dx,
//    and Var Z = E (Z-c)^2 - (E Z - c)^2, which cancels little because c is
//    within a fraction of sd Z of E Z. Continuous laws by double-exponential
//    quadrature (exp_sinh on half-lines, tanh_sinh on bounded sides) in
//    t = (x-c)/s, s the interquartile range of Z; integer laws by sums of
//    P(Z = k) = F(k)^n - F(k-1)^n, each formed as
//    F(k)^n · (-expm1(n·log1p(-P(X=k)/F(k)))), over every k except tails of
//    mass below 1e-300, normalised by the summed mass. Closed forms where they
//    exist: exponential (harmonic numbers), uniform, constant; normal loads
//    are reduced to the standard normal.
//
// Accuracy, measured against 50-digit mpmath values
// (tests/reference/max_of_iid_reference.py) for n = 1 ... 1e9:
//   normal (quadrature)      mean within 1 ulp, variance within 3 ulp;
//   integer laws (sums)      mean and variance within 1 ulp (binomial, Poisson
//                            with n up to 1e9);
//   exponential, uniform     closed forms, within 1-2 ulp;
//   max_moments_numeric      exponential: within 2 ulp of the closed form;
//                            uniform: limited by the problem, not the method:
//                            F is evaluated at doubles x near b, rounded by
//                            eps·|b|/2 against a spread sd Z ~ (b-a)/n, so the
//                            variance is defined only to ~eps·|b|/sd Z (5e-12
//                            seen at n = 1e6, 4e-10 at n = 1e9).
//   max_cdf, max_ccdf        the law's own cdf/ccdf error times the condition
//                            |n ln F| of F^n (Boost's normal upper tail errs
//                            by ~x^2/2 ulp, so 1 - Phi(20)^1e9 = 2.75e-80
//                            comes out within ~160 ulp);
//   max_quantile             within 1 ulp for the normal (n up to 1e9).
// Guarantee: relative error below 1e-12 for the mean (relative to
// max(|E Z|, sd Z), since E Z can be 0) and 1e-10 for the variance, n <= 1e6.
//
// Cost: continuous moments ~0.1-2 ms. Integer moments take ~75 sd(X) terms
// at ~1-5 us each (Poisson(10): 0.4 ms; Poisson(1e6): 1 s); laws needing more
// than 1e6 terms (sd(X) above ~1.3e4) are refused with engine::RuntimeFailure.

#pragma once

#include <cstdint>

#include "lbmc/dist/laws.hpp"

namespace lbmc::analytic {

//! P(Z <= x) = F(x)^n (Mehrotra §3; DESIGN §6). Throws engine::InputError for
//! n < 1.
double max_cdf(const dist::LoadLaw& law, std::int64_t n, double x);

//! P(Z > x) = 1 - F(x)^n, computed as -expm1(n·log1p(-P(X > x))) where
//! F(x) > 1/2, so it keeps full relative accuracy when it is tiny (e.g.
//! n·P(X > x) ~ 1e-15). Throws engine::InputError for n < 1.
double max_ccdf(const dist::LoadLaw& law, std::int64_t n, double x);

//! The density n F(x)^{n-1} f(x) of Z for continuous laws; for integer laws
//! the mass P(Z = x) = F(x)^n - F(x-1)^n (0 off the integers), formed as
//! F(x)^n · (-expm1(n·log1p(-P(X = x)/F(x)))) so it does not cancel.
//! Throws engine::InputError for n < 1.
double max_pdf(const dist::LoadLaw& law, std::int64_t n, double x);

//! The alpha-quantile of Z for alpha in [0,1]. Continuous laws:
//! F^{-1}(alpha^{1/n}), computed as quantile_upper(-expm1(ln(alpha)/n)) when
//! that tail is below 1/2 (no digits lost for large n). Integer laws: the
//! smallest k with F(k)^n >= alpha, with the inequality evaluated by max_cdf
//! (so max_cdf(k) >= alpha > max_cdf(k-1) holds for the returned k).
//! alpha = 0 and 1 give the ends of the support (possibly infinite).
//! Throws engine::InputError for n < 1 or alpha outside [0,1].
double max_quantile(const dist::LoadLaw& law, std::int64_t n, double alpha);

//! Mean and variance of Z.
struct MaxMoments {
  double mean = 0.0;
  double variance = 0.0;
};

//! E Z and Var Z, exactly (to the accuracy stated at the top of this file):
//! exponential(mean m): E = m H_n, Var = m^2 H_n^(2) (DESIGN §6, Rényi's
//! representation of exponential order statistics); uniform(a,b):
//! E = a + (b-a) n/(n+1), Var = (b-a)^2 n / ((n+1)^2 (n+2)) (the Beta(n,1)
//! law of (Z-a)/(b-a)); constant v: (v, 0); normal by quadrature on the
//! standard normal, then mu + sigma E, sigma^2 Var; integer laws by sums.
//! Throws engine::InputError for n < 1, engine::RuntimeFailure for an
//! integer law too wide to sum (more than 1e6 terms).
MaxMoments max_moments(const dist::LoadLaw& law, std::int64_t n);

//! The same moments by the general method only (quadrature for every
//! continuous law, sums for every integer law), ignoring the closed forms;
//! exposed so the closed forms and the general method can check each other.
//! Throws engine::InputError for n < 1.
MaxMoments max_moments_numeric(const dist::LoadLaw& law, std::int64_t n);

}  // namespace lbmc::analytic
