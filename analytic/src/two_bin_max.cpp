// Two processors by closed forms: de Moivre's mean absolute deviation, the
// binomial upper tail, and E ceil(M/L) by residues mod L (two_bin_max.hpp
// states the method and its error).
#include "lbmc/analytic/two_bin_max.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/special_functions/polygamma.hpp>
#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"
#include "random_assignment_checks.hpp"
#include "numbers.hpp"

namespace lbmc::analytic {
namespace {

constexpr long double kPiL = std::numbers::pi_v<long double>;
constexpr long double kSqrtPiL = 1.772453850905516027298167483341145183L;
// E ceil(M/L): the residue method when 16 L <= sd(X).
constexpr double kResidueRatio = 16.0;


// E|X - N/2| = ceil(N/2) C(N, ceil(N/2)) / 2^N (de Moivre's mean absolute
// deviation) = (N/2) Gamma(m + 1/2) / (sqrt(pi) Gamma(m + 1)), m = floor(N/2)
// (C(2m, m)/4^m = Gamma(m + 1/2)/(sqrt(pi) m!), and the odd case is
// (2m+1)/2 times the even one).
long double two_bin_mad(std::int64_t N) {
  const long double m = as_ld(N / 2);
  return as_ld(N) / 2.0L * boost::math::tgamma_delta_ratio(m + 0.5L, 0.5L, engine::MathPolicy()) / kSqrtPiL;
}

// A polynomial in c = cot(x), degree < 10, coefficients lowest first.
using Poly = std::array<double, 10>;

double eval(const Poly& p, double c) {
  double v = 0.0;
  for (std::size_t i = p.size(); i-- > 0;) v = v * c + p[i];
  return v;
}

// d/dx of p(cot x) = -(1 + c^2) p'(c); of csc(x) p(cot x) = csc(x) (-c p - (1 + c^2) p').
Poly next_derivative(const Poly& p, bool csc) {
  Poly d{}, out{};
  for (std::size_t i = 1; i < p.size(); ++i) d[i - 1] = static_cast<double>(i) * p[i];
  for (std::size_t i = 0; i + 2 < p.size(); ++i) {
    out[i] -= d[i];
    out[i + 2] -= d[i];
    if (csc) out[i + 1] -= p[i];
  }
  return out;
}

// E ceil(M/L) by residues (valid for L << sd(X); see the header):
//   E ceil(M/L) = (E M + E[(-M) mod L]) / L,
//   E[(-M) mod L] = (L-1)/2 + sum_{q=1}^{L-1} Re{ W(w_q) / (e^{i w_q} - 1) },  w_q = 2 pi q/L,
//   W(w) = E e^{i w M} = e^{i w N/2} (cos(w/2)^N + 2 i S(w)),
//   S(w) = sum_{y > 0} g(y) sin(w y),  g(y) = P(X = N/2 + y), y in Z (N even) or 1/2 + Z (N odd).
// Poisson summation over the lattice of y and integration by parts give
//   S(w) = sum_{r>=0} (-1)^r g^{(2r)}(0) K_r(w),  K_r(w) = sum_k s_k (w + 2 pi k)^{-(2r+1)}
//        = (1/(2r)!) (d/dw)^{2r} K_0,  K_0 = cot(w/2)/2 (s_k = 1, N even), csc(w/2)/2
// (s_k = (-1)^k, N odd), with g the Gamma-function extension of the pmf,
//   ln g(y)/g(0) = -sum_{j>=1} 2 psi^{(2j-1)}(N/2 + 1) y^{2j}/(2j)!.
// Four terms (r <= 3); the first omitted is below (L/(2 pi sd))^8 105 ~ 1e-14 of
// S, and S itself is below ~0.01.
double two_bin_residue_ceil_mean(std::int64_t N, std::int64_t L) {
  constexpr int kTerms = 4;
  const long double mean = as_ld(N) / 2.0L + two_bin_mad(N);
  const double a = as_double(N) / 2.0 + 1.0;
  const double g0 = static_cast<double>(
      boost::math::tgamma_delta_ratio(as_ld(N) / 2.0L + 0.5L, 0.5L, engine::MathPolicy()) / kSqrtPiL);
  const double b1 = -boost::math::trigamma(a, engine::MathPolicy());
  const double b2 = -boost::math::polygamma(3, a, engine::MathPolicy()) / 12.0;
  const double b3 = -boost::math::polygamma(5, a, engine::MathPolicy()) / 360.0;
  // g^{(2r)}(0)/g(0), r = 0..3, from the exponential of the even series
  const double d[kTerms] = {1.0, 2.0 * b1, 12.0 * b1 * b1 + 24.0 * b2,
                            120.0 * b1 * b1 * b1 + 720.0 * b1 * b2 + 720.0 * b3};
  const bool odd = N % 2 != 0;
  // the 2r-th derivatives of cot x (or csc x) as polynomials in cot x, and
  // their factors 2^{-2r}/(2 (2r)!) (d/dw = (1/2) d/dx)
  std::array<Poly, kTerms> poly{};
  std::array<double, kTerms> factor{};
  Poly p{};
  p[odd ? 0 : 1] = 1.0;  // csc x · 1, or cot x
  double fact = 1.0;
  for (int n = 0; n <= 2 * (kTerms - 1); ++n) {
    if (n % 2 == 0) {
      poly[static_cast<std::size_t>(n / 2)] = p;
      factor[static_cast<std::size_t>(n / 2)] = std::ldexp(1.0, -n) / (2.0 * fact);
    }
    p = next_derivative(p, odd);
    fact *= static_cast<double>(n + 1);
  }
  const std::int64_t two_l = 2 * L;
  const std::int64_t n_mod = N % two_l;
  long double residue = (as_ld(L) - 1.0L) / 2.0L;
  for (std::int64_t q = 1; q < L; ++q) {
    const double x = static_cast<double>(kPiL * as_ld(q) / as_ld(L));  // w_q / 2
    const double c = 1.0 / std::tan(x);
    const double csc = 1.0 / std::sin(x);
    double S = 0.0;
    for (std::size_t r = 0; r < static_cast<std::size_t>(kTerms); ++r) {
      const double k_r = factor[r] * eval(poly[r], c) * (odd ? csc : 1.0);
      S += (r % 2 == 0 ? 1.0 : -1.0) * d[r] * k_r;
    }
    S *= g0;
    const double C = std::pow(std::cos(x), as_double(N));
    // (C + 2iS)(-1/2 - (i/2) cot x), then times e^{i theta}, theta = w N/2 mod 2 pi
    const double re = -0.5 * C + S * c;
    const double im = -0.5 * C * c - S;
    const double theta = static_cast<double>(kPiL * as_ld((q * n_mod) % two_l) / as_ld(L));
    residue += std::cos(theta) * re - std::sin(theta) * im;
  }
  return static_cast<double>((mean + residue) / as_ld(L));
}

}  // namespace

TwoBinMax::TwoBinMax(std::int64_t N) : tasks_(N) { detail::require_tasks_processors(N, 2); }

double cdf(const TwoBinMax& m, std::int64_t k) {
  const std::int64_t N = m.tasks();
  if (k >= N) return 1.0;
  if (k < 0 || k < N - k) return 0.0;
  // P(M <= k) = P(N - k <= X <= k) = 1 - 2 P(X > k) (symmetry of X about N/2)
  const boost::math::binomial_distribution<double, engine::MathPolicy> bin(as_double(N), 0.5);
  return std::max(0.0, 1.0 - 2.0 * boost::math::cdf(boost::math::complement(bin, as_double(k))));
}

MaxMoments moments(const TwoBinMax& m) {
  const std::int64_t N = m.tasks();
  const long double mad = two_bin_mad(N);
  // (M - N/2)^2 = (X - N/2)^2, whose mean is N/4
  return MaxMoments{static_cast<double>(as_ld(N) / 2.0L + mad),
                    static_cast<double>(std::max(0.0L, as_ld(N) / 4.0L - mad * mad))};
}

double ceil_mean(const TwoBinMax& m, std::int64_t L) {
  const std::int64_t N = m.tasks();
  if (L < 1) throw engine::InputError(fmt::format("E ceil(M/L): L = {} must be >= 1", L));
  if (N == 0) return 0.0;
  if (L == 1) return mean(m);  // ceil(M/1) = M
  if (kResidueRatio * as_double(L) <= std::sqrt(as_double(N)) / 2.0) return two_bin_residue_ceil_mean(N, L);
  // Otherwise the window is short: P(M > jL) = 1 while 2jL < N (counted),
  // 2 P(X > jL) after; at most ~9 sd(X)/L < 150 terms.
  const boost::math::binomial_distribution<double, engine::MathPolicy> bin(as_double(N), 0.5);
  const double dL = as_double(L);
  double j = as_double(detail::ceil_div(N, 2 * L));
  double sum = j;
  for (;; j += 1.0) {
    const double k = j * dL;
    const double t = k >= as_double(N) ? 0.0 : std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(bin, k)));
    sum += t;
    if (t < 1e-18 * sum) break;
  }
  return sum;
}

}  // namespace lbmc::analytic
