// Searches over the dynamic load-balancing model (Kimura–Ichiyoshi 1990):
// the optimal granularity ν for given (p, t1, λ), the isoefficiency t1 for a
// target efficiency, and the least-squares fit of isoefficiency exponents.
//
// Common random numbers. simulate_common runs several models (e.g. one per
// ν) on the same random numbers: replication i of every model draws from the
// generator engine::keyed_generator(s_i), s_i one 64-bit output of the block's
// generator. Their T_p are then positively correlated (the geometric N is
// monotone in ν through the same uniform; R_n are the same variates rescaled),
// so differences between them have far less noise than independent runs. The
// full covariance of the means is kept (a mergeable co-moment matrix, merged
// in block order: thread-count invariant).
//
// Control variate. Most of the spread of T_p is the spread of the task size
// T_1 itself (exponential for the exponential model: sd = t1), which says
// nothing about the balancing. Each model's T_1 = Σ R (leaf sizes, E T_1 = t1
// exactly) is recorded beside its T_p, and E T_p is estimated by the
// regression estimator T̄_p − b(T̄_1 − t1), b = Ĉov(T_p, T_1)/V̂ar(T_1), whose
// variance is that of the residual T_p − b T_1 (its O(1/n) bias is negligible
// beside the se). Covariances between models are those of the residuals.
//
// Optimal ν (optimize_nu). With ν_ρ=1 = λ t1/p (ρ = 1, where Proposition 1
// and Theorem 1 put the optimum):
//  1. coarse pass: ν = ν_ρ=1·2^{j/2}, j = −6..2 (ρ from 8 to 1/2), one CRN run;
//     while the best is on the window's edge the window moves three octaves
//     that way and the pass is repeated (at most 12 moves);
//  2. fine pass: ν = ν̂·2^{k/8}, k = −4..4 around the coarse best, one CRN run
//     with the same seed;
//  3. ν_opt = the fine best. Within each pass, the grid ν whose η is not
//     below the pass's best by more than z·se of the paired difference (delta
//     method on the covariance of the means) are those the noise cannot tell
//     from the best (no multiplicity correction). The interval of ν_opt is
//     the fine pass's set widened by one grid step (2^{1/8}) each side, which
//     brackets the argmax if η(ν) is unimodal, joined with the coarse set;
//  4. η_max and E T_p are re-estimated at ν_opt from independent replications
//     (seed ^ kHeldOutSeed), so they carry no selection bias: η_max is then an
//     unbiased estimate of η(ν_opt) <= sup_ν η, the gap being second order in
//     the grid step near a smooth maximum.
// Fixed-N models round ν to integers (duplicates dropped), and to multiples
// of p when ν >= 8p, so that the last round of subtasks is full: for the
// deterministic model with ρ > 1 and ν = (k−1)p + j, 1 <= j <= p,
// T_p − (t1/p + p/λ) = (p − j)(ρ − 1)/λ, zero only for j = p (the grid step
// 2^{1/8} − 1 > 1/8 is coarser than the snapping). For several levels
// the search varies the root ν; inner levels follow DynamicModel's rule.
//
// Isoefficiency t1 (isoefficiency_t1): the smallest t1 with η_max(t1) >= η₀,
// to a ratio 1 + tol, every evaluation an optimize_nu with the same seed
// (common random numbers across t1 too, so η_max is smooth in t1). Search in
// x = ln t1, w = ln(1 + tol):
//  1. bracket: from the start value, steps towards η₀ of 2w, 4w, 8w, ...
//     (8w, 16w, ... with a slope hint), each shortened to 0.45w beyond where
//     the slope puts η₀: the hint (dη/d ln t1 of the sweep's last point) for
//     the first step, then the secant through the last two points;
//  2. shrink until the bracket is w wide: each step evaluates 0.45w beyond the
//     root of the line through the bracket's ends, on the side that moves the
//     farther end (two steps close a bracket whose line is right to 0.05w);
//     a step that lands on the unexpected side is followed by a bisection.
// A sweep in p (IsoefficiencySweep) starts each point where the points
// before it extrapolate, typically within 20%, with the last point's slope. The se of log t1 is se(η_max)/|dη/d log t1|, the slope taken
// across the final bracket.
#pragma once

#include <array>
#include <cstdint>
#include <tuple>
#include <vector>

#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/results.hpp"
#include "lbmc/exp/dynamic.hpp"

namespace lbmc::exp {

struct CommonSample;
//! The controlled means of E T_p and their se, what --target-rse watches.
std::vector<engine::MeanSummary> controlled_summaries(const CommonSample& sample);

//! Means of T_p of several models on common random numbers, with the
//! co-moment matrix of the values (mergeable, Chan et al.).
struct CommonSample {
  double t1 = 0.0;  //!< E T_1 of every model: the control variate's known mean
  std::int64_t count = 0;
  std::vector<double> mean;
  std::vector<double> comoment;  //!< K×K, row-major: Σ (x_i − x̄_i)(x_j − x̄_j)

