// Sums of integer empirical values by exact convolution (see lattice_sum.hpp).
#include "lbmc/analytic/lattice_sum.hpp"

#include <cmath>

#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"

namespace lbmc::analytic {
namespace {

std::vector<double> convolve(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> out(a.size() + b.size() - 1, 0.0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == 0.0) continue;
    for (std::size_t j = 0; j < b.size(); ++j) out[i + j] += a[i] * b[j];
  }
  return out;
}

// P(max of N <= cell) from F and the upper tail at the cell.
double max_cdf_at(const LatticeLaw& law, std::size_t j, double dn) {
  return law.below[j] <= 0.5 ? std::pow(law.below[j], dn) : std::exp(dn * std::log1p(-law.above[j]));
}

}  // namespace

std::optional<LatticeLaw> lattice_sum(const dist::LoadLaw& law, std::int64_t n) {
  if (n < 1) throw engine::InputError(fmt::format("sum of n values: n = {} must be >= 1", n));
  if (!std::holds_alternative<dist::Empirical>(law) || !dist::is_integer_valued(law)) return std::nullopt;
  const dist::Atoms atoms = dist::atoms(law);
  const double lo = atoms.values.front();
  const double width = atoms.values.back() - lo;
  if (static_cast<double>(n) * width + 1.0 > kMaxLatticeCells) return std::nullopt;
  std::vector<double> base(static_cast<std::size_t>(width) + 1, 0.0);
  for (std::size_t i = 0; i < atoms.values.size(); ++i) {
    base[static_cast<std::size_t>(atoms.values[i] - lo)] = atoms.counts[i] / atoms.total;
  }
  std::vector<double> power{1.0};
  for (std::int64_t k = n;;) {
    if (k & 1) power = convolve(power, base);
    k >>= 1;
    if (k == 0) break;
    base = convolve(base, base);
  }
  LatticeLaw sum{static_cast<double>(n) * lo, std::move(power), {}, {}};
  const std::size_t cells = sum.mass.size();
  sum.below.resize(cells);
  sum.above.resize(cells);
  double running = 0.0;
  for (std::size_t j = 0; j < cells; ++j) sum.below[j] = running += sum.mass[j];
  running = 0.0;
  for (std::size_t j = cells; j-- > 0;) {
    sum.above[j] = running;
    running += sum.mass[j];
  }
  return sum;
}

double max_quantile(const LatticeLaw& law, std::int64_t procs, double c) {
  const auto dn = static_cast<double>(procs);
  std::size_t lo = 0;
  std::size_t hi = law.mass.size() - 1;  // P(max <= last cell) = 1
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (max_cdf_at(law, mid, dn) >= c) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return law.lo + static_cast<double>(lo);
}

double max_mean(const LatticeLaw& law, std::int64_t procs) {
  const auto dn = static_cast<double>(procs);
  double sum = 0.0;
  for (std::size_t j = 0; j + 1 < law.mass.size(); ++j) {
    sum += law.below[j] <= 0.5 ? 1.0 - std::pow(law.below[j], dn) : -std::expm1(dn * std::log1p(-law.above[j]));
  }
  return law.lo + sum;
}

}  // namespace lbmc::analytic
