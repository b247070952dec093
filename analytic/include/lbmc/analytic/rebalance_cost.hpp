// Closed forms of the cost of the locality-maintaining balancer
// (Mehrotra–Ranka–Wang 1992, §3 and §3.1), in the paper's cost model: a
// message of S words to a neighbour costs τ + φS (store and forward).
//
// The expected cost of one direction of data movement by Approach 1
// (Figure 2) is bounded in §3 by
//   ξ ≤ (E D + 1)τ + (E D² + E D)φμ,            D = max_k |V_k|/X̄,
// and with E D ≈ c₁λ, E D² ≈ c₂λ², λ = σ√n/μ (§3.1),
//   2ξ ≤ 2(1 + c₁λ)τ + 2(c₂λ² + c₁λ)φμ.
// The paper prints c₁ = 0.626 and c₂ = 0.31. D is the two-sided maximum, so
// its constants are the moments of the Kolmogorov law, E D' = √(π/2)·ln 2 and
// E D'² = π²/12 (analytic/bridge.hpp); 0.626 is the one-sided E W' and 0.31
// matches no definition. Both sets are provided; the header is header-only
// and holds no state.
#pragma once

#include <cmath>
#include <cstdint>

#include "lbmc/analytic/bridge.hpp"

namespace lbmc::analytic {

//! A cost a·τ + b·φ, kept as its two coefficients.
struct CostCoefficients {
  double tau = 0.0;
  double phi = 0.0;
  //! The cost in the units of τ and φ.
  double time(double tau_value, double phi_value) const { return tau * tau_value + phi * phi_value; }
};

//! The constants c₁ ≈ E D/λ and c₂ ≈ E D²/λ² of the bound.
struct ShiftConstants {
  double first;
  double second;
};

//! The constants as printed in Mehrotra §3 (0.626, 0.31).
inline ShiftConstants printed_shift_constants() { return {0.626, 0.31}; }

//! The constants from their definitions: the limit moments of D' =
//! max_k |V_k|/(σ√n), √(π/2)·ln 2 and π²/12.
inline ShiftConstants limit_shift_constants() { return {mean(Kolmogorov{}), second_moment(Kolmogorov{})}; }

//! λ = σ√n/μ (Mehrotra §3.1).
inline double shift_lambda(double mu, double sigma, std::int64_t n) {
  return sigma * std::sqrt(static_cast<double>(n)) / mu;
}

//! The bound 2ξ on the expected cost of both directions of Approach 1,
//! 2(1 + c₁λ)τ + 2(c₂λ² + c₁λ)φμ (Mehrotra §3, §3.1, §4).
inline CostCoefficients shift_cost_bound(double lambda, double mu, ShiftConstants c) {
  return {2.0 * (1.0 + c.first * lambda), 2.0 * (c.second * lambda * lambda + c.first * lambda) * mu};
}

}  // namespace lbmc::analytic
