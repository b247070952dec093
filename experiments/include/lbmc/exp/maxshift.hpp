// The prefix-shift simulation of the locality-maintaining balancer
// (Mehrotra–Ranka–Wang §2–§3), shared by `lbmc maxshift` and the
// reproductions.
//
// Per replication: n loads X_1..X_n, their mean X̄, the discrete bridge
// V_k = X_1 + … + X_k − k·X̄ (k = 1..n; V_n = 0 exactly), and
//   W  = max_k V_k,   D* = max_k |V_k|,   W' = W/(σ√n),   D' = D*/(σ√n),
//   D  = D*/X̄ (the shift in processor units),
// and, for integer loads, the shifts of Figure 1: Rshift_k, Lshift_k and
// their maxima over the processors holding elements. σ is the standard
// deviation of the load law, not of the sample.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <Eigen/Dense>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/proportion.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/statistics.hpp"

namespace lbmc::exp {

//! max_k V_k, max_k |V_k| and min_k V_k of the bridge V_k = Y_k − k·mean,
//! k = 1..n, from the prefix sums prefix[k−1] = Y_k = X_1 + … + X_k, with
//! V_n = 0 exactly (so max >= 0 >= min). `ks` holds 1, 2, …, n as doubles.
//! One pass for the largest and smallest V_k (max |V_k| = max(max V, −min V)),
//! vectorised, with an AVX2 version chosen at run time where the processor
//! has it. When `bridge` is not null it receives V_1..V_n.
struct BridgeExtremes {
  double max = 0.0;
  double min = 0.0;
  double max_abs() const { return max > -min ? max : -min; }
};
BridgeExtremes bridge_extremes(const std::vector<double>& prefix, const Eigen::ArrayXd& ks, double mean,
                               double* bridge = nullptr);

//! 1, 2, …, n as doubles, for bridge_extremes.
inline Eigen::ArrayXd bridge_indices(std::int64_t n) {
  return Eigen::ArrayXd::LinSpaced(static_cast<Eigen::Index>(n), 1.0, static_cast<double>(n));
}

//! Max_R_Shift and Max_L_Shift of Figure 1 for integer loads: over the
//! processors k holding elements, Rshift_k = dest(Y_k + X_k − 1) − k and
//! Lshift_k = k − dest(Y_k) (0-based), where dest(g) = ⌊g/X̄⌋ is the
//! processor that holds global element g after balancing, computed exactly
//! also when X̄ is not an integer. Both are 0 when there are no elements.
struct ProcessorShifts {
  std::int64_t max_right = 0;
  std::int64_t max_left = 0;
};
ProcessorShifts processor_shifts(const std::vector<double>& loads);

__extension__ using Int128 = __int128;

//! The bridge of integer loads in integers: u_k = n·Y_k − k·T for k = 1..n
//! (T = Y_n, u_n = 0), so that V_k = u_k/n exactly, and its extremes. Every
//! event about the shifts of integer loads is decided on these integers, so
//! ties (common with integer loads) are decided exactly, not by rounding.
//! With T = 0 (no element anywhere) nothing moves: u ≡ 0, D = 0.
struct IntegerBridge {
  std::int64_t n = 0;
  std::int64_t total = 0;  // T
  Int128 high = 0;         // max_k u_k >= 0
  Int128 low = 0;          // min_k u_k <= 0

  //! max_k |u_k| = n·max_k |V_k|.
  Int128 max_abs() const { return high > -low ? high : -low; }
  //! D >= 1, with D = max_k |V_k|/X̄ the shift in processor units: T > 0 and
  //! max_k |u_k| >= T. False when there is nothing to move.
  bool reaches_one_processor() const { return total > 0 && max_abs() >= total; }
  //! Max_R_Shift and Max_L_Shift of Figure 1: ⌊(max u + T − n)/T⌋ and
  //! −⌊min u/T⌋ (kernel.cpp derives them); 0 when T = 0.
  ProcessorShifts shifts() const;
};
//! The integer bridge of the prefix sums Y_1..Y_n (Y_k >= 0) of integer
//! loads, exactly: by one vectorised pass in double while (n + 1)·T < 2^53,
//! in 128-bit integers beyond.
IntegerBridge integer_bridge(std::span<const std::int64_t> prefix);
//! The same, processor by processor with the destination of each element:
//! the definition itself, at any size.
ProcessorShifts processor_shifts_by_processor(const std::vector<double>& prefix);

//! Mergeable sample covariance of (V_1, …, V_n): the sum of V and of V·Vᵀ
//! (upper triangle), merged by addition.
struct BridgeCovariance {
  std::int64_t count = 0;
  Eigen::VectorXd sum;
  Eigen::MatrixXd outer;

