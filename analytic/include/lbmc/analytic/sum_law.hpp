// The law of a processor's time S_n = t_1 + ... + t_n, the sum of n iid task
// times, where it is known exactly: the one place that knows it, for the
// scattered decomposition (scatter.hpp, every processor with n tasks) and the
// maximum of sums with unequal task counts (max_of_sums.hpp).
//
// Known laws (a family closed under sums, or an exact convolution):
//   constant V            S_n = n·V;
//   normal(μ, σ)          Normal(nμ, √n·σ);
//   exponential (mean m)  Gamma(n, scale m) (Erlang);
//   gamma(K, THETA)       Gamma(nK, THETA);
//   Poisson(λ)            Poisson(nλ);
//   binomial(M, P)        binomial(nM, P);
//   negative binomial     negative binomial(nR, P);
//   geometric(P) trials   n + negative binomial(n, P) (failures);
//   integer empirical     exact convolution (lattice_sum.hpp, up to
//                         kMaxLatticeCells cells).
// The gamma, Poisson, binomial and negative binomial sums are built through
// their specs, so the law table's ranges apply (beyond them: not known). The
// exponential sum is built directly (its shape n is not bounded by the table).
// S_0 = 0 (a processor with no tasks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "lbmc/analytic/lattice_sum.hpp"
#include "lbmc/dist/laws.hpp"

namespace lbmc::analytic {

//! S_n = shift + a value of `law`: a law of the table, or the exact lattice
//! law of an integer empirical sum (shift 0).
struct SumLaw {
  double shift = 0.0;
  std::variant<dist::LoadLaw, LatticeLaw> law;
};

//! The law of the sum of n iid values of `task` (the list at the top of this
//! file); empty for other laws or outside the table's ranges. n = 0 gives the
//! point mass at 0. Throws engine::InputError for n < 0.
std::optional<SumLaw> sum_law(const dist::LoadLaw& task, std::int64_t n);

//! P(S <= x) and P(S > x), neither by cancellation: P(S <= x) from the law,
//! P(S > x) from the law where P(S <= x) > 1/2 and as 1 - P(S <= x) (>= 1/2)
//! elsewhere; a lattice law's two sums of masses as they are.
struct SumTails {
  double below = 0.0;
  double above = 1.0;
};
SumTails sum_tails(const SumLaw& sum, double x);

//! True when every value of S is an integer.
bool is_integer_valued(const SumLaw& sum);

//! The smallest k with P(S > k) <= q, q in (0, 1]: dist::quantile_upper
//! plus the shift, or the lattice law's cell.
double quantile_upper(const SumLaw& sum, double q);

//! Integer S: P(S <= k) and P(S > k) at the integers k = lo, lo + 1, ..., hi.
//! A lattice law's own sums of masses; a law of the table's cdf and upper
//! tail exactly at one cell in kTailTableStride (and at hi), carried to the
//! cells between by adding masses P(S = k) (upward for P(S <= k), downward
//! for P(S > k)), so each stays a sum of positive terms: relative error
//! below ~kTailTableStride ulp, for one mass (~0.4 us) per cell instead of a
//! cdf (~5 us for Poisson means of 1e5 and more). Throws engine::InputError
//! for a continuous law.
struct TailTable {
  double lo = 0.0;
  std::vector<double> below;
  std::vector<double> above;
};
inline constexpr std::size_t kTailTableStride = 32;
TailTable tail_table(const SumLaw& sum, double lo, double hi);

//! The alpha-quantile of the maximum of `count` iid copies of S, alpha in
//! (0, 1): quantile(MaxOfIid) of max_of_iid.hpp or max_quantile of
//! lattice_sum.hpp, plus the shift.
double max_quantile(const SumLaw& sum, std::int64_t count, double alpha);

//! E of the maximum of `count` iid copies of S: mean(MaxOfIid) of max_of_iid.hpp
//! or max_mean of lattice_sum.hpp, plus the shift.
double max_mean(const SumLaw& sum, std::int64_t count);

}  // namespace lbmc::analytic
