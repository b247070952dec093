// Prefix shifts: the discrete bridge V_k = X_1 + ... + X_k - k·Xbar and the
// laws of W' = max_k V_k/(sigma sqrt n) and D' = max_k |V_k|/(sigma sqrt n)
// (DESIGN §6 "Prefix shifts"; Mehrotra–Ranka–Wang 1992, §3).
//
// Three layers, from limit to exact:
//  - limits (n -> inf, the Brownian bridge, Mehrotra §3 after Billingsley
//    1968): P(W' <= x) -> 1 - e^{-2x^2} and P(D' <= x) -> K(x), the
//    Kolmogorov law. K is evaluated by two series, each where it needs no
//    cancellation: the paper's alternating series
//      K(x) = 1 - S(x),  S(x) = 2 sum_{i>=1} (-1)^{i+1} e^{-2 i^2 x^2},
//    for x > 0.8275 (K's median: there S <= 1/2), and its Jacobi
//    (theta-function) transform, a sum of positive terms,
//      K(x) = T(x) = (sqrt(2 pi)/x) sum_{i>=1} e^{-(2i-1)^2 pi^2 / (8 x^2)},
//    for x <= 0.8275 (there T <= 1/2). The exponent of the leading term is
//    formed in double-double (x^2 as an exact product), because e^{-y} turns an absolute
//    error d in y into a relative error d: at x = 0.05, y = 493 and a
//    rounded y would cost ~500 ulp.
//  - the first-order discrete-monitoring correction (Chernoff 1965;
//    Siegmund 1979; Broadie–Glasserman–Kou 1997): a bridge watched only at
//    n points misses the excursions between them, and to first order its
//    maximum is the continuous one lowered by beta/sqrt n,
//    beta = -zeta(1/2)/sqrt(2 pi) = 0.5826. monitoring_corrected(law, n) is
//    the law of M - beta/sqrt n exactly (cdf F(x + s), quantile q - s, mean
//    m - s, second moment Var + (m - s)^2, s = beta/sqrt n): a first-order
//    correction with an O(1/n) error, meant for x of order 1. It says
//    nothing exact about the atom at 0: the shifted law puts mass
//    1 - e^{-2 s^2} ~ 2 beta^2/n = 0.68/n below 0, the discrete W' has
//    P(W' = 0) = 1/n.
//  - exact finite-n values: P(W' = 0) = 1/n for any continuous iid loads
//    (cycle lemma), E W' for normal loads (Spitzer's identity), and the
//    covariance of the V_k (Mehrotra §3, property 2).
//
// Design: the two limit laws are parameter-free value types, BridgeMaximum
// and Kolmogorov, in Boost.Math's distribution shape (DESIGN §9): free
// functions cdf, pdf, quantile, mean, variance, second_moment, and the upper
// tail as cdf(boost::math::complement(law, x)), computed directly rather
// than as 1 - cdf, so that it keeps full relative accuracy where it is tiny;
// likewise quantile(complement(law, q)) solves for the upper tail q without
// forming 1 - q. Shifted<Law> is the law of M - s for any such law (one
// template instead of a shifted copy of every function), and
// monitoring_corrected(law, n) is Shifted with s = beta/sqrt n. Shifted
// only moves the argument or the result by s (its second moment is
// Var + (m - s)^2), so each of its values is a base-law value at x + s, or
// one minus s, to the last bit.
//
// Accuracy: relative error in units of eps = 2^-52, the largest seen against
// 40-50 digit mpmath values on dense grids (3000 x in [0.035, 6], 1500 p,
// 1800 q in [2^-1074, 1], every n <= 600 and a geometric grid to 4e12);
// tests/bridge_test.cpp pins each at 2-4 eps against
// tests/reference/bridge_reference.py:
//   BridgeMaximum: cdf, cdf(complement), pdf, quantile
//                            <= 0.9 (the complement also at 1e-87);
//                  quantile(complement)  <= 0.8 for q in [2^-1074, 1];
//   Kolmogorov: cdf, cdf(complement)
//                            <= 2.4 wherever the value is a normal double
//                            (cdf 8e-308 at x = 0.04165, complement 4e-22 at
//                            x = 5); below 2.2e-308 (x < 0.0416 for the cdf,
//                            x > 18.8 for the complement) it is subnormal,
//                            rounded once, or 0;
//               pdf          <= 2.3 (same proviso);
//               quantile     <= 1 for p in [1e-300, 1 - 1e-16];
//               quantile(complement)  <= 0.9 for q in [2^-1074, 1];
//   variance                 0.6 (BridgeMaximum: 1/2 - pi/8) and 5.8
//                            (Kolmogorov: E D'^2 - (E D')^2, which cancels
//                            to 1/12 of E D'^2: below 0.5 eps of E D'^2);
//   monitoring_beta          <= 1 (Boost's zeta(1/2));
//   spitzer_bridge_mean_normal <= 1.2 for every n (Neumaier-compensated sum
//                            for n <= 256; beyond, the ten-term expansion,
//                            truncation error below 1e-28);
//   Shifted (and so monitoring_corrected)
//                            the above plus the rounding of x + s times the
//                            condition number of the law.

