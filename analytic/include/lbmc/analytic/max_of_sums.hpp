// The exact mean makespan of a static decomposition whose processors hold
// unequal numbers of tasks: C = max over processors of the sum of their iid
// task times, the processors in groups, m_g processors each summing n_g times.
//
// The processor sums are independent, so (Mehrotra–Ranka–Wang 1992, §3, the
// law of a maximum of independent loads, here with unequal laws)
//   H(x) = P(C <= x) = Π_g F_{n_g}(x)^{m_g},
// F_n the cdf of a sum of n task times (sum_law.hpp; F_0 is the point mass at
// 0: a processor with no tasks finishes at 0). The groups of the two
// contiguous-index decompositions of N tasks on P processors:
//   block   (processor p runs [p·c, (p+1)·c), c = ⌈N/P⌉): q = ⌊N/c⌋
//           processors with c tasks, one with r = N − q·c if r > 0, the rest
//           with none;
//   cyclic  (task i on processor i mod P): N mod P processors with ⌈N/P⌉
//           tasks, the others with ⌊N/P⌋.
//
// Evaluation, in both halves without cancellation: each factor from its
// smaller tail (F^m = pow(F, m) where F <= 1/2, else exp(m·log1p(−P(S > x)))),
// and 1 − H = −expm1(Σ_g m_g·log1p(−P(S_g > x))) when every F_g > 1/2, else
// 1 − H with H <= 1/2 (max_of_iid.cpp's forms, for a product of groups).
//   Continuous sums (normal, exponential, gamma tasks): around c = the largest
//   median of the groups' maxima, with s the largest of their interquartile
//   ranges, E C = c + s[∫_0^∞ (1 − H(c + st)) dt − ∫_0^{(c−x0)/s} H(c − st) dt],
//   x0 the largest 1e-300-quantile of the groups' maxima; exp_sinh on the
//   half-line, tanh_sinh on the bounded side, stopping tolerance 1e-10 as in
//   scatter.cpp and max_of_iid.cpp (the last level is then accurate to about
//   the square of that). Below x0, H <= H_g < 1e-300 for the group g whose
//   quantile x0 is: what is left out is below 1e-300·x0 for sums >= 0, and
//   below H_g(x0)^{(m−1)/m}·E(x0 − S_g)^+ for normal sums. Starting at x0
//   also keeps Boost's incomplete gamma away from x ≪ shape, where it
//   overflows (shapes beyond ~1750).
//   Integer sums (Poisson, binomial, negative binomial, geometric, integer
//   empirical tasks): the lattice sum E C = lo + Σ_{k>=lo} P(C > k), lo the
//   lowest value of C, taken as E C = k0 + Σ_{k0<=k<=k1} (1 − H(k)):
//    - below k0 = the largest 2^-60-quantile of the groups' maxima,
//      H(k) <= H_g(k) < 2^-60 and every term is 1 in double: counted;
//    - k1 = the first k with P(S_g > k) <= q_g = 1e-300/m_g for every group
//      (not below the smallest normal double). Beyond it P(C > k) <=
//      Σ_g m_g P(S_g > k), and each law's mass ratio p(j+1)/p(j) is below
//      some ρ_g < 1 past k1 (Poisson λ/(j+1) and binomial
//      (M−j)p/((j+1)(1−p)) decrease; negative binomial (j+r)(1−p)/(j+1) is
//      below max(1 − p, its value at k1 + 1), past the mode; a lattice sum
//      has a last value), so P(S_g > k + 1) <= ρ_g P(S_g > k) and what is
//      left out is at most Σ_g m_g q_g/(1 − ρ_g) < 1e-280 (1/(1 − ρ_g) <
//      1e12 within the table's ranges): nothing in double beside E C.
//   Each group's P(S <= k) and P(S > k) on [k0, k1] come from a tail table
//   (sum_law.hpp: exact every 32 cells, masses between).
// Accuracy, against the scattered decomposition where every processor holds
// the same count (its own quadrature, and max_of_iid's sums): every law of
// the list within 2e-15 relative, from N/P = 1 to 1e5 (Poisson(3e5) sums);
// against independent Erlang and pmf computations with unequal counts
// (tests/max_of_sums_test.cpp): within 3e-13 (exponential, limited by the
// Simpson reference) and 2e-16 (integer laws).
// Cost: continuous sums < 1 ms. Integer sums: one mass per group and cell of
// [k0, k1], ~45 sd of the largest sums wide (Poisson(4e5) sums: 35 ms;
// binomial sums of sd 1900: 0.3 s near the limit); windows wider than
// kMaxSumTerms throw analytic::ReferenceUnavailable before any work (Poisson
// sums of mean beyond ~3e7).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "lbmc/analytic/sum_law.hpp"
#include "lbmc/dist/laws.hpp"

namespace lbmc::analytic {

//! `processors` processors, each summing `tasks` iid task times.
struct SumGroup {
  std::int64_t tasks = 0;
  std::int64_t processors = 0;

  friend bool operator==(const SumGroup&, const SumGroup&) = default;
};

//! The groups of `block` on N tasks and P processors (see the note above),
//! most tasks first; groups of no processors left out. Throws
//! engine::InputError unless N >= 0 and P >= 1.
std::vector<SumGroup> block_groups(std::int64_t tasks, std::int64_t procs);

//! The groups of `cyclic` on N tasks and P processors, most tasks first;
//! one group when P divides N. Throws engine::InputError unless N >= 0 and
//! P >= 1.
std::vector<SumGroup> cyclic_groups(std::int64_t tasks, std::int64_t procs);

//! A group's processor-sum law.
struct SumLawGroup {
  SumLaw sum;
  std::int64_t processors = 0;
};

//! P(C <= x) and P(C > x) for C the maximum of independent sums, `processors`
//! copies of each group's law, each without cancellation (the note above).
//! For one group: F^m and 1 − F^m as the scattered decomposition forms them.
struct MaxTails {
  double below = 0.0;
  double above = 1.0;
};
MaxTails max_of_sums_tails(std::span<const SumLawGroup> groups, double x);

//! The most terms the integer sums take (~0.3 s at the limit).
inline constexpr double kMaxSumTerms = 0x1p18;

//! E C, C the maximum over every processor of the groups of the sum of its
//! task times (iid of law `task`), exactly: for the laws whose sum law is
//! known (sum_law.hpp: constant, normal, exponential, gamma, Poisson,
//! binomial, negative binomial, geometric, integer empirical), empty for the
//! others. Constant tasks V: max_g n_g·V. Groups with no processors are left
//! out; groups with no tasks hold processors that finish at 0. Throws
//! engine::InputError when a group has tasks < 0 or processors < 0 or no
//! group has a processor; analytic::ReferenceUnavailable when an integer sum
//! would take more than kMaxSumTerms terms or its law's tails cannot be
//! evaluated.
std::optional<double> max_of_sums_mean(const dist::LoadLaw& task, std::span<const SumGroup> groups);

}  // namespace lbmc::analytic
