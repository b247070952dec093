// The dynamic load-balancing model of Kimura–Ichiyoshi 1990, Definition 1
// and its multi-level iteration (§4), simulated event by event (DESIGN §6
// "Dynamic load balancing").
//
// Single level. One producer makes the subtasks 1..N one after another, U_n
// time each, so subtask n is born at O_n = U_1 + … + U_n; p consumers take
// them first-come first-served as soon as one is free; subtask n starts at
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
// Any law (`r_law`, `u_law`): the model keeps its rule for N, and R_n (U_n)
// is drawn from the given law rescaled to mean t1/ν (1/λ): R_n = (t1/ν)·X/E X.
// The law must be nonnegative with a positive finite mean. The models' own
// laws are constant:1, exponential:1, uniform:0,2 for R and constant:1 for U.
// λ = +∞ is allowed: U_n ≡ 0, every subtask is available at time 0.
// Efficiency η = t1/(p·E T_p) (the paper's mean efficiency s_p/p).
//
// Multi-level (§4). With fan-outs p_1..p_L (p = p_1⋯p_L leaf consumers; the
// producers are extra processors, as the paper's p + 1), the L-level scheme
// is Definition 1 at the root with p_1 consumers, each consumer being a group
// that runs the (L−1)-level scheme with fan-outs p_2..p_L on every subtask it
// takes: the subtask's service time R_n is the group's completion time for a
// task of mean m_1 = t1/ν_1, measured from the onset X_n; the group starts
// producing only when it takes the subtask and takes the next one only when
// done. Each level draws its own N (the model's rule, mean ν_k) and U_n (same
// λ at every level, as the paper assumes); leaves execute subtasks of mean
// t1/(ν_1⋯ν_L). For the exponential model this is consistent in law: a
// geometric sum of exponentials is exponential, so a group's task size has
// the law of a single-level subtask. ν_1 = `nu`; the inner ν_k (k >= 2) are
// `inner_nu`, or when empty the rule ρ_k = 1 of each level given its mean
// task: ν_k = λ·m_{k−1}/P_k, P_k = p_k⋯p_L the leaves below the level-k
// producer (its consumers are groups sped up by their leaf count), rounded
// to an integer >= 1 for the fixed-N models.
//
// Two simulators of one single-level instance (R_1..R_N, U_1..U_N):
//  - completion_time: a min-heap of the p consumers' free times, O(N log p).
//    Equivalent to Definition 1 because the heap after n−1 subtasks holds the
//    p largest of {0 (p times), Y_1..Y_{n−1}} (Y_n >= the popped minimum), so
//    its minimum is Definition 1's Z_n, the p-th largest Y_k, k < n.
//  - completion_time_literal: Definition 1 as written, Z_n recomputed as the
//    p-th largest of Y_1..Y_{n−1} by sorting, O(N² log N); tests only.
// Both form O_n, X_n, Y_n with the same operations in the same order, so they
// agree exactly, not just to rounding.
//
// Random numbers per replication, per level (depth first): N (one
// engine::uniform_open01 for the geometric count, none otherwise), then the
// service times R_1..R_N in order (a leaf draw from the R law, or a whole
// group's recursion), then U_1..U_N from the U law (none for a constant).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/rng.hpp"
#include "lbmc/engine/statistics.hpp"

namespace lbmc::exp {

enum class SubtaskModel { deterministic, exponential, uniform };

//! "deterministic", "exponential", "uniform".
const char* to_string(SubtaskModel model);

//! Parameters of Definition 1 with one of the paper's subtask models, and
//! optionally other laws for R_n, U_n and more levels (top of this file).
struct DynamicModel {
  SubtaskModel model = SubtaskModel::deterministic;
  std::int64_t p = 2;     //!< consumers (the paper's p > 1; p = 1 is accepted)
  double t1 = 1.0;        //!< mean task size t1 = E T_1
  double nu = 1.0;        //!< mean number of subtasks ν = E N >= 1 (of the root)
  double lambda = 1.0;    //!< production rate, E U_n = 1/λ; +∞ for U_n ≡ 0
  std::optional<dist::LoadLaw> r_law = std::nullopt;  //!< shape of R_n; none: the model's
  std::optional<dist::LoadLaw> u_law = std::nullopt;  //!< shape of U_n; none: constant
  std::vector<std::int64_t> fanout = {};  //!< p_1..p_L with product p; empty: one level
  std::vector<double> inner_nu = {};      //!< ν_2..ν_L; empty: ρ_k = 1 at each level
};

//! Throws engine::InputError unless p >= 1, t1 > 0 finite, λ > 0 (may be
//! +∞), ν >= 1 finite, and ν an integer below 2^31 for the deterministic and
//! uniform models (N ≡ ν); laws nonnegative with a positive finite mean;
//! fan-outs >= 1 with product p; inner_nu empty or of size L − 1, each valid
//! as ν.
void validate(const DynamicModel& model);

//! The law of R_n's shape: r_law, or the model's own (constant:1,
//! exponential:1, uniform:0,2).
dist::LoadLaw subtask_law(const DynamicModel& model);
//! The law of U_n's shape: u_law, or constant:1.
dist::LoadLaw production_law(const DynamicModel& model);
//! True when R_n and U_n follow the model's own laws up to scale, so that
//! the model's exact values apply.
bool uses_model_laws(const DynamicModel& model);

//! Number of levels L (1 for an empty fanout).
std::size_t levels(const DynamicModel& model);
//! ν_1..ν_L as simulated: ν, then inner_nu or the ρ_k = 1 rule.
std::vector<double> level_nus(const DynamicModel& model);

//! ρ = λ/(μp) = λ·t1/(ν·p), the ratio of production to consumption rate
//! (of the root, p counting all leaves).
double rho(const DynamicModel& model);

//! One instance of the model: R_1..R_N and U_1..U_N (N = r.size()).
struct DynamicInstance {
  std::vector<double> r;
  std::vector<double> u;
};

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

//! The samplers and scratch space of one model: draws instances and T_p.
//! Copy one per thread (draws mutate the scratch space).
class DynamicSimulator {
 public:
  //! Validates the model and builds its samplers.
  explicit DynamicSimulator(const DynamicModel& model);

