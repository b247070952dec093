// Extended-precision log, exp, log1p and log-factorial from + - * / only
// (see extended_math.hpp for the method and its accuracy). The only library
// calls are frexp, ldexp and floor, which are exact operations.
#include "lbmc/analytic/extended_math.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

namespace lbmc::analytic::ext {
namespace {

// ln 2 = kLn2High + kLn2Low: the high part has 32 significant bits, so
// k kLn2High is exact for |k| < 2^32; the low part is ln 2 - kLn2High rounded.
constexpr long double kLn2High = 0x1.62e42fee00000p-1L;
constexpr long double kLn2Low = 1.908214929270587816142318635662620593651e-10L;
constexpr long double kInvLn2 = 1.442695040888963407359924681001892137427L;
constexpr long double kSqrtHalf = 0.7071067811865475244008443621048490392848L;
constexpr long double kHalfLog2Pi = 0.9189385332046727417803297364056176398614L;
constexpr long double kInf = std::numeric_limits<long double>::infinity();
constexpr long double kNaN = std::numeric_limits<long double>::quiet_NaN();

// 1/n! for n = 0..17 (n! is exact in long double up to 25!).
constexpr std::array<long double, 18> kInvFactorial = [] {
  std::array<long double, 18> c{};
  long double f = 1.0L;
  for (std::size_t n = 0; n < c.size(); ++n) {
    if (n > 0) f *= static_cast<long double>(n);
    c[n] = 1.0L / f;
  }
  return c;
}();

// 1/(2j + 1) for j = 0..12: the atanh series of the logarithm.
constexpr std::array<long double, 13> kInvOdd = [] {
  std::array<long double, 13> c{};
  for (std::size_t j = 0; j < c.size(); ++j) c[j] = 1.0L / static_cast<long double>(2 * j + 1);
  return c;
}();

// B_{2m} / (2m (2m - 1)), m = 1..8: Stirling's series for ln Gamma.
constexpr std::array<long double, 8> kStirling = {
    1.0L / 12.0L,      -1.0L / 360.0L, 1.0L / 1260.0L, -1.0L / 1680.0L,
    1.0L / 1188.0L,    -691.0L / 360360.0L, 1.0L / 156.0L, -3617.0L / 122400.0L};

// Factorials are exact in long double up to this j.
constexpr std::int64_t kExactFactorialMax = 25;

}  // namespace

long double log(long double x) noexcept {
  if (std::isnan(x) || x < 0.0L) return kNaN;
  if (x == 0.0L) return -kInf;
  if (std::isinf(x)) return kInf;
  int e = 0;
  long double m = std::frexp(x, &e);  // m in [1/2, 1), exact (also for subnormal x)
  if (m < kSqrtHalf) {
    m *= 2.0L;
    --e;
  }
  const long double f = m - 1.0L;  // exact (Sterbenz)
  const long double s = f / (2.0L + f);
  const long double z = s * s;
  long double series = kInvOdd.back();  // sum_{j=1..12} z^j/(2j+1), by Horner
  for (std::size_t j = kInvOdd.size() - 1; j-- > 1;) series = series * z + kInvOdd[j];
  series *= z;
  const long double log_m = f - s * (f - 2.0L * series);
  const auto de = static_cast<long double>(e);
  return de * kLn2High + (de * kLn2Low + log_m);
}

long double exp(long double x) noexcept {
  if (std::isnan(x)) return x;
  if (x > 11357.0L) return kInf;
  if (x < -11400.0L) return 0.0L;
  const long double kf = std::floor(x * kInvLn2 + 0.5L);
  const long double r = (x - kf * kLn2High) - kf * kLn2Low;  // |r| <= ln(2)/2 + tiny
  long double p = kInvFactorial.back();
  for (std::size_t n = kInvFactorial.size() - 1; n-- > 1;) p = p * r + kInvFactorial[n];
  const long double er = p * r + 1.0L;
  return std::ldexp(er, static_cast<int>(kf));
}

long double log1p(long double x) noexcept {
  if (std::isnan(x) || x < -1.0L) return kNaN;
  if (x == -1.0L) return -kInf;
  if (std::isinf(x)) return kInf;
  const long double u = 1.0L + x;
  if (u == 1.0L) return x;
  return log(u) - ((u - 1.0L) - x) / u;
}

long double log_factorial(std::int64_t j) noexcept {
  if (j < 0) return kNaN;
  if (j <= kExactFactorialMax) {
    long double f = 1.0L;
    for (std::int64_t i = 2; i <= j; ++i) f *= static_cast<long double>(i);
    return log(f);
  }
  const long double x = static_cast<long double>(j) + 1.0L;
  const long double w = 1.0L / (x * x);
  long double series = kStirling.back();
  for (std::size_t m = kStirling.size() - 1; m-- > 0;) series = series * w + kStirling[m];
  return (x - 0.5L) * log(x) - x + (kHalfLog2Pi + series / x);
}

}  // namespace lbmc::analytic::ext