  //! The members, for writing and reading (engine/fields.hpp; merged by merge()).
  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.t1, s.count, s.mean, s.comoment);
  }

  //! The rows come from the searches; --target-rse watches the controlled
  //! means of E T_p (controlled_summaries).
  static constexpr auto statistics() {
    return std::array{engine::stat::derived<CommonSample>("T_p.mean", "E T_p of each model searched, control-variate "
                                                                      "estimates")
                          .watched(controlled_summaries)};
  }

  void add(const std::vector<double>& x);
  void merge(const CommonSample& other);
  //! Cov(x̄_i, x̄_j) = comoment_ij/((n − 1) n).
  double mean_covariance(std::size_t i, std::size_t j) const;
};

//! Simulates every model on the same random numbers (top of this file):
//! values 0..K−1 are the T_p, K..2K−1 the T_1 of the K models.
engine::Simulated<CommonSample> simulate_common(const std::vector<DynamicModel>& models, engine::RunPlan plan);

//! The control-variate estimates of E T_p of the K models of a
//! simulate_common run and the covariance matrix of the estimates (K×K).
struct ControlledMeans {
  std::vector<double> mean;
  std::vector<double> covariance;
  std::int64_t count = 0;
  double se(std::size_t j) const;
};
ControlledMeans controlled_means(const CommonSample& sample);
//! One grid point of a ν search.
struct NuPoint {
  double nu = 0.0;
  double eta = 0.0;
  double se = 0.0;       //!< se of η (delta method)
  double se_diff = 0.0;  //!< se of η_best − η (paired, delta method)
  bool within_noise = false;
};

struct NuOptimum {
  double nu = 0.0;       //!< ν_opt, the fine-pass best
  double nu_low = 0.0;   //!< smallest grid ν within noise of the best
  double nu_high = 0.0;  //!< largest grid ν within noise of the best
  DynamicModel model;    //!< the model at ν_opt
  engine::Estimate t_p;  //!< E T_p at ν_opt from independent replications (control variate)
  engine::RunReport held_out_run;
  std::vector<NuPoint> coarse;
  std::vector<NuPoint> fine;
};

//! Seed offset of the held-out replications.
inline constexpr std::uint64_t kHeldOutSeed = 0x6b696d7572613930ULL;

//! The ν search of the top of this file; `z` sets the within-noise set and
//! `level` the interval of the held-out estimate.
//! Requires a finite λ. Throws engine::InputError for an invalid model.
NuOptimum optimize_nu(const DynamicModel& base, const engine::RunPlan& plan, double level);

//! η_max estimate of an optimum: t1/(p·T̄) of the held-out run, and its se
//! (delta method; efficiency_of).
engine::MeanSummary held_out_efficiency(const NuOptimum& optimum);

struct IsoefficiencyPoint {
  double t1 = 0.0;         //!< smallest t1 found with η_max >= η₀ (upper end of the final bracket)
  double t1_below = 0.0;   //!< largest t1 found with η_max < η₀ (lower end; t1/t1_below <= 1 + tol)
  double log_t1_se = 0.0;  //!< se of ln t1 (top of this file)
  NuOptimum optimum;       //!< the search at t1
  double slope = 0.0;      //!< dη_max/d ln t1 across the final bracket
  int evaluations = 0;
};

//! The isoefficiency t1 of `base` (its t1 is the start value) for target
//! η₀, to t1_high/t1_low <= 1 + tol (the search of the top of this file).
//! `slope_hint` > 0 aims the first step (IsoefficiencySweep::slope).
//! Throws engine::RuntimeFailure when 60 evaluations do not bracket η₀.
IsoefficiencyPoint isoefficiency_t1(const DynamicModel& base, double eta0, double tol,
                                    const engine::RunPlan& plan, double level, double slope_hint = 0.0);

//! The points of an isoefficiency sweep in p, which aim the next search.
//! start(p): the power law through the last two points, else the last point
//! scaled by Theorem 3's p^α_ℓ (ln p)^β_ℓ (Kimura–Ichiyoshi, proof of
//! Theorem 3, equation 4), else `scale`·p^α_ℓ (ln p)^β_ℓ.
class IsoefficiencySweep {
 public:
  IsoefficiencySweep(int levels, double scale) : levels_(levels), scale_(scale) {}
  double start(double p) const;
  double slope() const { return slope_; }  //!< the last point's, 0 before the first
  void add(double p, const IsoefficiencyPoint& point);
  const std::vector<double>& p() const { return p_; }
  const std::vector<double>& t1() const { return t1_; }

 private:
  int levels_;
  double scale_;
  double slope_ = 0.0;
  std::vector<double> p_, t1_;
};

//! Least squares ln t1 = c + α ln p + β ln ln p (Eigen), with standard errors
//! from the residual variance (n − 3 degrees of freedom; zero when n <= 3);
//! the same with ln H_p for ln ln p (the finite-p log term of Lemma 1); and
//! the one-parameter fit of α with β fixed at `beta_fixed` (ln ln p).
struct ExponentFit {
  double c = 0.0, alpha = 0.0, beta = 0.0;
  double c_se = 0.0, alpha_se = 0.0, beta_se = 0.0;
  double alpha_harmonic = 0.0, beta_harmonic = 0.0;
  double alpha_harmonic_se = 0.0, beta_harmonic_se = 0.0;
  double alpha_fixed_beta = 0.0, alpha_fixed_beta_se = 0.0;
};
ExponentFit fit_isoefficiency(const std::vector<double>& p, const std::vector<double>& t1, double beta_fixed);

}  // namespace lbmc::exp
