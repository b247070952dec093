// Exact finite-n law of Z = max(X_1, ..., X_n), X_i iid with cdf F
// (DESIGN §6 "Maximum of n iid loads"; Mehrotra–Ranka–Wang 1992, §3).
//
// Design: the law is a value type, MaxOfIid{law, n}, in Boost.Math's
// distribution shape (DESIGN §9), as bridge.hpp's laws are: free functions
// cdf, cdf(complement(...)), pdf, quantile, support, moments (mean and
// variance together; mean and variance of max_moments.hpp are its parts),
// and the two this project needs beyond Boost's set: mass_run (a table of
// masses of an integer law) and ceil_mean (E ceil(Z/L)).
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
//  - integer laws wider than 16384 terms (sd(X) above ~220) are summed with a
//    stride instead: the cdf forms, H = F^n and c the median of Z,
//      E Z       = c + sum_{k>=c} (1 - H(k)) - sum_{k<c} H(k),
//      E (Z-c)^2 = sum_{k>=c} (2(k-c)+1)(1 - H(k)) + sum_{k<c} (2(c-k)-1) H(k),
//    by the trapezoidal rule at the integers c + ih, h a power of two:
//      E Z       = c + 1/2 + h [1/2 - H(c) + sum_i (1 - H(c+ih)) - sum_i H(c-ih)],
//      E (Z-c)^2 = 1/2 + (h^2-1)/6 + h [1/2 - H(c) + sum_i (2ih+1)(1 - H(c+ih))
//                                       + sum_i (2ih-1) H(c-ih)]   (i >= 1).
//    Method: Euler–Maclaurin summation across the jump at c (the derivative
//    terms of the two sides cancel, the jump terms give 1/2 and (h^2-1)/6)
//    with the Poisson-summation remainder of the smooth part. It applies
//    because H(k) = G(k)^n at the integers for a cdf G entire in k (Poisson:
//    G(x) = Q(x+1, lambda), regularised upper incomplete gamma; binomial:
//    G(x) = I_{1-p}(M-x, x+1)), i.e. Z = ceil(U) for a continuous U with cdf
//    G^n; the remainder is at most (h/pi) sum_{m>=1} |phi_U(2 pi m/h)|/m
//    (and the like with phi_U' for the second moment), phi_U the
//    characteristic function of U: for U near a Gumbel law of scale beta it
//    is ~ sqrt(2 pi beta t) e^{-pi beta t/2} at t = 2 pi/h, below 1e-20 sd Z
//    for the stride used (h <= IQR(Z)/8 ~ beta/5; near a normal law far
//    smaller). A posteriori check: the sums at h and 2h (every other node)
//    must agree to 1e-9 (of sd Z, resp. E (Z-c)^2), else h is halved; the
//    remainder decaying like e^{-a/h}, the remainder at h is then ~ the square
//    of that at 2h. Nodes whose H (left) or 1 - H (right) is below 1e-20 are
//    dropped (< 1e-18 of E (Z-c)^2). H is evaluated at integers only, exactly
//    as in the term-by-term sums; h = 1 is the plain sum. (A stride over the
//    mass form P(Z = k) with normalisation was measured too: no more
//    accurate, one more Boost call per node.)
//  - E ceil(Z/L) = sum_{j>=0} P(Z > jL) (ceil_mean): the terms with jL
//    below the lower max-quantile at 2^-60 are exactly 1 in double and are
//    counted; the rest are summed while that takes at most 16384 terms.
//    Beyond, ceil(ceil(U)/L) = ceil(U/L) and the same Poisson-summation
//    argument give E ceil(Z/L) = (E Z - 1/2)/L + 1/2 with a remainder bounded
//    by (1/pi) sum_m |phi_U(2 pi m/L)|/m, which the strided moments have
//    checked for every L <= h (used only there; otherwise the terms are
//    summed, at most (window)/h ~ 2000 of them). The term-by-term sum is in
//    double from the count of leading ones, as the command layer always
//    summed it.
//
// Accuracy, measured against 50-digit mpmath values
// (tests/reference/max_of_iid_reference.py) for n = 1 ... 1e9:
//   normal (quadrature)      mean within 1 ulp, variance within 3 ulp;
//   integer laws (sums)      mean and variance within 1 ulp (binomial, Poisson
//                            with n up to 1e9);
//   wide integer laws        (strided) against brute-force sums over every
//                            integer at 50 digits, no stride
//                            (tests/reference/wide_laws_reference.py):
//                            Poisson 3e5 ... 1e9 with n = 2 ... 1e9 and
//                            binomial(M, 1/2) with M = 4e9, 1e11: mean within
//                            0.5 ulp, variance within 6 eps (E ceil(Z/L)
//                            within 2 ulp where it is (E Z - 1/2)/L + 1/2,
//                            ~10 ulp where ~2000 terms are added in double).
//                            Where the law's own cdf is worse the moments
//                            inherit it (the term-by-term sums average such
//                            errors over ~75 sd(X) terms, the strided sums over
//                            a few hundred): Boost's incomplete beta errs by
//                            up to 2^-36 relative at M = 1e9, p = 0.3 and 2^-34
//                            at M = 1e12, p = 1e-3 (variance off by 3e-13 and
//                            2.4e-11; mean within 5 ulp), and for p = 1/2 by
//                            ~1e-10 at M = 2^36, 3e-8 at 2^40, 3e-6 at 2^50
//                            (against the normal law with continuity
//                            correction, exact to O(1/M) there);
//   exponential, uniform     closed forms, within 1-2 ulp;
//   numeric_moments          exponential: within 2 ulp of the closed form;
//                            uniform: limited by the problem, not the method:
//                            F is evaluated at doubles x near b, rounded by
//                            eps·|b|/2 against a spread sd Z ~ (b-a)/n, so the
//                            variance is defined only to ~eps·|b|/sd Z (5e-12
//                            seen at n = 1e6, 4e-10 at n = 1e9).
//   cdf, cdf(complement)     the law's own cdf/ccdf error times the condition
//                            |n ln F| of F^n (Boost's normal upper tail errs
//                            by ~x^2/2 ulp, so 1 - Phi(20)^1e9 = 2.75e-80
//                            comes out within ~160 ulp);
//   quantile                 within 1 ulp for the normal (n up to 1e9).
// Guarantee: relative error below 1e-12 for the mean (relative to
// max(|E Z|, sd Z), since E Z can be 0) and 1e-10 for the variance, n <= 1e6.
//
// Cost: continuous moments ~0.1-2 ms. Integer moments take ~75 sd(X) terms
// at ~1-5 us each (Poisson(10): 0.4 ms; Poisson(1e4): 30 ms) up to 16384
// terms; beyond, at most ~500 strided nodes whatever the law's width, each
// one Boost cdf (2 us at the centre; in the far tails Boost's incomplete
// gamma falls back to series costing ~sqrt(lambda)): Poisson(1e6) 3 ms,
// 1e8 35-50 ms, 1e9 0.1-0.15 s, 1e10 0.25-0.3 s; binomial(4e9, 1/2) 8 ms,
// (1e12, 1e-3) 10 ms, (2^50, 1/2) 35 ms (the term-by-term sums took 0.4 s
// at Poisson(1e6), 28 s at binomial(1e12, 1e-3) and refused 1e6 terms and
// more). Beyond Poisson means ~1e10 (3e10 fails) Boost's series give up in
// the tails (after ~0.01-0.3 s); the moments then throw
// analytic::ReferenceUnavailable. quantile needs O(log) cdf values
// near the level only, and starts from the mean where Boost's own discrete
// quantile gives up (Poisson means beyond ~1e11).