  //! Draws the root-level instance into `out`: N, then R_1..R_N (for more
  //! than one level, each R_n is a group's completion time), then U_1..U_N.
  void draw_instance(engine::Generator& gen, DynamicInstance& out);
  //! One replication of T_p.
  double completion_time(engine::Generator& gen);
  //! N of the last replication (root level).
  std::size_t last_count() const noexcept { return last_count_; }
  //! T_1 of the last replication: the sum of its leaf subtask sizes, with
  //! E T_1 = t1 (a control variate for T_p).
  double last_work() const noexcept { return work_; }
  //! Expected leaf subtasks per replication, Π ν_k.
  double expected_leaves() const noexcept;

 private:
  std::size_t draw_count(std::size_t level, engine::Generator& gen) const;
  void draw_level(std::size_t level, engine::Generator& gen);
  double level_time(std::size_t level, engine::Generator& gen);

  DynamicModel model_;
  std::vector<std::int64_t> fanout_;
  std::vector<double> nus_;
  dist::AnySampler r_sampler_;
  dist::AnySampler u_sampler_;
  double r_scale_ = 1.0;  // leaf subtask mean / E X
  double u_scale_ = 1.0;  // (1/λ) / E X
  std::vector<DynamicInstance> scratch_;
  std::vector<std::vector<double>> heaps_;
  std::size_t last_count_ = 0;
  double work_ = 0.0;
};

//! Draws one single- or multi-level root instance (see DynamicSimulator).
//! Convenience for tests; builds the samplers on every call.
void draw_instance(const DynamicModel& model, engine::Generator& gen, DynamicInstance& out);

//! Accumulated replications of T_p.
struct DynamicSample {
  engine::Moments t_p;         //!< T_p
  engine::Moments subtasks;    //!< N (root level)

  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.t_p, s.subtasks);
  }
  //! Every row of `lbmc dynamic`: the command forms them all (its modes run
  //! simulations and searches); --target-rse watches the mean of T_p.
  static constexpr auto statistics() {
    using namespace engine::stat;
    using S = DynamicSample;
    return std::array{
        derived<S>("T_p.mean", "E T_p, the parallel time (se floored at the rounding of its sum)")
            .watched([](const S& s) { return std::vector<engine::MeanSummary>{engine::summary_of(s.t_p)}; }),
        derived<S>("eta", "t1/(p E T_p), the mean efficiency s_p/p (delta-method se)"),
        derived<S>("rho", "rho = nu p/(lambda t1), the scaled granularity of the point"),
        derived<S>("nu_opt", "--optimize-nu: the nu of the largest efficiency, interval over the grid within noise"),
        derived<S>("rho_opt", "--optimize-nu: rho at nu_opt"),
        derived<S>("eta_max", "--optimize-nu: the efficiency at nu_opt"),
        derived<S>("max.mean", "--lemma1: E max of p Exp(1), drawing the p variates"),
        derived<S>("max.mean_direct", "--lemma1: the same by inverting the cdf of the maximum (p reps > 2e8)"),
        derived<S>("t1_iso", "--isoefficiency: the t1 at which the optimal efficiency reaches --eta0"),
        derived<S>("alpha", "--isoefficiency: the fitted exponent of p in t1_iso (3 points or more)"),
        derived<S>("beta", "--isoefficiency: the fitted exponent of ln p in t1_iso (3 points or more)"),
        derived<S>("alpha_harmonic", "--isoefficiency: alpha with H_p in place of ln p"),
        derived<S>("beta_harmonic", "--isoefficiency: beta with H_p in place of ln p"),
        derived<S>("alpha_fixed_beta", "--isoefficiency: alpha with beta fixed at its theorem value"),
        derived<S>("p1_opt", "--optimize-fanout: the root degree of the best two-level scheme"),
    };
  }
};

//! η = t1/(p·T̄) (the paper's mean efficiency s_p/p) for E T_p estimated by
//! `t`, with the delta-method se.
engine::MeanSummary efficiency_of(const DynamicModel& model, engine::MeanSummary t);

//! Replications per block for the model (about 2^16 leaf subtasks a block).
std::int64_t dynamic_block_reps(const DynamicModel& model);

//! Simulates T_p under `plan` (seed, reps, threads, target_rse on the
//! relative se of the mean of T_p). The result depends on the seed and the
//! block layout only, never on the thread count. Throws engine::InputError
//! for an invalid model.
engine::Simulated<DynamicSample> simulate_dynamic(const DynamicModel& model, engine::RunPlan plan);

//! Lemma 1 by simulation: E max of p iid Exp(1) under `plan`, drawing p
//! variates a replication, or with `direct` one draw by inverting the cdf of
//! the maximum (experiments/dynamic/lemma1.cpp).
engine::Simulated<engine::Moments> simulate_max_exponential(std::int64_t p, bool direct, engine::RunPlan plan);

}  // namespace lbmc::exp