  void add(const Eigen::Ref<const Eigen::VectorXd>& v);
  void merge(const BridgeCovariance& other);
  //! The unbiased sample covariance (full symmetric matrix).
  Eigen::MatrixXd covariance() const;
  //! count, sum and the n×n sums of products (column-major), as bytes.
  void save(engine::ByteWriter& out) const;
  void load(engine::ByteReader& in);
};

struct MaxShiftSample {
  engine::Moments w_prime, w_prime_sq, d_prime, d_prime_sq;
  engine::QuantileStore w_prime_values, d_prime_values;
  engine::Proportion w_zero;     // W' = 0
  engine::Proportion d_ge_1;     // D >= 1 (only for laws of positive mean)
  engine::Moments max_rshift;   // integer loads only
  engine::Moments max_lshift;   // integer loads only
  std::optional<BridgeCovariance> covariance;

  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.w_prime, s.w_prime_sq, s.d_prime, s.d_prime_sq, s.w_prime_values, s.d_prime_values, s.w_zero,
                    s.d_ge_1, s.max_rshift, s.max_lshift, s.covariance);
  }
  static constexpr auto statistics() {
    using namespace engine::stat;
    using S = MaxShiftSample;
    return std::array{
        mean("W'.mean", &S::w_prime, "E W', W' = max_k V_k/(sigma sqrt n)").watched(),
        mean("W'.second_moment", &S::w_prime_sq, "E W'^2"),
        quantiles("W'", &S::w_prime_values, "the alpha-quantile of W', one row per --alpha level"),
        derived<S>("W'.ks", "Kolmogorov-Smirnov distance of the sample of W' to each reference law (exact stores)"),
        proportion("W'.p_zero", &S::w_zero, "P(W' = 0), exact binomial interval"),
        mean("D'.mean", &S::d_prime, "E D', D' = max_k |V_k|/(sigma sqrt n)").watched(),
        mean("D'.second_moment", &S::d_prime_sq, "E D'^2"),
        quantiles("D'", &S::d_prime_values, "the alpha-quantile of D', one row per --alpha level"),
        derived<S>("D'.ks", "Kolmogorov-Smirnov distance of the sample of D' to each reference law (exact stores)"),
        proportion("D.p_ge_1", &S::d_ge_1, "P(D >= 1), D = max_k |V_k|/mean(X) (laws of mean > 0)"),
        mean("Max_R_Shift.mean", &S::max_rshift, "E of the largest right shift of Figure 1 (integer laws)")
            .watched()
            .when_observed(),
        mean("Max_L_Shift.mean", &S::max_lshift, "E of the largest left shift of Figure 1 (integer laws)")
            .watched()
            .when_observed(),
        derived<S>("V.cov_max_abs_error", "with --cov: the largest |estimate - exact| of Cov(V_k, V_l)"),
        derived<S>("V.cov_max_rel_error", "with --cov: the largest relative error of Cov(V_k, V_l)"),
    };
  }
};

//! Simulates the shifts of n loads under `plan`; with `covariance`, also the
//! covariance matrix of (V_1..V_n) (n² memory per block). Stops on the
//! relative se of the means of W' and D' when plan.target_rse is set.
engine::Simulated<MaxShiftSample> simulate_max_shift(const dist::LoadLaw& law, std::int64_t n, bool covariance,
                                  engine::RunPlan plan);

//! Folds a GPU's replications into a block's accumulator as the CPU's
//! replication loop builds it: `values` holds kDeviceShiftValues a
//! replication (kDeviceIntegerShiftValues for integer loads), as the device
//! kernels write them (device_kernels.hpp).
void fold_device_shifts(std::span<const double> values, bool integer_loads, MaxShiftSample& acc);

//! Bytes a covariance run of n needs at most (the block accumulators of one
//! wave and the total).
double covariance_bytes(std::int64_t n);

}  // namespace lbmc::exp
