// The power of D choices with unit tasks (DESIGN §6, "Strategies compared",
// `compare` strategy choice:D): N unit tasks (balls) are placed in order,
// each on the processor (bin) with the fewest tasks among D drawn uniformly
// with replacement from P (ties: the first drawn). M is the largest task
// count; with a constant task time V the makespan is V·M.
//
// Exact law of M (choice_unit_max_law). The process is exchangeable in the
// bins, so the sorted load vector is a Markov chain. It is kept as its
// profile S_l = number of bins with load >= l (l = 1..max load; S_0 = P), a
// partition of the balls so far into parts of size <= P. The next ball lands
// on a bin of load exactly l when the smallest load among its D draws is l:
// of the P^D equally likely draw tuples, S_l^D − S_{l+1}^D do that (all D
// draws among the S_l bins of load >= l, not all among the S_{l+1} of load
// >= l+1); the profile then gains one at S_{l+1}. Which bin of load l takes
// the ball (the tie rule) does not change the profile. The chain is run in
// integers: a state's weight is the number of the P^{D·n} draw sequences of
// the first n balls that lead to it, so the law of M is exact (the count of
// sequences with M = m over P^{D·N}). D = 1 is the multinomial case
// (multinomial_max.hpp).
// Cost: the states after n balls are the partitions of n into parts <= P
// (p(n) of them when n <= P: 42 at 10, 5604 at 30, 204226 at 50), each with
// at most 1 + sqrt(2n) successors, a big-integer product of D·N·log2(P) bits
// each. The work is estimated before the run (per state, its profile length
// plus (2 + sqrt(2n)) × (1 + D·N·log2(P)/64)) and capped at 6e8, about 0.9 s
// (measured: 0.77 s at N = P = 56, D = 2; 0.65 s at N = P = 54, D = 3;
// 1.0 s at N = 1250, P = 2, D = 1); beyond it, or for N > 4096 or
// D > 2^16, the function returns nullopt at once. The largest N admitted:
// N = P up to 58, 56, 54, 52, 49 for D = 1, 2, 3, 5, 10; with P = 1e6, N up
// to 54 (D = 1) ... 44 (D = 10); with P = 2, N up to 1211 (D = 1), 1075
// (D = 2); with P = 4, N up to 184 (D = 1), 172 (D = 2).
//
// Fluid limit (choice_fluid_tail). As P → ∞ with N/P = t fixed, the fraction
// of bins with load >= i tends to s_i(t), the solution of
//   ds_i/dt = s_{i−1}^D − s_i^D,  s_0 = 1,  s_i(0) = 0 for i >= 1
// (Mitzenmacher 1999, "Studying balanced allocations with differential
// equations", Combin. Probab. Comput. 8, 473–482, by the method of
// Vvedenskaya, Dobrushin & Karpelevich 1996; Azar, Broder, Karlin & Upfal
// 1999 for M = ln ln P/ln D + O(1) at N = P). Σ_i s_i(t) = t (one ball per
// bin per unit time). D = 1 is solved in closed form: s_i(t) =
// P(Poisson(t) >= i) = gamma_p(i, t) (Boost). s_1 solves ds_1/dt = 1 − s_1^D,
// t = Σ_{k>=0} s_1^{kD+1}/(kD+1) (Mitzenmacher 1999), tanh t for D = 2.
// For D >= 2 the system is integrated by classical RK4, 512·max(D, 4) steps
// per unit time (at least 4096 steps when t < 1).
// Levels above 1/2 are carried as their complement 1 − s_i, so that neither
// the levels near 1 nor the small tail lose relative precision; a complement
// below 1e-20 is taken as 0 (the level as 1) and a level below 1e-300 as 0.
// For D >= 2 the profile becomes a travelling wave, s_{i+1}(τ+1) = s_i(τ) for
// large τ: once one unit of time reproduces the profile shifted by one level
// (every level above 1e-100 within 1e-11 relative), the remaining whole
// units are applied as shifts, so the cost does not grow with t (0.06 s at
// t = 1e12, D = 2; 0.1 s at t = 1e4, D = 64; RK4 work is capped at about 1 s,
// beyond which analytic::ReferenceUnavailable is thrown: t = 5 takes 0.75 s
// at D = 100). Measured accuracy (tests/power_of_choices_test.cpp):
// s_1 = tanh t within 2e-15 relative; doubling the steps moves the D = 2
// levels above 1e-20 by less than 3.5e-11 relative; RK4 with D = 1 at 2048
// steps per unit matches the Poisson tail within 6e-11 there; the wave shift
// matches the full integration within 4e-11 down to 1e-100; Σ s_i = t within
// 3e-15 relative.
//
// Asymptotic E[M] (choice_fluid_max_mean): Σ_{i>=1} min(1, P·s_i(N/P)).
// Since E M = Σ_{i>=1} P(M >= i) and P(M >= i) <= E[#bins with load >= i],
// this is the union (first-moment) bound with the fluid value P·s_i in place
// of the expected count, clipped at 1. It is an asymptotic reference, neither
// exact nor a bound: P·s_i is the P → ∞ limit of that expected count (the
// finite-P count differs), and where P·s_i is near 1 the true P(M >= i) is
// nearer 1 − e^{−P·s_i} (a Poisson number of such bins), below min(1, P·s_i)
// by up to e^{−1} (0.15 at P·s_i = 0.6); so it tends to lie above E M, most
// when a level has P·s_i near 1. Measured (fluid − exact): +0.051, +0.026,
// +0.093 at N = P = 8, 20, 50, D = 2; −0.0005 at N = P = 30, D = 3; against
// Monte Carlo (± se) at N = P, D = 2: −0.0005 ± 0.0013 at 1e3, +0.016 ±
// 0.007 at 1e4, +0.17 ± 0.04 at 1e5 (P·s_4 = 0.60), 0 at 1e6 (M = 4 in every
// run); D = 1 at N = P = 1e4: +0.27 ± 0.02.
// It has the order ln ln P/ln D of Azar et al. For D = 1 the exact
// references are those of multinomial_max.hpp. With P = 1 it is N, exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lbmc::analytic {

