// The single-level dynamic load-balancing model of Kimura–Ichiyoshi 1990,
// Definition 1, simulated event by event (DESIGN §6 "Dynamic load balancing").
//
// Model: one producer makes the subtasks 1..N one after another, U_n time
// each, so subtask n is born at O_n = U_1 + … + U_n; p consumers take them
// first-come first-served as soon as one is free; subtask n starts at
// X_n = max(O_n, Z_n), Z_n the time a consumer is free for it, and ends at
// Y_n = X_n + R_n; T_p = max_n Y_n. Subtask models (§3 of the paper), with
// 1/μ = t1/ν the mean subtask size and 1/λ the production time:
//   deterministic  N ≡ ν (an integer), R_n ≡ t1/ν, U_n ≡ 1/λ;
//   exponential    N geometric on {1, 2, …} with mean ν (P(N = n) =
//                  (1/ν)(1 − 1/ν)^{n−1}), R_n exponential with mean t1/ν,
//                  U_n ≡ 1/λ (the paper fixes only E U_n = 1/λ for this model;
//                  we keep production deterministic as in the deterministic
//                  model, which is what the proof of Theorem 1 uses);
//   uniform        N ≡ ν (an integer), R_n uniform on [0, 2t1/ν), U_n ≡ 1/λ
//                  (the paper's example of "moderate diversity", before
//                  Theorem 2).
// λ = +∞ is allowed: U_n ≡ 0, every subtask is available at time 0.
// Efficiency η = t1/(p·E T_p) (the paper's mean efficiency s_p/p).
//
// Two simulators of the same instance (R_1..R_N, U_1..U_N):
//  - completion_time: a min-heap of the p consumers' free times, O(N log p).
//    Equivalent to Definition 1 because the heap after n−1 subtasks holds the
//    p largest of {0 (p times), Y_1..Y_{n−1}} (Y_n >= the popped minimum), so
//    its minimum is Definition 1's Z_n, the p-th largest Y_k, k < n.
//  - completion_time_literal: Definition 1 as written, Z_n recomputed as the
//    p-th largest of Y_1..Y_{n−1} by sorting, O(N² log N); tests only.
// Both form O_n, X_n, Y_n with the same operations in the same order, so they
// agree exactly, not just to rounding.
//
// Random numbers per replication: N first (one engine::uniform_open01 for the
// geometric count, none otherwise), then R_1..R_N from the model's sampler;
// U_n consumes none.
#pragma once

#include <cstdint>
#include <vector>

#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::exp {

enum class SubtaskModel { deterministic, exponential, uniform };

//! Parameters of Definition 1 with one of the paper's subtask models.
struct DynamicModel {
  SubtaskModel model = SubtaskModel::deterministic;
  std::int64_t p = 2;     //!< consumers (the paper's p > 1; p = 1 is accepted)
  double t1 = 1.0;        //!< mean task size t1 = E T_1
  double nu = 1.0;        //!< mean number of subtasks ν = E N >= 1
  double lambda = 1.0;    //!< production rate, E U_n = 1/λ; +∞ for U_n ≡ 0
};

//! Throws engine::InputError unless p >= 1, t1 > 0 finite, λ > 0 (may be
//! +∞), ν >= 1 finite, and ν an integer below 2^31 for the deterministic and
//! uniform models (N ≡ ν).
void validate(const DynamicModel& model);

//! ρ = λ/(μp) = λ·t1/(ν·p), the ratio of production to consumption rate.
double rho(const DynamicModel& model);

//! One instance of the model: R_1..R_N and U_1..U_N (N = r.size()).
struct DynamicInstance {
  std::vector<double> r;
  std::vector<double> u;
};

//! Draws N, R_1..R_N and sets U_n ≡ 1/λ into `out` (buffers reused). The
//! geometric N is 1 + ⌊ln V / ln(1 − 1/ν)⌋ with V = engine::uniform_open01
//! (V in (0,1), so N is finite; N = 1 for ν = 1). Assumes validate(model).
void draw_instance(const DynamicModel& model, engine::Generator& gen, DynamicInstance& out);

//! T_p of the instance by the consumer min-heap; `heap` is scratch space.
//! Requires r.size() == u.size() >= 1, p >= 1, r_n >= 0, u_n >= 0.
double completion_time(const DynamicInstance& instance, std::int64_t p, std::vector<double>& heap);
//! The same with its own scratch space.
double completion_time(const DynamicInstance& instance, std::int64_t p);

//! T_p of the instance by Definition 1 literally: O_n = Σ_{k<=n} U_k,
//! Z_n = 0 for n <= p and otherwise the p-th largest of Y_1..Y_{n−1}
//! (= min over the choice of p−1 excluded indices of the max of the rest),
//! X_n = max(O_n, Z_n), Y_n = X_n + R_n, T_p = max_n Y_n. O(N² log N): for
//! tests. Agrees exactly with completion_time.
double completion_time_literal(const DynamicInstance& instance, std::int64_t p);

//! Accumulated replications of T_p.
struct DynamicSample {
  engine::Moments t_p;         //!< T_p
  engine::Moments subtasks;    //!< N
  engine::RunReport run;

  void merge(const DynamicSample& other);
};

//! η = t1/(p·t_p), t_p the sample mean of T_p.
double efficiency(const DynamicModel& model, const DynamicSample& sample);

//! Simulates T_p under `plan` (seed, reps, threads, target_rse on the
//! relative se of the mean of T_p). The result depends on the seed and the
//! block layout only, never on the thread count. Throws engine::InputError
//! for an invalid model.
DynamicSample simulate_dynamic(const DynamicModel& model, engine::RunPlan plan);

}  // namespace lbmc::exp
