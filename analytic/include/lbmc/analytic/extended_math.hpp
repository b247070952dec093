// Logarithm, exponential and log-factorial in x86 extended precision (long
// double) from + - * / alone, for the exact values that are summed in long
// double (multinomial_lattice.cpp, multinomial_dynamic_program.cpp).
//
// Design note
// - Why not std::log / std::exp / std::lgamma on long double: glibc computes
//   logl, expl, log1pl and lgammal (through logl) with the x87 instructions
//   FYL2X, FYL2XP1 and F2XM1, whose last bit is the processor's microcode and
//   differs between vendors (logl(6) has the significand 0xe5585fd151001191
//   on an Intel Xeon, ...1192 on AMD Opteron and EPYC). The exact multinomial
//   references cancel about 1e-3 of their magnitude (a variance as a second
//   moment minus a squared mean, a tail as 1 - cdf), so one such bit moved the
//   printed exact variance in its 15th digit between hosts. + - * / are
//   correctly rounded to the 64-bit significand by every x87 (precision
//   control is "extended" on x86-64 Linux), so these functions give the same
//   bits on every x86-64 host.
// - log: x = 2^e m with m in [sqrt(1/2), sqrt(2)), f = m - 1 (exact),
//   s = f/(2 + f), ln m = 2 atanh s = f - s (f - 2 sum_{j=1..12} s^{2j}/(2j+1))
//   (2s = f - f s); s^2 < 0.0295, so the series leaves < 1e-21 relative.
//   e ln 2 is added in two parts, the high one (32 significant bits) exact.
// - exp: x = k ln 2 + r, |r| <= ln(2)/2 (r from the same two-part ln 2), e^r
//   by its Taylor polynomial of degree 17 (remainder < 1e-24), scaled by 2^k.
// - log1p: u = 1 + x rounded, ln u - ((u - 1) - x)/u (the rounding of u
//   corrected to first order).
// - log_factorial: ln j! as ln of the exact product for j <= 25 (25! is
//   2^22 times an odd number below 2^62, so it is exact in long double),
//   Stirling's series with 8 terms at x = j + 1 >= 27 beyond (remainder
//   about 1e-27 relative).
// - Accuracy, measured against binary128 (libquadmath) over 10^6 random
//   arguments in the ranges the multinomial references use: at most 1.3 ulp
//   of the 64-bit significand for log, 1.2 for exp, 1.7 for log1p and 2.3
//   for log_factorial (j up to 1e9); glibc's x87 functions: 0.9, 1.1, 2.5
//   and 2.1. tests/extended_math_test.cpp checks known values.
// - Cost: about 80, 55, 85 and 95 ns a call against 32, 53, 34 and 75 ns for
//   logl, expl, log1pl and lgammal; the calls are outside the lattice
//   inversion's inner loop, and the exact references of `lbmc assign` at
//   N = 1000 (nine P) take 5% longer.
// - Domain: log and log1p want a positive finite argument (1 + x > 0 for
//   log1p), exp a finite one (it underflows to 0 below about -11355 and
//   overflows to infinity above 11356); other arguments give NaN or the
//   IEEE limit, as std::log / std::exp would.
#pragma once

#include <cstdint>

namespace lbmc::analytic::ext {

//! ln x in long double from + - * / only (see the note above).
long double log(long double x) noexcept;

//! e^x in long double from + - * / only.
long double exp(long double x) noexcept;

//! ln(1 + x) in long double from + - * / only.
long double log1p(long double x) noexcept;

//! ln j! for j >= 0 (lgamma(j + 1)) in long double from + - * / only; NaN
//! for j < 0.
long double log_factorial(std::int64_t j) noexcept;

}  // namespace lbmc::analytic::ext
