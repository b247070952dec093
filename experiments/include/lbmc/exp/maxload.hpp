// The max-load simulation shared by `lbmc maxload` and the reproductions.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <tuple>
#include <vector>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/statistics.hpp"

namespace lbmc::exp {

//! How `lbmc maxload` draws the maximum.
enum class MaxMethod { brute, direct };

//! `auto`: the direct method when it is expected to be faster: for integer
//! laws at n >= 2 whose table of P(Z = k) would have at most
//! kDirectTableMaxCells cells (a table lookup replaces n draws), or at most
//! 2^24 cells and no more than n (the table costs about one mass evaluation,
//! ~100 draws, a cell), or any width when n >= 2^26 (a search of the cdf a
//! draw); for continuous laws when n >= kDirectContinuousMinN (a quantile
//! evaluation costs about as much as that many draws).
inline constexpr std::int64_t kDirectContinuousMinN = 64;
inline constexpr double kDirectTableMaxCells = 0x1p15;
MaxMethod choose_max_method(const dist::LoadLaw& law, std::int64_t n);

//! The maxima of the replications: their moments and the values themselves.
struct MaxLoadSample {
  engine::Moments moments;
  engine::QuantileStore quantiles;

  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.moments, s.quantiles);
  }
  static constexpr auto statistics() {
    using namespace engine::stat;
    return std::array{
        mean("mean", &MaxLoadSample::moments, "E Z, Z = max_i X_i in load units").watched(),
        variance("variance", &MaxLoadSample::moments, "Var Z"),
        engine::stat::quantiles("", &MaxLoadSample::quantiles, "the alpha-quantile of Z, one row per --alpha level"),
    };
  }
};

//! Folds a GPU's maxima (one a replication) into a block's accumulator as
//! the CPU's replication loop builds it.
void fold_device_maxima(std::span<const double> values, MaxLoadSample& acc);

//! Simulates Z = max of n iid draws of `law` under `plan` (block size from
//! the work per replication), stopping on the relative se of the mean when
//! plan.target_rse is set. `brute` draws the n loads; `direct` draws Z
//! itself by inverting F^n (maxload/direct_max.hpp).
engine::Simulated<MaxLoadSample> simulate_max_load(const dist::LoadLaw& law, std::int64_t n, engine::RunPlan plan,
                                MaxMethod method = MaxMethod::brute);

}  // namespace lbmc::exp
