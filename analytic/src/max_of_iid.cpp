// Exact law and moments of the maximum of n iid loads (DESIGN §6).
//
// Every evaluation goes through log F(x) = log1p(-P(X > x)) in the upper
// half of the law, so F(x)^n = exp(n log F) and 1 - F(x)^n = -expm1(n log F)
// lose nothing to cancellation; in the lower half F^n = pow(F, n) directly.
// Moment quadratures integrate in t = (x - c)/s away from the median c of Z
// on each side; see integrate_side for the choice of rule.
#include "lbmc/analytic/max_of_iid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <boost/math/quadrature/exp_sinh.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <fmt/format.h>

#include "lbmc/analytic/harmonic.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"

namespace lbmc::analytic {
namespace {

namespace quad = boost::math::quadrature;
using dist::LoadLaw;

constexpr double kInf = std::numeric_limits<double>::infinity();
// Tail mass below which the sums for integer laws stop.
constexpr double kNegligible = 1e-300;
// Stopping tolerance of the quadratures (relative to the L1 norm of the
// integrand): the difference of two successive levels. Double-exponential
// rules roughly square their error from one level to the next, so at this
// tolerance the last level is accurate to rounding.
constexpr double kQuadTolerance = 1e-10;
// Integer laws: the most terms the exact sums may take (3 Boost calls each,
// 1-5 us per term: seconds at most).
constexpr double kMaxTerms = 1e6;

void require_n(std::int64_t n) {
  if (n < 1) throw engine::InputError(fmt::format("maximum of n loads: n = {} must be >= 1", n));
}

double as_double(std::int64_t n) { return static_cast<double>(n); }

// ln F(x), accurate in both halves of the law.
double log_cdf(const LoadLaw& law, double x) {
  const double f = dist::cdf(law, x);
  if (f <= 0.5) return std::log(f);
  return std::log1p(-dist::ccdf(law, x));
}

// F^n and 1 - F^n from f = F(x) and q = 1 - F(x) = P(X > x), each taken from
// the law directly (Mehrotra §3: P(Z <= x) = F(x)^n). In the upper half
// ln F = log1p(-q), so neither loses digits to cancellation.
double pow_n(double f, double q, double dn) {
  return f <= 0.5 ? std::pow(f, dn) : std::exp(dn * std::log1p(-q));
}
double one_minus_pow_n(double f, double q, double dn) {
  return f <= 0.5 ? 1.0 - std::pow(f, dn) : -std::expm1(dn * std::log1p(-q));
}

// P(Z = k) = F(k)^n - F(k-1)^n = F(k)^n (1 - (1 - P(X=k)/F(k))^n), from
// f = F(k), q = P(X > k) and the mass p = P(X = k): no cancellation.
double pow_n_mass(double f, double q, double p, double dn) {
  if (p == 0.0 || f == 0.0) return 0.0;
  return pow_n(f, q, dn) * -std::expm1(dn * std::log1p(-std::min(1.0, p / f)));
}

// The smallest integer k in [lo, hi] at which the monotone predicate `ok`
// holds (ok(hi) is assumed), searched from `guess`: galloping away from the
// guess, then bisection, so a guess that is off by many (Boost's discrete
// quantiles in extreme tails) costs O(log) evaluations, and the answer
// satisfies ok(k) and not ok(k - 1) as evaluated.
template <class Ok>
double first_integer(const Ok& ok, double guess, double lo, double hi) {
  double x = std::isfinite(guess) ? std::clamp(std::round(guess), lo, hi) : lo;
  double good = 0.0;
  double bad = 0.0;
  if (ok(x)) {
    good = x;
    for (double step = 1.0;; step *= 2.0) {
      if (good <= lo) return lo;
      const double probe = std::max(lo, good - step);
      if (!ok(probe)) {
        bad = probe;
        break;
      }
      good = probe;
    }
  } else {
    bad = x;
    for (double step = 1.0;; step *= 2.0) {
      const double probe = std::min(hi, bad + step);
      if (ok(probe) || probe >= hi) {
        good = probe;
        break;
      }
      bad = probe;
    }
  }
  while (good - bad > 1.0) {
    const double mid = std::floor(bad + (good - bad) / 2.0);
    (ok(mid) ? good : bad) = mid;
  }
  return good;
}

// ∫_0^L g(t) dt and ∫_0^L t g(t) dt for one side of the median.
struct SideIntegrals {
  double i0 = 0.0;
  double i1 = 0.0;
};

// Integrates g over [0, length]: exp_sinh on a half-line (length infinite),
// whose nodes suit an integrand decaying at any rate and scale; tanh_sinh on
// a bounded side, which tolerates the end-point behaviour of bounded laws
// (1 - F^n vanishing linearly at the top of a uniform law, for instance).
template <class G>
SideIntegrals integrate_side(const G& g, double length) {
  SideIntegrals out;
  if (!(length > 0.0)) return out;
  // t g(t) is taken as 0 where g vanishes, so far nodes (t ~ 1e300) give no inf·0.
  const auto tg = [&](double t) {
    const double v = g(t);
    return v == 0.0 ? 0.0 : t * v;
  };
  if (std::isinf(length)) {
    static quad::exp_sinh<double, engine::MathPolicy> rule;  // tables built once, thread-safe
    out.i0 = rule.integrate(g, 0.0, kInf, kQuadTolerance);
    out.i1 = rule.integrate(tg, 0.0, kInf, kQuadTolerance);
  } else {
    static quad::tanh_sinh<double, engine::MathPolicy> rule;
    out.i0 = rule.integrate(g, 0.0, length, kQuadTolerance);
    out.i1 = rule.integrate(tg, 0.0, length, kQuadTolerance);
  }
  return out;
}

// Continuous laws by quadrature around the median c of Z (DESIGN §6):
//   E Z - c = s (R0 - L0),  E (Z - c)^2 = 2 s^2 (R1 + L1),
// with R_j = ∫ t^j (1 - F(c + s t)^n) dt and L_j = ∫ t^j F(c - s t)^n dt over
// t >= 0 up to the ends of the support.
MaxMoments continuous_moments(const LoadLaw& law, std::int64_t n) {
  const double c = max_quantile(law, n, 0.5);
  double s = max_quantile(law, n, 0.75) - max_quantile(law, n, 0.25);
  if (!(s > 0.0) || !std::isfinite(s)) s = 1.0;
  const SideIntegrals left = integrate_side(
      [&](double t) { return max_cdf(law, n, c - s * t); }, (c - dist::support_min(law)) / s);
  const SideIntegrals right = integrate_side(
      [&](double t) { return max_ccdf(law, n, c + s * t); }, (dist::support_max(law) - c) / s);
  const double shift = s * (right.i0 - left.i0);            // E Z - c
  const double second = 2.0 * s * s * (right.i1 + left.i1);  // E (Z - c)^2
  return MaxMoments{c + shift, std::max(0.0, second - shift * shift)};
}

// Integer laws by sums over the support, P(Z = k) = F(k)^n - F(k-1)^n
// (DESIGN §6), from the smallest k with F(k)^n >= 1e-300 to the smallest k
// with P(Z > k) < 1e-300; mean and variance are centred (at the median, then
// at the mean) and normalised by the summed mass, in long double. The number
// of terms is the width of that range, ~75 sd(X) for Poisson and binomial
// laws; laws wider than kMaxTerms are refused rather than summed for minutes.
MaxMoments discrete_moments(const LoadLaw& law, std::int64_t n) {
  const double dn = as_double(n);
  const double c = max_quantile(law, n, 0.5);
  const double k_lo = max_quantile(law, n, kNegligible);
  // 1 - F^n <= n P(X > k), which places the guess at or beyond the answer.
  const double k_hi = first_integer([&](double k) { return max_ccdf(law, n, k) < kNegligible; },
                                    dist::quantile_upper(law, kNegligible / dn), c,
                                    dist::support_max(law));
  if (!(k_hi - k_lo < kMaxTerms)) {
    throw engine::RuntimeFailure(fmt::format(
        "exact moments of the maximum of {} x {} would need {:.3g} terms (limit {:.0g})", n,
        dist::to_spec(law), k_hi - k_lo + 1.0, kMaxTerms));
  }
  std::vector<double> mass;
  mass.reserve(static_cast<std::size_t>(k_hi - k_lo) + 1);
  for (double k = k_lo; k <= k_hi; k += 1.0) {
    mass.push_back(pow_n_mass(dist::cdf(law, k), dist::ccdf(law, k), dist::pdf(law, k), dn));
  }
  long double total = 0.0L;
  long double first = 0.0L;
  for (std::size_t i = 0; i < mass.size(); ++i) {
    const double k = k_lo + static_cast<double>(i);
    total += mass[i];
    first += static_cast<long double>(k - c) * mass[i];
  }
  const double mean = c + static_cast<double>(first / total);
  long double second = 0.0L;
  for (std::size_t i = 0; i < mass.size(); ++i) {
    const long double d = static_cast<long double>(k_lo + static_cast<double>(i) - mean);
    second += d * d * mass[i];
  }
  return MaxMoments{mean, static_cast<double>(second / total)};
}

MaxMoments general_moments(const LoadLaw& law, std::int64_t n) {
  if (const auto* c = std::get_if<dist::Constant>(&law)) return MaxMoments{c->value, 0.0};
  if (!dist::is_continuous(law)) return discrete_moments(law, n);
  if (const auto* g = std::get_if<dist::Normal>(&law)) {
    // Z = mu + sigma Z* with Z* the maximum of standard normals (Mehrotra §3).
    const MaxMoments z = continuous_moments(dist::Normal{0.0, 1.0}, n);
    return MaxMoments{g->mu + g->sigma * z.mean, g->sigma * g->sigma * z.variance};
  }
  return continuous_moments(law, n);
}

}  // namespace

double max_cdf(const LoadLaw& law, std::int64_t n, double x) {
  require_n(n);
  const double f = dist::cdf(law, x);
  return pow_n(f, f <= 0.5 ? 1.0 - f : dist::ccdf(law, x), as_double(n));
}

double max_ccdf(const LoadLaw& law, std::int64_t n, double x) {
  require_n(n);
  const double f = dist::cdf(law, x);
  return one_minus_pow_n(f, f <= 0.5 ? 1.0 - f : dist::ccdf(law, x), as_double(n));
}

double max_pdf(const LoadLaw& law, std::int64_t n, double x) {
  require_n(n);
  const double dn = as_double(n);
  if (!dist::is_continuous(law)) {
    const double p = dist::pdf(law, x);
    if (p == 0.0) return 0.0;
    return pow_n_mass(dist::cdf(law, x), dist::ccdf(law, x), p, dn);
  }
  // d/dx F^n = n F^{n-1} f.
  const double density = dist::pdf(law, x);
  if (n == 1 || density == 0.0) return density;
  return dn * density * std::exp((dn - 1.0) * log_cdf(law, x));
}

double max_quantile(const LoadLaw& law, std::int64_t n, double alpha) {
  require_n(n);
  if (!(alpha >= 0.0 && alpha <= 1.0)) {
    throw engine::InputError(fmt::format("maximum quantile level {} outside [0,1]", alpha));
  }
  if (alpha == 0.0) return dist::quantile(law, 0.0);
  if (alpha == 1.0) return dist::quantile(law, 1.0);
  // F(x) = alpha^{1/n} (Mehrotra §3), with the tail 1 - alpha^{1/n} formed
  // without cancellation. Long double keeps the rounding of ln(alpha)/n, which
  // |ln alpha| would amplify for small n and tiny alpha, below 1/4 ulp.
  const long double log_root =
      std::log(static_cast<long double>(alpha)) / static_cast<long double>(n);
  const double tail = static_cast<double>(-std::expm1(log_root));  // 1 - alpha^{1/n}
  const double x = tail < 0.5 ? dist::quantile_upper(law, tail)
                              : dist::quantile(law, static_cast<double>(std::exp(log_root)));
  if (dist::is_continuous(law)) return x;
  // Integer laws: the smallest k with F(k)^n >= alpha, by the same evaluation
  // of F^n as max_cdf; Boost's root is only the starting guess (it can be off
  // by one after rounding, and by far more deep in the tails).
  return first_integer([&](double k) { return max_cdf(law, n, k) >= alpha; }, x,
                       dist::support_min(law), dist::support_max(law));
}

MaxMoments max_moments(const LoadLaw& law, std::int64_t n) {
  require_n(n);
  const double dn = as_double(n);
  if (const auto* e = std::get_if<dist::Exponential>(&law)) {
    // DESIGN §6: E[max of n Exp(mean m)] = m H_n; Var = m^2 sum_{k<=n} 1/k^2
    // (Rényi: the spacings of exponential order statistics are independent
    // Exp(mean m/k)).
    return MaxMoments{e->mean * harmonic(n), e->mean * e->mean * harmonic2(n)};
  }
  if (const auto* u = std::get_if<dist::Uniform>(&law)) {
    // (Z - a)/(b - a) ~ Beta(n, 1): mean n/(n+1), variance n/((n+1)^2 (n+2)).
    const double w = u->b - u->a;
    const double ratio = dn / (dn + 1.0);
    return MaxMoments{u->a + w * ratio, w * w * ratio / ((dn + 1.0) * (dn + 2.0))};
  }
  return general_moments(law, n);
}

MaxMoments max_moments_numeric(const LoadLaw& law, std::int64_t n) {
  require_n(n);
  return general_moments(law, n);
}

}  // namespace lbmc::analytic
