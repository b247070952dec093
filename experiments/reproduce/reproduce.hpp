// `lbmc reproduce`: each paper is a list of claim parts, functions that
// recompute a group of printed numbers. A later experiment adds its claims by
// adding a part to its paper in papers.cpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "lbmc/dist/laws.hpp"
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

//! The law of the papers' normal task times, N(0, 1).
inline const dist::LoadLaw kStandardNormal = dist::Normal{0.0, 1.0};

//! How far a printed approximation is from the exact value, in percent of it.
inline double percent_off(double approx, double exact) { return 100.0 * (approx - exact) / std::abs(exact); }

using ClaimPart = std::vector<Claim> (*)(const ReproduceContext&);

//! A piece of a part: appends the rows of one group of printed numbers.
using ClaimRows = void (*)(const ReproduceContext&, std::vector<Claim>&);
//! The rows of `pieces`, in order.
inline std::vector<Claim> claims_of(const ReproduceContext& ctx, std::initializer_list<ClaimRows> pieces) {
  std::vector<Claim> claims;
  for (const ClaimRows piece : pieces) piece(ctx, claims);
  return claims;
}

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
