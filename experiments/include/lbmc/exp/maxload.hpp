// The max-load simulation shared by `lbmc maxload` and the reproductions.
#pragma once

#include <cstdint>
#include <vector>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/quantile_store.hpp"

namespace lbmc::exp {

struct MaxLoadSample {
  engine::Moments moments;
  engine::QuantileStore quantiles;
  engine::RunReport run;
};

//! Simulates Z = max of n iid draws of `law` under `plan` (block size from
//! n), stopping on the relative se of the mean when plan.target_rse is set.
MaxLoadSample simulate_max_load(const dist::LoadLaw& law, std::int64_t n, engine::RunPlan plan);

}  // namespace lbmc::exp
