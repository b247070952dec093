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
//    formed in double-double (x^2 by fma), because e^{-y} turns an absolute
//    error d in y into a relative error d: at x = 0.05, y = 493 and a
//    rounded y would cost ~500 ulp.
//  - the first-order discrete-monitoring correction (Chernoff 1965;
//    Siegmund 1979; Broadie–Glasserman–Kou 1997): a bridge watched only at
//    n points misses the excursions between them, and to first order its
//    maximum is the continuous one lowered by beta/sqrt n,
//    beta = -zeta(1/2)/sqrt(2 pi) = 0.5826. The `corrected_*` functions are
//    the laws of M - beta/sqrt n exactly (cdf F(x + s), quantile q - s, mean
//    m - s, second moment Var + (m - s)^2, s = beta/sqrt n): a first-order
//    correction with an O(1/n) error, meant for x of order 1. They say
//    nothing exact about the atom at 0: the shifted law puts mass
//    1 - e^{-2 s^2} ~ 2 beta^2/n = 0.68/n below 0, the discrete W' has
//    P(W' = 0) = 1/n.
//  - exact finite-n values: P(W' = 0) = 1/n for any continuous iid loads
//    (cycle lemma), E W' for normal loads (Spitzer's identity), and the
//    covariance of the V_k (Mehrotra §3, property 2).
//
// Accuracy: relative error in units of eps = 2^-52, the largest seen against
// 40-50 digit mpmath values on dense grids (3000 x in [0.035, 6], 1500 p,
// every n <= 600 and a geometric grid to 4e12); tests/bridge_test.cpp pins
// each at 2-4 eps against tests/reference/bridge_reference.py:
//   bridge_max_cdf, _ccdf, _pdf, _quantile   <= 0.9 (ccdf also at 1e-87);
//   kolmogorov_cdf, _ccdf    <= 2.4 wherever the value is a normal double
//                            (cdf 8e-308 at x = 0.04165, ccdf 4e-22 at x = 5);
//                            below 2.2e-308 (x < 0.0416 for the cdf, x > 18.8
//                            for the ccdf) it is subnormal, rounded once, or 0;
//   kolmogorov_pdf           <= 2.3 (same proviso);
//   kolmogorov_quantile      <= 1 for p in [1e-300, 1 - 1e-16];
//   monitoring_beta          <= 1 (Boost's zeta(1/2));
//   spitzer_bridge_mean_normal <= 1.2 for every n (Neumaier-compensated sum
//                            for n <= 256; beyond, the ten-term expansion,
//                            truncation error below 1e-28);
//   corrected_*              the above plus the rounding of x + beta/sqrt n
//                            times the condition number of the law.

#pragma once

#include <cstdint>