#pragma once

#include <cstdint>

#include "lbmc/analytic/complement.hpp"

namespace lbmc::analytic {

// ---------------------------------------------------------------------------
// Limit of W': the maximum M of a standard Brownian bridge.

//! The law of M = max_{0<=t<=1} B(t), B a standard Brownian bridge: the limit
//! of W' (Mehrotra §3, after Billingsley 1968). Parameter-free.
class BridgeMaximum {
 public:
  using value_type = double;
};

//! P(M <= x) = 1 - e^{-2x^2} for x > 0, 0 for x <= 0 (Mehrotra §3:
//! P(W' <= x) = 1 - e^{-2x^2}, after Billingsley 1968), as -expm1(-2x^2).
double cdf(const BridgeMaximum& law, double x);
//! P(M > x) = e^{-2x^2} for x > 0 (1 for x <= 0), with 2x^2 in double-double
//! so that tiny values keep full relative accuracy.
double cdf(const Complement<BridgeMaximum>& c);
//! The density 4x e^{-2x^2} for x > 0 (0 for x <= 0).
double pdf(const BridgeMaximum& law, double x);
//! The p-quantile sqrt(-ln(1-p)/2) = sqrt(-log1p(-p)/2) (Mehrotra §3: the
//! alpha-th percentile of W is sigma sqrt(n/2) (-ln(1-alpha))^{1/2}); 0 at
//! p = 0, +inf at p = 1. Throws engine::InputError for p outside [0,1].
double quantile(const BridgeMaximum& law, double p);
//! The x with P(M > x) = q: sqrt(-ln(q)/2) (Mehrotra §3, as above with
//! 1 - alpha = q), accurate for tiny q; +inf at q = 0, 0 at q = 1. Throws
//! engine::InputError for q outside [0,1].
double quantile(const Complement<BridgeMaximum>& c);
//! E M = (1/2) sqrt(pi/2) = 0.6267 (Mehrotra §3: E(W') = 0.626).
double mean(const BridgeMaximum& law);
//! Var M = 1/2 - pi/8 (E M^2 - (E M)^2).
double variance(const BridgeMaximum& law);
//! E M^2 = 1/2 (M^2 is exponential with mean 1/2).
double second_moment(const BridgeMaximum& law);

// ---------------------------------------------------------------------------
// Limit of D': the Kolmogorov law, sup |B| of a Brownian bridge B.

//! The law of sup_{0<=t<=1} |B(t)|, B a standard Brownian bridge: the limit
//! of D' (Mehrotra §3, after Billingsley 1968), Kolmogorov's law.
//! Parameter-free.
class Kolmogorov {
 public:
  using value_type = double;
};

//! K(x) = P(sup|B| <= x) = 1 + 2 sum_{i>=1} (-1)^i e^{-2 i^2 x^2} for x > 0
//! (Mehrotra §3, after Billingsley 1968), 0 for x <= 0; by the theta series
//! for x <= 0.8275 and the alternating series above (see the top of this
//! file). Full relative accuracy wherever K(x) is a normal double.
double cdf(const Kolmogorov& law, double x);
//! 1 - K(x) = 2 sum_{i>=1} (-1)^{i+1} e^{-2 i^2 x^2} for x > 0.8275 (full
//! relative accuracy in the upper tail), 1 - T(x) below; 1 for x <= 0.
double cdf(const Complement<Kolmogorov>& c);
//! The density K'(x) = 8x sum_{i>=1} (-1)^{i+1} i^2 e^{-2 i^2 x^2}, or the
//! derivative of the theta series for x <= 0.8275; 0 for x <= 0.
double pdf(const Kolmogorov& law, double x);
//! The p-quantile: the root of ln T(x) = ln p for p <= 1/2 and of
//! ln S(x) = ln(1-p) for p > 1/2 (1 - p is exact there), by safeguarded
//! Newton steps, so tails keep full precision. 0 at p = 0, +inf at p = 1.
//! Throws engine::InputError for p outside [0,1].
double quantile(const Kolmogorov& law, double p);
//! The x with 1 - K(x) = q: the root of ln S(x) = ln q for q < 1/2 (so
//! q down to the smallest subnormal keeps full precision), and
//! quantile(law, 1 - q) for q >= 1/2 (1 - q is exact there). +inf at q = 0,
//! 0 at q = 1. Throws engine::InputError for q outside [0,1].
double quantile(const Complement<Kolmogorov>& c);
//! E sup|B| = sqrt(pi/2) ln 2 = 0.8687.
double mean(const Kolmogorov& law);
//! Var sup|B| = pi^2/12 - (sqrt(pi/2) ln 2)^2, formed from the two moments.
double variance(const Kolmogorov& law);
//! E (sup|B|)^2 = pi^2/12.
double second_moment(const Kolmogorov& law);

namespace detail {

//! K(x) and 1 - K(x) from one series.
struct KolmogorovSeries {
  double cdf = 0.0;
  double ccdf = 1.0;
};
//! The theta series alone: cdf = T(x), ccdf = 1 - T(x), for 0 < x <= 2
//! (at most 6 terms). Exposed so that the two series can check each other;
//! cdf(Kolmogorov, x) uses it for x <= 0.8275. Throws engine::InputError
//! outside (0, 2].
KolmogorovSeries kolmogorov_theta_series(double x);
//! The alternating series alone: ccdf = S(x), cdf = 1 - S(x), for x >= 1/4
//! (at most 20 terms). Exposed so that the two series can check each other;
//! cdf(Kolmogorov, x) uses it for x > 0.8275. Throws engine::InputError for
//! x < 1/4 or x not finite.
KolmogorovSeries kolmogorov_alternating_series(double x);

//! Throws engine::InputError unless the shift s is finite.
void require_finite_shift(double s);

}  // namespace detail

// ---------------------------------------------------------------------------
// Shifted laws: M - s.

//! The law of M - s for M of law Law (BridgeMaximum, Kolmogorov, or any type
//! with the same free functions) and a finite constant s. Made by
//! shifted(law, s) or monitoring_corrected(law, n).
template <class Law>
class Shifted {
 public:
  using value_type = double;
  //! The law of M - s, M ~ base_law. Throws engine::InputError unless s is
  //! finite.
  Shifted(const Law& base_law, double s) : base_(base_law), shift_(s) {
    detail::require_finite_shift(s);
  }
  //! The law of M.
  const Law& base() const { return base_; }
  //! s.
  double shift() const { return shift_; }

