// Loader's (2000) saddle-point log-probabilities (see log_pmf.hpp).
//
// stirlerr(n) = log n! - log(sqrt(2 pi n) (n/e)^n): for n <= 32 a table built
// once by the exact recurrence in double-double (double_double.hpp), beyond it
// the asymptotic series. bd0 by its series in v = (x-np)/(x+np) near np.
#include "lbmc/dist/log_pmf.hpp"

#include <array>
#include <cmath>
#include <cstddef>

#include "lbmc/dist/double_double.hpp"

// No fused multiply-add anywhere in this file (sampler_support.hpp).
LBMC_SAMPLER_NO_FP_CONTRACT

namespace lbmc::dist {
namespace {

using dd::DD;

constexpr int kStirlerrTable = 32;

// n <= 32 by the exact recurrence stirlerr(n) = stirlerr(n+1) + (n + 1/2) log(1 + 1/n) - 1
// in double-double, down from n = 64 where the series below is exact to 1e-23.
double stirlerr_series(double n) {
  constexpr double s0 = 1.0 / 12.0, s1 = 1.0 / 360.0, s2 = 1.0 / 1260.0, s3 = 1.0 / 1680.0,
                   s4 = 1.0 / 1188.0;
  const double r = 1.0 / n;
  const double r2 = r * r;
  return (s0 - (s1 - (s2 - (s3 - s4 * r2) * r2) * r2) * r2) * r;
}
std::array<double, kStirlerrTable + 1> make_stirlerr_table() {
  std::array<double, kStirlerrTable + 1> table{};
  DD s{stirlerr_series(64.0)};
  for (int n = 63; n >= 1; --n) {
    const DD dn{static_cast<double>(n)};
    s = s + (dn + DD{0.5}) * dd::dd_log((dn + DD{1.0}) / dn) - DD{1.0};
    if (n <= kStirlerrTable) table[static_cast<std::size_t>(n)] = dd::to_double(s);
  }
  return table;
}
double stirlerr(double n) {  // n >= 1 an integer
  static const std::array<double, kStirlerrTable + 1> table = make_stirlerr_table();
  if (n <= kStirlerrTable) return table[static_cast<std::size_t>(n)];
  return stirlerr_series(n);
}

// bd0(x, np) = x log(x/np) + np - x, Loader (2000) §2, by the series in
// v = (x-np)/(x+np) when x is close to np.
double bd0(double x, double np) {
  if (std::abs(x - np) < 0.1 * (x + np)) {
    const double v = (x - np) / (x + np);
    double s = (x - np) * v;
    double ej = 2.0 * x * v;
    const double v2 = v * v;
    for (int j = 1; j < 1000; ++j) {
      ej *= v2;
      const double s1 = s + ej / (2 * j + 1);
      if (s1 == s) return s1;
      s = s1;
    }
    return s;
  }
  return x * std::log(x / np) + np - x;
}

constexpr double kLog2Pi = 1.8378770664093454835606594728112353;

}  // namespace

namespace detail {

double poisson_log_pmf(double k, double lambda) {
  if (k == 0.0) return -lambda;
  return -stirlerr(k) - bd0(k, lambda) - 0.5 * (kLog2Pi + std::log(k));
}

double binomial_log_pmf(double k, double n, double p, double q) {
  if (k == 0.0) return n * std::log1p(-p);
  if (k == n) return n * std::log(p);
  const double lc = stirlerr(n) - stirlerr(k) - stirlerr(n - k) - bd0(k, n * p) - bd0(n - k, n * q);
  return lc - 0.5 * (kLog2Pi + std::log(k) + std::log1p(-k / n));
}

}  // namespace detail
}  // namespace lbmc::dist
