// The number of processors at a target efficiency in Franklin's model of
// random assignment (Franklin, Narayanaswami, Kankanhalli & Akman 1994, §2:
// "the maximum P that may be used for a given lambda, and still achieve 50%
// efficiency"; DESIGN §6).
//
// Two answers, side by side: the exact largest P, found by search over the
// exact efficiency of assignment_efficiency.hpp (it decreases in P:
// bracketed by doubling, then bisection; ~60 efficiencies), and the paper's
// closed form from the normal approximation, as printed, carried to other
// targets by the same steps. The paper's own number differs from both (see
// franklin_P_approximation).
#pragma once

#include <cstdint>

namespace lbmc::analytic {

//! The largest P with efficiency(PoissonModel{lambda, P}) >= target (Franklin
//! §2: "the maximum P that may be used for a given lambda, and still achieve
//! 50% efficiency"). The efficiency decreases in P: bracketed by doubling,
//! then bisection. Throws engine::InputError for lambda <= 0 or target
//! outside (0,1]; ReferenceUnavailable when P would exceed 2^62.
std::int64_t largest_P_for_efficiency(double lambda, double target);

//! Franklin §2's closed form for the P at 50% efficiency (normal
//! approximation, median for mean): P ≈ e^{lambda/2} sqrt(2 pi lambda)/ln 2,
//! as printed. Note: the paper quotes P ~ 1200 at lambda = 10, but the
//! printed formula gives 1697 (1200 ≈ e^5 sqrt(20 pi) = 1177, without the
//! 1/ln 2; its own derivation, Q(sqrt lambda) ≈ ln 2/P, gives ×ln 2 = 816);
//! the exact largest P at lambda = 10 is largest_P_for_efficiency(10, 0.5).
//! For another target efficiency e the same steps (completion time lambda/e,
//! F(lambda/e) = 1 - Q(z), z = sqrt(lambda)(1/e - 1), Q(z) ≈ e^{-z^2/2}/(z
//! sqrt(2 pi))) give P ≈ e^{z^2/2} z sqrt(2 pi)/ln 2, the printed form at
//! e = 1/2. Throws engine::InputError for lambda <= 0 or e outside (0,1).
double franklin_P_approximation(double lambda, double target = 0.5);

}  // namespace lbmc::analytic
