// Validators for the single-level dynamic load-balancing model of
// Kimura–Ichiyoshi 1990 (Definition 1; DESIGN §6 "Dynamic load balancing").
// Notation: p consumers, t1 = E T_1, ν = E N, 1/λ = E U_n (production time),
// 1/μ = t1/ν = E R_n, ρ = λ/(μp) = λ t1/(ν p), η = t1/(p·E T_p).
//
// Exact results
// - Deterministic model (N ≡ ν, R_n ≡ r = t1/ν, U_n ≡ u = 1/λ). Y_n is
//   nondecreasing in n (X_n = max(O_n, Z_n) with O_n = n u increasing and Z_n,
//   the p-th largest of Y_1..Y_{n−1}, nondecreasing), so Z_n = Y_{n−p} and
//   X_n = max(n u, X_{n−p} + r) for n > p, X_n = n u for n <= p. By induction
//   X_n = n u + ⌊(n−1)/p⌋·max(0, r − p u), and T_p = Y_ν = X_ν + r:
//     ρ <= 1 (r <= p u, the producer is the bottleneck):  T_p = ν/λ + t1/ν;
//     ρ >  1 (the consumers are):  T_p = ν/λ + ⌊(ν−1)/p⌋(t1/ν − p/λ) + t1/ν
//                                      = ⌈ν/p⌉·t1/ν + (ν − p(⌈ν/p⌉ − 1))/λ,
//   i.e. ⌈ν/p⌉ full rounds of subtasks plus the production of the subtasks of
//   the last round. The two forms agree at ρ = 1.
// - Exponential model with U_n ≡ 1/λ (DESIGN-chosen; the paper fixes only
//   E U_n). With K_n the number of subtasks in the system just after the n-th
//   birth, between births the system is a pure-death chain with rate μ·min(k,p)
//   (memorylessness), K_{n+1} = K_n(after time u) + 1, K_1 = 1, and after the
//   last birth the system drains in mean time
//     d(k) = (1/μ)·(H_{min(k,p)} + (k − p)⁺/p).
//   Since N is independent of the rest and P(N = n) = (1/ν)(1 − 1/ν)^{n−1},
//     E T_p = ν/λ + Σ_n P(N = n)·E d(K_n),
//   evaluated by propagating the law of K_n (uniformization of the death chain
//   over time u; the series is cut when (1 − 1/ν)^n < 1e-20). For λ = +∞
//   (u = 0, K_n = n) this is the closed form
//     E T_p = (t1/ν)·(Σ_{j=1}^{p} q^{j−1}/j + ν q^p/p),  q = 1 − 1/ν.
//
// Paper's asymptotics (≃: equal up to lower-order terms as p → ∞)
// - Proposition 1: 1/η ≃ 1 + ρ p²/(λ t1) for ρ >= 1 (from the proof), and
//   1/η_max ≃ 1 + p²/(λ t1) (ρ ≃ 1).
// - Theorem 1 (i), ρ > 1: 1/η ≃ 1 + ρ p² log p/(λ t1); (ii), 0 <= ρ <= 1:
//   1/η ≳ 1 + p² log p/(λ t1). The "harmonic" variants use H_p, the exact
//   Lemma 1 mean, in place of log p.
// - Lemma 1: E max of p iid exponentials of mean σ = σ H_p exactly; the paper
//   writes ≃ σ log p.
// - Theorem 2 (moderate diversity, ρ > 1): 1/η <= 1 + ρ p²(log p + c)/(λ t1)
//   for some c; we check it with c = 1, the smallest c with H_p <= ln p + c
//   for every p (H_p − ln p decreases from 1 to γ), i.e. the exponential
//   model's exact drain term as the worst case, as the paper's proof argues.
// - Corollary 1: t1 = (1/ε)ρp²(log p + c)/λ and ν = p(log p + c)/ε give
//   η >= 1 − ε. At given (p, ν) the two conditions say ε = p(log p + c)/ν
//   (the first then holds by the definition of ρ), so the claim is
//   η >= 1 − p(ln p + c)/ν, for ρ >= 1 (the corollary inherits Theorem 2's
//   ρ > 1; for ρ < 1 the producer bounds η by ρ).
// - Theorem 3 (isoefficiency): τ_ℓ(p) ~ (1/λ) p^{α_ℓ}(log p)^{β_ℓ} with
//   α_{ℓ+1} = 2 − 1/α_ℓ, β_{ℓ+1} = 1 + β_ℓ/α_ℓ, α_1 = 2, β_1 = 1, i.e.
//   α_ℓ = (ℓ+1)/ℓ, β_ℓ = (ℓ+1)/2 (equation 4).
// - Theorem 4 (root degree of an (ℓ+1)-level tree): from the proof,
//   p_1 ~ p^{(α_ℓ−1)/α_ℓ}(log p)^{β_ℓ/α_ℓ} = p^{1/(ℓ+1)}(log p)^{1/ℓ}; the
//   statement prints O(p^{1/2}(log p)^{(ℓ−1)/2}), which agrees with the proof
//   only for ℓ = 1 (two levels) in the power of p, not in the power of log p.
#pragma once