#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "lbmc/analytic/complement.hpp"
#include "lbmc/analytic/max_moments.hpp"
#include "lbmc/dist/laws.hpp"

namespace lbmc::analytic {

//! The law of Z = max(X_1, ..., X_n), X_1, ..., X_n iid of law `law`
//! (Mehrotra §3; DESIGN §6): P(Z <= x) = F(x)^n.
class MaxOfIid {
 public:
  using value_type = double;
  //! The maximum of n iid copies of law. Throws engine::InputError for n < 1.
  MaxOfIid(dist::LoadLaw law, std::int64_t n);
  //! The law of each X_i.
  const dist::LoadLaw& law() const { return law_; }
  //! n.
  std::int64_t n() const { return n_; }

 private:
  dist::LoadLaw law_;
  std::int64_t n_;
};

//! P(Z <= x) = F(x)^n (Mehrotra §3; DESIGN §6).
double cdf(const MaxOfIid& d, double x);

//! P(Z > x) = 1 - F(x)^n, computed as -expm1(n·log1p(-P(X > x))) where
//! F(x) > 1/2, so it keeps full relative accuracy when it is tiny (e.g.
//! n·P(X > x) ~ 1e-15).
double cdf(const Complement<MaxOfIid>& c);

//! The density n F(x)^{n-1} f(x) of Z for continuous laws; for integer laws
//! the mass P(Z = x) = F(x)^n - F(x-1)^n (0 off the integers), formed as
//! F(x)^n · (-expm1(n·log1p(-P(X = x)/F(x)))) so it does not cancel.
double pdf(const MaxOfIid& d, double x);

//! The support of Z: the law's own (a maximum takes the values its terms do).
std::pair<double, double> support(const MaxOfIid& d);

//! Integer laws: P(Z = k) for every integer k in [lo, hi], for tables too
//! wide to evaluate the law's cdf at every cell (a Poisson(1e8) cdf costs
//! ~0.1 ms, its mass ~0.2 us). F(k) and P(X > k) are exact (Boost) at one
//! cell in kMassRunAnchorStride and carried to the others by adding masses
//! P(X = j), upward for F and downward for the upper tail, so each stays a
//! sum of positive terms (relative error below ~kMassRunAnchorStride ulp);
//! each P(Z = k) is then formed as pdf forms it. Throws engine::InputError
//! for a continuous law.
inline constexpr std::int64_t kMassRunAnchorStride = 256;
std::vector<double> mass_run(const MaxOfIid& d, double lo, double hi);

//! The alpha-quantile of Z for alpha in [0,1]. Continuous laws:
//! F^{-1}(alpha^{1/n}) (Mehrotra §3), computed as
//! quantile_upper(-expm1(ln(alpha)/n)) when that tail is below 1/2 (no
//! digits lost for large n). Integer laws: the smallest k with
//! F(k)^n >= alpha, with the inequality evaluated by cdf (so
//! cdf(d, k) >= alpha > cdf(d, k-1) holds for the returned k). alpha = 0 and
//! 1 give the ends of the support (possibly infinite). Throws
//! engine::InputError for alpha outside [0,1].
double quantile(const MaxOfIid& d, double alpha);

//! E Z and Var Z together, exactly (to the accuracy stated at the top of
//! this file): exponential(mean m): E = m H_n, Var = m^2 H_n^(2) (DESIGN §6,
//! Rényi's representation of exponential order statistics); uniform(a,b):
//! E = a + (b-a) n/(n+1), Var = (b-a)^2 n / ((n+1)^2 (n+2)) (the Beta(n,1)
//! law of (Z-a)/(b-a)); Pareto(alpha, x_m): E Z^r = x_m^r Gamma(n+1)
//! Gamma(1-r/alpha)/Gamma(n+1-r/alpha) (DESIGN §6); constant v: (v, 0);
//! normal by quadrature on the standard normal, then mu + sigma E,
//! sigma^2 Var; integer laws by sums. Throws analytic::ReferenceUnavailable
//! where Boost cannot evaluate an integer law's tails (Poisson means beyond
//! ~1e10), engine::InputError for a Pareto law without a variance.
MaxMoments moments(const MaxOfIid& d);

//! The same moments by the general method only (quadrature for every
//! continuous law, sums for every integer law), ignoring the closed forms;
//! exposed so the closed forms and the general method can check each other.
MaxMoments numeric_moments(const MaxOfIid& d);

//! E ceil(Z/L) = sum_{j>=0} P(Z > jL) for an integer law on 0, 1, 2, ...
//! (binomial, Poisson, constant >= 0) and an integer L >= 1: the time of the
//! most loaded of n groups of unit jobs served L at a time (Franklin §2,
//! grouping). Leading terms that are exactly 1 are counted; wide laws use
//! (E Z - 1/2)/L + 1/2 (see the note above). Throws engine::InputError for
//! L < 1 or another law; analytic::ReferenceUnavailable as moments.
double ceil_mean(const MaxOfIid& d, std::int64_t L);

}  // namespace lbmc::analytic
