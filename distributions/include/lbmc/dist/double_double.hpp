// Double-double ("dd") arithmetic: the samplers' one-time tables
// (ziggurat.cpp, gamma_ziggurat.cpp, log_pmf.cpp) and the exponents of the
// limit laws (analytic/src/bridge.cpp).
//
// Design note
// - A DD is an unevaluated sum hi + lo of two doubles. Dekker's (1971) exact
//   products and Knuth's (TAOCP vol. 2 §4.2.2) exact sums give about 106 bits,
//   so tables solved in DD and then rounded to double are the correctly
//   rounded values of the exact tables except in cases of probability ~1e-15.
// - Only + - * / and sqrt (correctly rounded in IEEE-754) enter the results:
//   exp and log are computed here, libm only supplies starting points that
//   Newton steps then refine past its errors, so the tables do not depend on
//   the C library.
// - The plain-double overloads (dd_exp(double), ..., number<double>) let code
//   templated on T in {double, DD} run a coarse pass in double first.
// - Fused multiply-add would break the exact products and sums: contraction is
//   turned off from here to the end of the including file (clang; GCC gets
//   -ffp-contract=off from CMakeLists.txt), as the includers want anyway.
#pragma once

#include <cmath>

#include "lbmc/dist/sampler_support.hpp"

LBMC_SAMPLER_NO_FP_CONTRACT

namespace lbmc::dist::dd {

struct DD {
  double hi = 0.0;
  double lo = 0.0;
};

inline DD two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
inline DD fast_two_sum(double a, double b) {  // |a| >= |b|
  const double s = a + b;
  return {s, b - (s - a)};
}
inline DD two_prod(double a, double b) {
  const double p = a * b;
  const double ta = 134217729.0 * a;  // 2^27 + 1: Dekker's split
  const double ah = ta - (ta - a);
  const double al = a - ah;
  const double tb = 134217729.0 * b;
  const double bh = tb - (tb - b);
  const double bl = b - bh;
  return {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}
inline DD operator+(DD a, DD b) {
  DD s = two_sum(a.hi, b.hi);
  const DD t = two_sum(a.lo, b.lo);
  s.lo += t.hi;
  s = fast_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return fast_two_sum(s.hi, s.lo);
}
inline DD operator-(DD a) { return {-a.hi, -a.lo}; }
inline DD operator-(DD a, DD b) { return a + (-b); }
inline DD operator*(DD a, DD b) {
  DD p = two_prod(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return fast_two_sum(p.hi, p.lo);
}
inline DD operator/(DD a, DD b) {
  const double q1 = a.hi / b.hi;
  DD r = a - b * DD{q1};
  const double q2 = r.hi / b.hi;
  r = r - b * DD{q2};
  const double q3 = r.hi / b.hi;
  return fast_two_sum(q1, q2) + DD{q3};
}
inline DD scale2(DD a, int e) { return {std::ldexp(a.hi, e), std::ldexp(a.lo, e)}; }

inline DD dd_sqrt(DD a) {
  if (a.hi <= 0.0) return {};
  const DD y{std::sqrt(a.hi)};  // IEEE sqrt is correctly rounded
  return y + (a - y * y) / scale2(y, 1);
}

// log 2 = 2 atanh(1/3) = 2 sum_k 3^-(2k+1)/(2k+1).
inline DD dd_ln2() {
  const DD t = DD{1.0} / DD{3.0};
  const DD t2 = t * t;
  DD term = t;
  DD sum{};
  for (int k = 0; k < 40; ++k) {
    sum = sum + term / DD{2.0 * k + 1.0};
    term = term * t2;
  }
  return scale2(sum, 1);
}

// exp(z) = 2^k (1 + s)^(2^10) with 1 + s = exp((z - k ln 2)/2^10) by Taylor's
// series of expm1, squared as (1+s)^2 - 1 = s (s + 2) to keep s's digits.
inline DD dd_exp(DD z) {
  static const DD ln2 = dd_ln2();
  const double k = std::round(z.hi / ln2.hi);
  DD r = scale2(z - ln2 * DD{k}, -10);
  DD term = r;
  DD s = r;
  for (int n = 2; n <= 12; ++n) {
    term = term * r / DD{static_cast<double>(n)};
    s = s + term;
  }
  for (int j = 0; j < 10; ++j) s = s * (s + DD{2.0});
  return scale2(s + DD{1.0}, static_cast<int>(k));
}

// log(a) by Newton's method on exp: z <- z + a exp(-z) - 1 (quadratic).
inline DD dd_log(DD a) {
  DD z{std::log(a.hi)};
  for (int it = 0; it < 2; ++it) z = z + a * dd_exp(-z) - DD{1.0};
  return z;
}

// Plain-double counterparts, for a coarse pass in double.
inline double dd_exp(double z) { return std::exp(z); }
inline double dd_log(double a) { return std::log(a); }
inline double dd_sqrt(double a) { return std::sqrt(a); }
inline double to_double(double a) { return a; }
inline double to_double(DD a) { return a.hi + a.lo; }

template <class T>
T number(double a) {
  return T{a};
}

}  // namespace lbmc::dist::dd