namespace lbmc::analytic {

// ---------------------------------------------------------------------------
// Limit of W': the maximum M of a standard Brownian bridge.

//! P(M <= x) = 1 - e^{-2x^2} for x > 0, 0 for x <= 0 (Mehrotra §3:
//! P(W' <= x) = 1 - e^{-2x^2}, after Billingsley 1968), as -expm1(-2x^2).
double bridge_max_cdf(double x);
//! P(M > x) = e^{-2x^2} for x > 0 (1 for x <= 0), with 2x^2 in double-double
//! so that tiny values keep full relative accuracy.
double bridge_max_ccdf(double x);
//! The density 4x e^{-2x^2} for x > 0 (0 for x <= 0).
double bridge_max_pdf(double x);
//! The p-quantile sqrt(-ln(1-p)/2) = sqrt(-log1p(-p)/2) (Mehrotra §3: the
//! alpha-th percentile of W is sigma sqrt(n/2) (-ln(1-alpha))^{1/2}); 0 at
//! p = 0, +inf at p = 1. Throws engine::InputError for p outside [0,1].
double bridge_max_quantile(double p);
//! E M = (1/2) sqrt(pi/2) = 0.6267 (Mehrotra §3: E(W') = 0.626).
double bridge_max_mean();
//! E M^2 = 1/2 (M^2 is exponential with mean 1/2).
double bridge_max_second_moment();

// ---------------------------------------------------------------------------
// Limit of D': the Kolmogorov law, sup |B| of a Brownian bridge B.

//! K(x) = P(sup|B| <= x) = 1 + 2 sum_{i>=1} (-1)^i e^{-2 i^2 x^2} for x > 0
//! (Mehrotra §3, after Billingsley 1968), 0 for x <= 0; by the theta series
//! for x <= 0.8275 and the alternating series above (see the top of this
//! file). Full relative accuracy wherever K(x) is a normal double.
double kolmogorov_cdf(double x);
//! 1 - K(x) = 2 sum_{i>=1} (-1)^{i+1} e^{-2 i^2 x^2} for x > 0.8275 (full
//! relative accuracy in the upper tail), 1 - T(x) below; 1 for x <= 0.
double kolmogorov_ccdf(double x);
//! The density K'(x) = 8x sum_{i>=1} (-1)^{i+1} i^2 e^{-2 i^2 x^2}, or the
//! derivative of the theta series for x <= 0.8275; 0 for x <= 0.
double kolmogorov_pdf(double x);
//! The p-quantile: the root of ln T(x) = ln p for p <= 1/2 and of
//! ln S(x) = ln(1-p) for p > 1/2 (1 - p is exact there), by safeguarded
//! Newton steps, so tails keep full precision. 0 at p = 0, +inf at p = 1.
//! Throws engine::InputError for p outside [0,1].
double kolmogorov_quantile(double p);
//! E sup|B| = sqrt(pi/2) ln 2 = 0.8687.
double kolmogorov_mean();
//! E (sup|B|)^2 = pi^2/12.
double kolmogorov_second_moment();

//! K(x) and 1 - K(x) from one series.
struct KolmogorovSeries {
  double cdf = 0.0;
  double ccdf = 1.0;
};
//! The theta series alone: cdf = T(x), ccdf = 1 - T(x), for 0 < x <= 2
//! (at most 6 terms). Exposed so that the two series can check each other;
//! kolmogorov_cdf uses it for x <= 0.8275. Throws engine::InputError outside
//! (0, 2].
KolmogorovSeries kolmogorov_theta_series(double x);
//! The alternating series alone: ccdf = S(x), cdf = 1 - S(x), for x >= 1/4
//! (at most 20 terms). Exposed so that the two series can check each other;
//! kolmogorov_cdf uses it for x > 0.8275. Throws engine::InputError for
//! x < 1/4 or x not finite.
KolmogorovSeries kolmogorov_alternating_series(double x);

// ---------------------------------------------------------------------------
// Discrete monitoring: first-order corrections for a bridge of n steps.

//! beta = -zeta(1/2)/sqrt(2 pi) = 0.5825971579... (Chernoff 1965; Siegmund
//! 1979; Broadie–Glasserman–Kou 1997, Theorem 1), zeta(1/2) from Boost.
double monitoring_beta();
//! The shift beta/sqrt(n) of the first-order correction. Throws
//! engine::InputError for n < 1.
double monitoring_shift(std::int64_t n);

//! P(W' <= x) ~ P(M <= x + beta/sqrt n) = bridge_max_cdf(x + beta/sqrt n)
//! (first order; see the top of this file). Throws engine::InputError for
//! n < 1.
double corrected_bridge_max_cdf(double x, std::int64_t n);
//! bridge_max_ccdf(x + beta/sqrt n). Throws engine::InputError for n < 1.
double corrected_bridge_max_ccdf(double x, std::int64_t n);
//! bridge_max_quantile(p) - beta/sqrt n (negative for p < 1 - e^{-2 beta^2/n};
//! -beta/sqrt n at p = 0). Throws engine::InputError for n < 1 or p outside
//! [0,1].
double corrected_bridge_max_quantile(double p, std::int64_t n);
//! (1/2) sqrt(pi/2) - beta/sqrt n. Throws engine::InputError for n < 1.
double corrected_bridge_max_mean(std::int64_t n);
//! E (M - s)^2 = 1/2 - 2 s (1/2) sqrt(pi/2) + s^2, s = beta/sqrt n, formed
//! as Var M + (E M - s)^2. Throws engine::InputError for n < 1.
double corrected_bridge_max_second_moment(std::int64_t n);

//! P(D' <= x) ~ K(x + beta/sqrt n) (first order). Throws engine::InputError
//! for n < 1.
double corrected_kolmogorov_cdf(double x, std::int64_t n);
//! kolmogorov_ccdf(x + beta/sqrt n). Throws engine::InputError for n < 1.
double corrected_kolmogorov_ccdf(double x, std::int64_t n);
//! kolmogorov_quantile(p) - beta/sqrt n. Throws engine::InputError for n < 1
//! or p outside [0,1].
double corrected_kolmogorov_quantile(double p, std::int64_t n);
//! sqrt(pi/2) ln 2 - beta/sqrt n. Throws engine::InputError for n < 1.
double corrected_kolmogorov_mean(std::int64_t n);
//! pi^2/12 - 2 s sqrt(pi/2) ln 2 + s^2, s = beta/sqrt n, formed as
//! Var + (mean - s)^2. Throws engine::InputError for n < 1.
double corrected_kolmogorov_second_moment(std::int64_t n);

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
