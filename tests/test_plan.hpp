// The replication plan of the statistical tests: a fixed seed, exactly
// `reps` replications, no progress line.
#pragma once

#include <cstdint>

#include "lbmc/engine/driver.hpp"

namespace lbmc::testing {

inline engine::RunPlan fixed_plan(std::uint64_t seed, std::int64_t reps, int threads = 2) {
  engine::RunPlan plan;
  plan.seed = seed;
  plan.reps = reps;
  plan.max_reps = reps;
  plan.threads = threads;
  plan.progress = engine::ProgressMode::never;
  return plan;
}

}  // namespace lbmc::testing
