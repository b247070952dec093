// Load laws: the per-processor load distributions lbmc samples.
//
// Each law is a small value type holding its parameters, with Boost.Math's
// API shape: free functions mean, variance, cdf, ccdf (upper tail, computed
// directly rather than as 1 - cdf), pdf (density, or mass for integer laws),
// quantile. LoadLaw is the closed set the command line can name; a spec such
// as "normal:0,1" parses into it (DESIGN §3). Samplers live in samplers.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace lbmc::dist {

struct Normal {
  double mu = 0.0;
  double sigma = 1.0;
};
struct Binomial {
  std::int64_t trials = 1;
  double p = 0.5;
};
struct Poisson {
  double lambda = 1.0;
};
struct Exponential {
  double mean = 1.0;
};
struct Uniform {
  double a = 0.0;
  double b = 1.0;
};
struct Constant {
  double value = 0.0;
};

using LoadLaw = std::variant<Normal, Binomial, Poisson, Exponential, Uniform, Constant>;

//! Parses `normal:MU,SIGMA`, `binomial:M,P`, `poisson:LAMBDA`,
//! `exponential:MEAN`, `uniform:A,B`, `constant:V`. Throws
//! engine::InputError naming the spec and the rule it breaks (sigma > 0,
//! M >= 0 an integer, p in [0,1], 0 <= lambda <= 1e10, mean > 0 with a finite
//! rate 1/mean, a < b, finite values).
LoadLaw parse_load_law(std::string_view spec);

//! The canonical spec of a law, shortest round-trip formatting of each
//! parameter ("normal:0,1"); used as the `dist` column of the output.
std::string to_spec(const LoadLaw& law);

//! True for the laws with a density (normal, exponential, uniform); false for
//! the integer laws and the constant, whatever its value.
bool is_continuous(const LoadLaw& law);
//! True when every value of the law is an integer: binomial, Poisson, and a
//! constant whose value is an integer.
bool is_integer_valued(const LoadLaw& law);

double mean(const LoadLaw& law);
double variance(const LoadLaw& law);
double standard_deviation(const LoadLaw& law);
//! P(X <= x).
double cdf(const LoadLaw& law, double x);
//! P(X > x), accurate in the upper tail.
double ccdf(const LoadLaw& law, double x);
//! Density for continuous laws; P(X = x) for integer laws (0 off the integers).
double pdf(const LoadLaw& law, double x);
//! Continuous laws: F^{-1}(p). Integer laws: the smallest k with F(k) >= p.
double quantile(const LoadLaw& law, double p);
//! Continuous laws: the x with P(X > x) = q, accurate for small q.
//! Integer laws: the smallest k with P(X > k) <= q.
double quantile_upper(const LoadLaw& law, double q);
//! The smallest and largest possible values (may be infinite).
double support_min(const LoadLaw& law);
double support_max(const LoadLaw& law);

}  // namespace lbmc::dist
