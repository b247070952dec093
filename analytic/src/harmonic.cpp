// Harmonic numbers: direct sums for small p, Euler–Maclaurin beyond.
//
// Both sums are formed in long double and rounded once to double. Past the
// crossover p = 64 the first omitted term of each expansion is below 4e-24,
// under the long double rounding (5e-20); the last kept terms (~1e-20) are
// themselves below double resolution and only sharpen the rounding.
#include "lbmc/analytic/harmonic.hpp"

#include <cmath>

#include <boost/math/constants/constants.hpp>
#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"

namespace lbmc::analytic {
namespace {

constexpr std::int64_t kDirectMax = 64;

void require_nonnegative(std::int64_t p, const char* what) {
  if (p < 0) throw engine::InputError(fmt::format("{}: p = {} must be >= 0", what, p));
}

}  // namespace

double harmonic(std::int64_t p) {
  require_nonnegative(p, "harmonic");
  if (p <= kDirectMax) {
    long double sum = 0.0L;  // smallest terms first
    for (std::int64_t k = p; k >= 1; --k) sum += 1.0L / static_cast<long double>(k);
    return static_cast<double>(sum);
  }
  // Euler–Maclaurin (Abramowitz & Stegun 6.3.18 with psi(p+1) = H_p - gamma):
  // H_p = ln p + gamma + 1/(2p) - sum_{k>=1} B_{2k} / (2k p^{2k})
  //     = ln p + gamma + 1/(2p) - 1/(12p^2) + 1/(120p^4) - 1/(252p^6)
  //       + 1/(240p^8) - 1/(132p^10) + 691/(32760p^12) - ...
  // At p >= 65 the first omitted term, 691/(32760 p^12), is below 4e-24.
  const long double x = static_cast<long double>(p);
  const long double r = 1.0L / x;
  const long double r2 = r * r;
  const long double series =
      r2 * (-1.0L / 12 +
            r2 * (1.0L / 120 + r2 * (-1.0L / 252 + r2 * (1.0L / 240 - r2 / 132))));
  const long double gamma = boost::math::constants::euler<long double>();
  return static_cast<double>(std::log(x) + gamma + (r / 2 + series));
}

double harmonic2(std::int64_t p) {
  require_nonnegative(p, "harmonic2");
  if (p <= kDirectMax) {
    long double sum = 0.0L;
    for (std::int64_t k = p; k >= 1; --k) {
      const long double kk = static_cast<long double>(k);
      sum += 1.0L / (kk * kk);
    }
    return static_cast<double>(sum);
  }
  // sum_{k>p} 1/k^2 = psi'(p+1) = psi'(p) - 1/p^2 (A&S 6.4.12 for psi'):
  // H_p^(2) = pi^2/6 - 1/p + 1/(2p^2) - sum_{k>=1} B_{2k} / p^{2k+1}
  //         = pi^2/6 - 1/p + 1/(2p^2) - 1/(6p^3) + 1/(30p^5) - 1/(42p^7)
  //           + 1/(30p^9) - 5/(66p^11) + 691/(2730p^13) - ...
  // At p >= 65 the first omitted term, 691/(2730 p^13), is below 1e-24.
  const long double x = static_cast<long double>(p);
  const long double r = 1.0L / x;
  const long double r2 = r * r;
  const long double bernoulli =
      r * r2 * (-1.0L / 6 + r2 * (1.0L / 30 + r2 * (-1.0L / 42 + r2 * (1.0L / 30 - r2 * 5 / 66))));
  const long double zeta2 = boost::math::constants::pi_sqr_div_six<long double>();
  return static_cast<double>(zeta2 - (r - r2 / 2 - bernoulli));
}

}  // namespace lbmc::analytic
