// Batched upper-tail quantiles of direct maxima: the hot loop of
// `maxload --method direct`, written so that the compiler vectorises it.
//
// Design note
// - A direct draw turns x = E/n (E a standard exponential) into the upper
//   quantile of the load law at q = 1 − U^{1/n} = −expm1(−x) (direct_max.hpp).
//   For large n nearly every x is below 1e-3, where
//   ln q = ln x − x/2 + x²/24 − x⁴/2880 needs one logarithm and no expm1.
// - log_of_normal: ln x for a positive normal double, without branches or
//   tables. x = 2^k·m with m in [√½, √2) from the bits, f = m − 1 (exact),
//   s = f/(2 + f), and ln m = 2 atanh s = f − s·(f − 2 Σ_{j=1..10} s^{2j}/(2j+1))
//   (using 2s = f − f·s); the series stops at s^{20}, which for s² < 0.0295
//   leaves under 1e-18 relative. k·ln 2 is added in two parts, the high one
//   exact. Within about one ulp of the correctly rounded logarithm (tests).
// - The normal upper quantile for e^{−25} <= q < 0.075 is Wichura (1988),
//   Applied Statistics 37, Algorithm AS 241 (PPND16): a rational function of
//   r = √(−ln q) − 1.6, accurate to about 1 part in 10^16.
// - The batch functions write NaN where their formula does not apply (x >= 1e-3,
//   x zero or subnormal, or, for the normal, q < e^{−25}); the caller evaluates
//   those few elements by the scalar path. No fused multiply-adds: every build
//   and every thread count gives the same bits.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <numbers>

namespace lbmc::exp {

namespace detail {
// ln 2 with its low 32 significand bits cleared, so that k·kLn2High is exact
// for |k| < 2^21, and the rest of ln 2.
inline constexpr double kLn2High = std::bit_cast<double>(std::bit_cast<std::uint64_t>(std::numbers::ln2) &
                                                         ~std::uint64_t{0xffffffff});
inline constexpr double kLn2Low = static_cast<double>(std::numbers::ln2_v<long double> - kLn2High);
}  // namespace detail

//! ln x for x a positive normal double (2^-1022 <= x < inf); other inputs
//! give a finite or NaN value of no meaning, without trapping.
inline double log_of_normal(double x) noexcept {
  constexpr std::uint64_t one_bits = 0x3ff0000000000000;
  constexpr std::uint64_t sqrt_half_bits = 0x3fe6a09e667f3bcd;  // √½, rounded down
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  // k + 1023 for x = 2^k·m, m in [√½, √2): the exponent of x/√½.
  const std::uint64_t biased = (bits + (one_bits - sqrt_half_bits)) >> 52;
  const double m = std::bit_cast<double>(bits - (biased << 52) + one_bits);
  // biased as a double through the 2^52 bit pattern (no 64-bit integer conversion in SSE2).
  const double k = std::bit_cast<double>(biased | 0x4330000000000000) - (0x1p52 + 1023.0);
  const double f = m - 1.0;
  const double s = f / (2.0 + f);
  const double z = s * s;
  double series = 1.0 / 21.0;  // Σ_{j=1..10} z^j/(2j+1), by Horner
  series = series * z + 1.0 / 19.0;
  series = series * z + 1.0 / 17.0;
  series = series * z + 1.0 / 15.0;
  series = series * z + 1.0 / 13.0;
  series = series * z + 1.0 / 11.0;
  series = series * z + 1.0 / 9.0;
  series = series * z + 1.0 / 7.0;
  series = series * z + 1.0 / 5.0;
  series = series * z + 1.0 / 3.0;
  series *= z;
  const double log_m = f - s * (f - 2.0 * series);
  return k * detail::kLn2High + (log_m + k * detail::kLn2Low);
}

//! out[i] = mean·(−ln(1 − e^{−x_i})) with x_i = e[i]·per_n: the direct maximum of
//! n exponential loads of the given mean; NaN where x_i >= 1e-3 or x_i is not
//! a positive normal double.
void exponential_max_batch(const double* e, double* out, std::size_t count, double per_n, double mean) noexcept;

//! out[i] = mu + sigma·Φ̄⁻¹(−expm1(−x_i)), x_i = e[i]·per_n: the direct maximum of
//! n normal loads; NaN where x_i >= 1e-3, x_i is not a positive normal double,
//! or the tail probability is below e^{−25}.
void normal_max_batch(const double* e, double* out, std::size_t count, double per_n, double mu,
                      double sigma) noexcept;

}  // namespace lbmc::exp
