// The law of a sum of n iid values of an integer law with finitely many
// values (an empirical sample of integers), by exact convolution, and the
// maximum of N such sums: the processor times of the scattered decomposition
// with measured integer task times (Salmon's P_imbal = P_proc^N_proc with
// P_proc exact).
//
// Method: binary powers of the value frequencies, each product a direct
// convolution, in double (every mass a sum of positive terms: relative
// error about the log2(n) products times the terms of each). F(k) is summed
// from the left and P(sum > k) from the right, so neither tail cancels; the
// maximum's law is F^N through log1p of the upper tail, as in max_of_iid.
// Cost: O(cells^2) for cells = n·(max - min) + 1, so the law is built only
// up to kMaxLatticeCells cells (~0.3 s at the limit).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "lbmc/dist/laws.hpp"

namespace lbmc::analytic {

inline constexpr double kMaxLatticeCells = 0x1p15;

//! P(S = lo + j) for j = 0 .. size-1, with F and the upper tail at each cell.
struct LatticeLaw {
  double lo = 0.0;
  std::vector<double> mass;
  std::vector<double> below;  // P(S <= lo + j)
  std::vector<double> above;  // P(S > lo + j)
};

//! The law of the sum of n values of an integer-valued empirical law; empty
//! for other laws or past kMaxLatticeCells cells. Throws engine::InputError
//! for n < 1.
std::optional<LatticeLaw> lattice_sum(const dist::LoadLaw& law, std::int64_t n);

//! The smallest value s with P(max of N sums <= s) >= c, c in (0, 1).
double max_quantile(const LatticeLaw& law, std::int64_t procs, double c);
//! E max of N sums = lo + sum_j P(max > lo + j).
double max_mean(const LatticeLaw& law, std::int64_t procs);

}  // namespace lbmc::analytic
