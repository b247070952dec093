// The Fréchet limit of Z = max of n iid Pareto loads.
//
// For P(X > x) = (x_m/x)^alpha, x >= x_m: P(Z <= a_n y) = (1 - y^-alpha/n)^n
// -> exp(-y^-alpha) with a_n = x_m n^(1/alpha) (Fisher–Tippett; the maximum of
// a law with a polynomial tail is in the Fréchet domain, where the Gumbel
// forms of Mehrotra §3 do not apply). So Z ~ a_n·Y with Y standard Fréchet:
//   E Z ~ a_n Γ(1 - 1/alpha)                       (alpha > 1),
//   Var Z ~ a_n^2 (Γ(1 - 2/alpha) - Γ(1 - 1/alpha)^2)  (alpha > 2),
//   quantile a_n (-ln q)^(-1/alpha).
// Reported as `asymptotic` (reference `frechet`); the exact moments are
// mean(analytic::MaxOfIid).
#pragma once

#include <cstdint>

#include "lbmc/dist/laws.hpp"

namespace lbmc::analytic {

//! Z ~ scale·Y, P(Y <= y) = exp(-y^-alpha), y > 0.
struct FrechetApprox {
  double alpha = 1.0;
  double scale = 1.0;
};

//! a_n = XM n^(1/ALPHA) for the maximum of n Pareto(ALPHA, XM) loads.
//! Throws engine::InputError for n < 1.
FrechetApprox frechet_limit(const dist::Pareto& law, std::int64_t n);
//! scale·Γ(1 - 1/alpha); infinite for alpha <= 1.
double mean(const FrechetApprox& f);
//! scale^2 (Γ(1 - 2/alpha) - Γ(1 - 1/alpha)^2); infinite for alpha <= 2.
double variance(const FrechetApprox& f);
//! scale·(-ln q)^(-1/alpha) for q in (0,1); throws engine::InputError outside.
double quantile(const FrechetApprox& f, double q);

}  // namespace lbmc::analytic