 private:
  Law base_;
  double shift_;
};

//! The law of M - s, M ~ law. Throws engine::InputError unless s is finite.
template <class Law>
Shifted<Law> shifted(const Law& law, double s) {
  return Shifted<Law>(law, s);
}

//! P(M - s <= x) = cdf(law, x + s).
template <class Law>
double cdf(const Shifted<Law>& d, double x) {
  return cdf(d.base(), x + d.shift());
}
//! P(M - s > x) = cdf(complement(law, x + s)), with the base law's relative
//! accuracy in the upper tail.
template <class Law>
double cdf(const Complement<Shifted<Law>>& c) {
  return cdf(boost::math::complement(c.dist.base(), c.param + c.dist.shift()));
}
//! The density pdf(law, x + s).
template <class Law>
double pdf(const Shifted<Law>& d, double x) {
  return pdf(d.base(), x + d.shift());
}
//! quantile(law, p) - s (-s at p = 0). Throws as the base law's quantile.
template <class Law>
double quantile(const Shifted<Law>& d, double p) {
  return quantile(d.base(), p) - d.shift();
}
//! quantile(complement(law, q)) - s. Throws as the base law's quantile.
template <class Law>
double quantile(const Complement<Shifted<Law>>& c) {
  return quantile(boost::math::complement(c.dist.base(), c.param)) - c.dist.shift();
}
//! E M - s.
template <class Law>
double mean(const Shifted<Law>& d) {
  return mean(d.base()) - d.shift();
}
//! Var M (a shift leaves the variance alone).
template <class Law>
double variance(const Shifted<Law>& d) {
  return variance(d.base());
}
//! E (M - s)^2 = E M^2 - 2 s E M + s^2, formed as Var M + (E M - s)^2 (no
//! cancellation for small s).
template <class Law>
double second_moment(const Shifted<Law>& d) {
  const double m = mean(d);
  return variance(d.base()) + m * m;
}

// ---------------------------------------------------------------------------
// Discrete monitoring: first-order corrections for a bridge of n steps.

//! beta = -zeta(1/2)/sqrt(2 pi) = 0.5825971579... (Chernoff 1965; Siegmund
//! 1979; Broadie–Glasserman–Kou 1997, Theorem 1), zeta(1/2) from Boost.
double monitoring_beta();
//! The shift beta/sqrt(n) of the first-order correction. Throws
//! engine::InputError for n < 1.
double monitoring_shift(std::int64_t n);

//! The first-order monitoring-corrected law of the maximum over n points:
//! M - beta/sqrt n, so that P(W' <= x) ~ cdf(BridgeMaximum, x + beta/sqrt n)
//! and P(D' <= x) ~ K(x + beta/sqrt n) (see the top of this file). Throws
//! engine::InputError for n < 1.
template <class Law>
Shifted<Law> monitoring_corrected(const Law& law, std::int64_t n) {
  return Shifted<Law>(law, monitoring_shift(n));
}

// ---------------------------------------------------------------------------
// Exact finite-n values.

//! P(W' = 0) = P(V_1 <= 0, ..., V_n <= 0) = 1/n for iid loads with a
//! continuous law (any law, not only the normal). Cycle lemma (Spitzer 1956):
//! the increments X_i - Xbar sum to 0 and are exchangeable; of the n cyclic
//! rotations exactly one (the one starting after the last maximum of the
//! partial sums) has all partial sums <= 0, a.s., and every rotation has the
//! same law. Throws engine::InputError for n < 1.
double bridge_p_max_zero(std::int64_t n);

//! E W' exactly, for iid normal loads:
//!   E W' = 1/(n sqrt(2 pi)) sum_{k=1}^{n-1} sqrt((n-k)/k).
//! Spitzer's identity for exchangeable increments (Spitzer 1956),
//! E max_{0<=k<=n} V_k = sum_{k=1}^{n} E[V_k^+]/k, with V_n = 0 and
//! V_k ~ N(0, k(n-k) sigma^2/n) (Mehrotra §3, property 4), so
//! E V_k^+ = sigma sqrt(k(n-k)/n)/sqrt(2 pi). Checked independently in
//! tests/reference/bridge_reference.py (n = 2, 3, 4 in closed form by
//! Gaussian integration by parts, 50 digits; n = 3, 4, 8 by a Nystrom
//! quadrature of the Markov chain, 1e-14). For n > 256 the sum is replaced by
//! its generalised Euler–Maclaurin (Navot 1961) expansion
//!   E W' = (1/2) sqrt(pi/2) - beta/sqrt n + zeta(-1/2)/(2 sqrt(2 pi)) n^{-3/2}
//!          + O(n^{-5/2}),
//! (ten terms), so the exact value approaches the bridge limit exactly as the
//! monitoring correction says. 0 for n = 1. Throws engine::InputError for
//! n < 1.
double spitzer_bridge_mean_normal(std::int64_t n);

//! Var V_k = k(n-k) sigma^2/n for 0 <= k <= n (Mehrotra §3, property 2;
//! V_0 = V_n = 0). Throws engine::InputError for n < 1, k outside [0, n],
//! or sigma < 0 or not finite.
double bridge_variance(std::int64_t k, std::int64_t n, double sigma);
//! Cov(V_k, V_l) = k(n-l) sigma^2/n for k <= l (symmetric in k, l;
//! Mehrotra §3, property 2). Throws engine::InputError for n < 1, k or l
//! outside [0, n], or sigma < 0 or not finite.
double bridge_covariance(std::int64_t k, std::int64_t l, std::int64_t n, double sigma);
//! corr(V_k, V_l) = sqrt(k(n-l)/(l(n-k))) for k <= l (symmetric in k, l;
//! Mehrotra §3, property 2). Throws engine::InputError unless
//! 1 <= k, l <= n-1 (V_0 and V_n are constant).
double bridge_correlation(std::int64_t k, std::int64_t l, std::int64_t n);

}  // namespace lbmc::analytic
