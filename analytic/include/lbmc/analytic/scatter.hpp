// Load imbalance of the scattered decomposition (Salmon, "A Mathematical
// Analysis of the Scattered Decomposition"; DESIGN §6).
//
// N_proc processors each run n tasks with iid times of mean m and standard
// deviation σ; processor p takes t_p = sum of its n task times, m_proc = n·m,
// and the imbalance is l = (max_p t_p − m_proc)/m_proc. Its c-quantile l_c
// ("the load imbalance exceeded with probability 1 − c") has:
//  - exact values where the law of t_p is known: P(l ≤ x) =
//    F_proc((1 + x)·m_proc)^N_proc (Salmon's first display, before his
//    approximation), so l_c = F_proc⁻¹(c^{1/N_proc})/m_proc − 1 —
//      normal tasks: t_p ~ Normal(n·μ, √n·σ), l_c = (σ√n/(n·m))·Φ⁻¹(c^{1/N});
//      exponential tasks: t_p ~ Gamma(n, scale m) (Boost.Math, upper tail);
//      constant tasks: l = 0;
//      gamma(K, THETA) tasks: t_p ~ Gamma(nK, THETA); Poisson, binomial and
//      negative binomial tasks: sums of the same family; geometric trials:
//      t_p = n + NegBinomial(n, P) failures; an empirical sample of integers:
//      t_p's law by exact convolution (the laws of sums: sum_law.hpp);
//    E l likewise (normal: the standard-normal maximum of max_of_iid.hpp;
//    Gamma: quadrature of P(l > x) and P(l ≤ x) as in max_of_iid.cpp);
//  - Salmon's asymptotic forms, built on the CLT, the union bound
//    1 − F^N ≈ N(1 − F) and erfc(x) ≈ e^{−x²}/(x√π):
//      (a) l_c = (σ/(√n·m))·x with x² = 2 ln[N/((1−c)·√(2π)·x)]  (the term in
//          l kept inside the logarithm, his next-to-last equation),
//      (b) l_c = (σ/(√n·m))·√(ln[N²/(2π(1−c)²)])                 (as printed);
//    and the CLT limit with the exact normal maximum, (σ/(√n·m))·Φ⁻¹(c^{1/N}).
// The dimensionless constants ("Salmon's 4.6") are exposed separately: l_c
// = constant·σ/(√n·m).
//
// Accuracy: salmon_constant_log_kept to a few ulp (bisection to adjacent
// doubles); exact quantiles to the accuracy of quantile(MaxOfIid) (normal,
// 1 ulp) or Boost's gamma_q inverse (a few ulp of the tail), then one
// subtraction of 1, which loses log10(1/l_c) digits (≤ 2 for n ≤ 10^4 at
// N = 1000); the Gamma mean by double-exponential quadrature to ~1e-10
// relative.
#pragma once

#include <cstdint>
#include <optional>

#include "lbmc/dist/laws.hpp"

namespace lbmc::analytic {

//! Salmon's constant with the l term kept inside the logarithm: the root
//! x > 0 of x² = 2 ln[N_proc/((1 − c)·√(2π)·x)] (Salmon, the equation for l_c
//! before its simplification, with x = √n·m·l/σ). The root is unique (the
//! left side increases, the right decreases from +∞). Throws
//! engine::InputError unless procs ≥ 1 and c in (0, 1).
double salmon_constant_log_kept(std::int64_t procs, double c);

//! Salmon's printed constant √(ln[N_proc²/(2π(1 − c)²)]) (Salmon, the final
//! form of l_c; 4.60 at N_proc = 1000, c = 0.99). Empty when the logarithm is
//! not positive (N_proc/(1 − c) ≤ √(2π)), where the form has no value.
//! Throws engine::InputError unless procs ≥ 1 and c in (0, 1).
std::optional<double> salmon_constant_printed(std::int64_t procs, double c);

//! The CLT-limit constant with the exact normal maximum: Φ⁻¹(c^{1/N_proc}),
//! through the upper tail (no cancellation; DESIGN §6). 4.26 at N_proc =
//! 1000, c = 0.99.
double normal_limit_constant(std::int64_t procs, double c);

//! The confidence c at which the normal-limit constant equals `constant`:
//! Φ(constant)^N_proc, the inverse of normal_limit_constant.
double normal_limit_confidence(std::int64_t procs, double constant);

//! σ/(√n·m) for the task law: the scale of every form of l_c. Throws
//! engine::InputError when the law's mean is not positive or n < 1.
double scatter_scale(const dist::LoadLaw& task, std::int64_t n);

//! The exact c-quantile of l when the per-processor sum has a known law
//! (normal, exponential, constant tasks; gamma, Poisson, binomial, negative
//! binomial and geometric tasks through the law of their processor sums,
//! within the law table's ranges; integer empirical samples by exact
//! convolution, up to 2^15 cells); empty for other laws. Throws
//! engine::InputError for n < 1, procs < 1, c outside (0, 1) or a task law
//! with mean ≤ 0.
std::optional<double> scatter_exact_quantile(const dist::LoadLaw& task, std::int64_t n, std::int64_t procs,
                                             double c);

//! The exact E l for the laws of scatter_exact_quantile; empty for other
//! laws. Same preconditions as scatter_exact_quantile.
std::optional<double> scatter_exact_mean(const dist::LoadLaw& task, std::int64_t n, std::int64_t procs);

//! P(l ≤ x) for exponential tasks of any mean: F_Gamma(n)(n(1 + x))^N_proc,
//! and its complement, each without cancellation; exposed for tests.
double scatter_gamma_cdf(std::int64_t n, std::int64_t procs, double x);
double scatter_gamma_ccdf(std::int64_t n, std::int64_t procs, double x);

}  // namespace lbmc::analytic