#include <cstdint>

namespace lbmc::analytic {

//! Parameters of Definition 1 (see the top of this file).
struct DynamicParams {
  std::int64_t p = 2;   //!< consumers
  double t1 = 1.0;      //!< mean task size
  double nu = 1.0;      //!< mean number of subtasks
  double lambda = 1.0;  //!< production rate; +∞ means U_n ≡ 0
};

//! ρ = λ t1/(ν p) (Kimura–Ichiyoshi §2).
double dynamic_rho(const DynamicParams& params);

//! Exact T_p of the deterministic model (closed form at the top of this file):
//! ν/λ + t1/ν when ρ <= 1, ν/λ + ⌊(ν−1)/p⌋(t1/ν − p/λ) + t1/ν when ρ > 1.
//! Throws engine::InputError unless p >= 1, t1 > 0, λ > 0 and ν a positive
//! integer.
double deterministic_completion_time(const DynamicParams& params);

//! η = t1/(p T_p) of the deterministic model.
double deterministic_efficiency(const DynamicParams& params);

//! The best integer ν for the deterministic model and its T_p and η
//! (η_max of §2, exactly), by scanning ν = 1..⌊λ t1⌋ + 1 (larger ν have
//! T_p >= ν/λ > T_p(ν = 1)). Throws engine::InputError for λ = +∞ or when
//! λ t1 > 1e8.
struct DeterministicOptimum {
  std::int64_t nu = 1;
  double t_p = 0.0;
  double efficiency = 0.0;
};
DeterministicOptimum deterministic_optimum(std::int64_t p, double t1, double lambda);

//! Proposition 1, from its proof: 1/η ≃ 1 + ρ p²/(λ t1) (= 1 + p/ν).
double proposition1_inverse_efficiency(const DynamicParams& params);

//! Proposition 1: 1/η_max ≃ 1 + p²/(λ t1).
double proposition1_inverse_max_efficiency(std::int64_t p, double t1, double lambda);

//! Which logarithm Theorem 1 uses: the paper's ln p, H_p (Lemma 1 exact), or
//! H_p − 1: by work conservation p·T_p = T_1 + idle time, and the idle time
//! of the final drain of p busy consumers is p·(H_p − 1)/μ on average (the
//! drained subtasks' own work is already in t1/p), so for ρ > 1
//! 1/η ≈ 1 + ρp²(H_p − 1)/(λt1).
enum class LogTerm { natural_log, harmonic, harmonic_excess };

//! Theorem 1 (i): 1/η ≃ 1 + ρ p² L/(λ t1), L = ln p or H_p; the paper states
//! it for ρ > 1 (for ρ <= 1 use theorem1_inverse_efficiency_bound).
double theorem1_inverse_efficiency(const DynamicParams& params, LogTerm log_term = LogTerm::natural_log);

//! Theorem 1 (ii): the lower bound 1/η ≳ 1 + p² L/(λ t1) for 0 <= ρ <= 1.
double theorem1_inverse_efficiency_bound(std::int64_t p, double t1, double lambda,
                                         LogTerm log_term = LogTerm::natural_log);

//! Lemma 1: E max_{i<=p} X_i = σ H_p for iid exponentials of mean σ (exact).
double lemma1_expected_max(std::int64_t p, double sigma);

//! Lemma 1 as the paper writes it: σ ln p.
double lemma1_expected_max_log(std::int64_t p, double sigma);

//! Theorem 2 with c: 1 + ρ p²(ln p + c)/(λ t1), an upper bound on 1/η for
//! ρ > 1 under moderate diversity.
double theorem2_inverse_efficiency_bound(const DynamicParams& params, double c = 1.0);

//! Corollary 1 at (p, ν): η >= 1 − p(ln p + c)/ν (ρ >= 1).
double corollary1_efficiency_bound(std::int64_t p, double nu, double c = 1.0);

//! Theorem 3, equation 4: α_ℓ = (ℓ+1)/ℓ and β_ℓ = (ℓ+1)/2 for ℓ >= 1 levels.
double isoefficiency_alpha(int levels);
double isoefficiency_beta(int levels);

//! Theorem 4's proof: the root degree of an L-level tree (L >= 2) on p
//! leaves, p^{1/L}(ln p)^{1/(L−1)} (up to a constant factor).
double theorem4_root_degree(double p, int levels);

//! Exact E T_p of the exponential model with U_n ≡ 1/λ (λ = +∞ allowed), by
//! the death-chain recursion at the top of this file. Accuracy: relative
//! ~1e-13 (truncations at 1e-20 plus rounding over the O(ν) steps). Cost
//! O(n_max² · (1 + Λu)) with n_max ≈ 46ν and Λu = 1/ρ; refused (InputError)
//! for ν > 2000.
double exponential_mean_completion_time(const DynamicParams& params);

//! The λ = +∞ closed form (t1/ν)(Σ_{j<=p} q^{j−1}/j + ν q^p/p), q = 1 − 1/ν.
double exponential_mean_completion_time_instant(std::int64_t p, double t1, double nu);

}  // namespace lbmc::analytic
