// `lbmc reproduce`: each paper is a list of claim parts, functions that
// recompute a group of printed numbers. A later experiment adds its claims by
// adding a part to its paper in papers/registry.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lbmc/engine/driver.hpp"
#include "lbmc/exp/claims.hpp"

namespace lbmc::exp {

struct ReproduceContext {
  std::uint64_t seed = 0;
  int threads = 1;
  bool quick = false;
  double level = 0.95;
  engine::ProgressMode progress = engine::ProgressMode::automatic;

  //! A plan for one claim's simulation: `reps` replications (a tenth with
  //! --quick) under a seed derived from the run's seed and the claim id, so
  //! each claim's numbers do not depend on which other claims ran.
  engine::RunPlan plan(const std::string& claim_id, std::int64_t reps) const;
};

using ClaimPart = std::vector<Claim> (*)(const ReproduceContext&);

struct Paper {
  std::string id;
  std::string title;
  std::vector<ClaimPart> parts;
};

//! The reproducible papers, in the order `reproduce all` runs them.
std::vector<Paper> papers();

// Claim parts, one per group of printed numbers.
std::vector<Claim> mehrotra1992_max_load(const ReproduceContext& ctx);
std::vector<Claim> mehrotra1992_shifts(const ReproduceContext& ctx);
std::vector<Claim> mehrotra1992_cm5(const ReproduceContext& ctx);
std::vector<Claim> salmon_claims(const ReproduceContext& ctx);
std::vector<Claim> franklin1994_claims(const ReproduceContext& ctx);
std::vector<Claim> kimura1990_claims(const ReproduceContext& ctx);

}  // namespace lbmc::exp