//! The exact law of the largest task count M under choice:D with unit tasks.
struct ChoiceMaxLaw {
  std::vector<double> pmf;    //!< P(M = m) for m = 0..N, each correctly rounded
  double mean = 0.0;          //!< E M, correctly rounded from mean_exact
  double variance = 0.0;      //!< Var M, correctly rounded from the exact rational
  std::string mean_exact;     //!< E M as "numerator/denominator" in lowest terms ("3/1" for 3)
  //! The number of the P^{D·N} equally likely draw sequences with M = m, in
  //! decimal, for m = 0..N, and P^{D·N} itself: the law as exact integers.
  std::vector<std::string> sequence_counts;
  std::string sequence_total;
};

//! The exact law of M for `balls` unit tasks on `bins` processors, `d`
//! uniform draws with replacement per task (see the note above), by the
//! profile chain in big integers. nullopt when the estimated work exceeds the
//! cap (about 0.9 s), N > 4096 or D > 2^16. Throws engine::InputError for
//! balls < 0, bins < 1 or d < 1.
std::optional<ChoiceMaxLaw> choice_unit_max_law(std::int64_t balls, std::int64_t bins, std::int64_t d);

//! The fluid limit s_i(t), i >= 1: s_i = 1 (to double precision) for
//! i <= full, then the stored values s_{full+1}, s_{full+2}, ..., down to the
//! last above 1e-300 (s_i = 0 beyond).
struct FluidTail {
  std::int64_t full = 0;
  std::vector<double> below;  //!< s_{full+1}, s_{full+2}, ..., each in (1e-300, 1)

  //! s_i for any i >= 1.
  double at(std::int64_t i) const;
};

//! s_i(t) of the fluid limit ds_i/dt = s_{i−1}^D − s_i^D at t = balls per
//! bin (see the note above): D = 1 the Poisson tail, D >= 2 RK4 with the
//! travelling-wave shift. Throws engine::InputError unless 0 <= t <= 2^62
//! and d >= 1; analytic::ReferenceUnavailable for D = 1 and t > 1e6 (the
//! Poisson window, 45556 values at 1e6, takes 0.3 s), for D > 2^16, or
//! beyond the RK4 work cap.
FluidTail choice_fluid_tail(double balls_per_bin, std::int64_t d);

//! The RK4 integration behind choice_fluid_tail, for any D >= 1, with
//! `steps_per_unit` steps per unit of t (the fractional part of t first, in
//! ceil(frac·steps_per_unit) equal steps, at least 4096 when t < 1) and, when
//! `wave_shift` is set, the travelling-wave shift. Exposed so tests can
//! compare it with the exact D = 1 tail and with other steps. Throws
//! engine::InputError as choice_fluid_tail or for steps_per_unit < 1;
//! analytic::ReferenceUnavailable for D > 2^16 or beyond the RK4 work cap.
FluidTail choice_fluid_tail_rk4(double balls_per_bin, std::int64_t d, std::int64_t steps_per_unit,
                                bool wave_shift);

//! The asymptotic E M = Σ_{i>=1} min(1, P·s_i(N/P)) (see the note above for
//! what it approximates). Throws as choice_fluid_tail, and
//! engine::InputError for balls < 0 or bins < 1.
double choice_fluid_max_mean(std::int64_t balls, std::int64_t bins, std::int64_t d);

}  // namespace lbmc::analytic
