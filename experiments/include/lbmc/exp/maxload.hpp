// The max-load simulation shared by `lbmc maxload` and the reproductions.
#pragma once

#include <cstdint>
#include <vector>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/exp/direct_max.hpp"

namespace lbmc::exp {

struct MaxLoadSample {
  engine::Moments moments;
  engine::QuantileStore quantiles;
};

//! Simulates Z = max of n iid draws of `law` under `plan` (block size from
//! the work per replication), stopping on the relative se of the mean when
//! plan.target_rse is set. `brute` draws the n loads; `direct` draws Z
//! itself by inverting F^n (see direct_max.hpp).
engine::Simulated<MaxLoadSample> simulate_max_load(const dist::LoadLaw& law, std::int64_t n, engine::RunPlan plan,
                                MaxMethod method = MaxMethod::brute);

}  // namespace lbmc::exp
