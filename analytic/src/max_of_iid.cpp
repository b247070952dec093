// Exact law and moments of the maximum of n iid loads (DESIGN §6).
//
// Every evaluation goes through log F(x) = log1p(-P(X > x)) in the upper
// half of the law, so F(x)^n = exp(n log F) and 1 - F(x)^n = -expm1(n log F)
// lose nothing to cancellation; in the lower half F^n = pow(F, n) directly.
// Moment quadratures integrate in t = (x - c)/s away from the median c of Z
// on each side; see integrate_side for the choice of rule. Integer laws are
// summed term by term while that takes at most kDirectTerms terms, and with a
// stride beyond (strided_moments; the header states the method and its error).
#include "lbmc/analytic/max_of_iid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <boost/math/policies/error_handling.hpp>
#include <boost/math/quadrature/exp_sinh.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <fmt/format.h>

#include "lbmc/analytic/harmonic.hpp"
#include "lbmc/analytic/reference_unavailable.hpp"
#include "lbmc/dist/integer_search.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"
#include "numbers.hpp"

namespace lbmc::analytic {
namespace {

namespace quad = boost::math::quadrature;
using dist::LoadLaw;

// Integer laws: the most terms the term-by-term sums take (3 Boost calls each,
// 2-10 us per term: ~0.1 s at most); wider laws are summed with a stride.
constexpr double kDirectTerms = 16384;
// Strided sums: the stride is the largest power of two at most
// IQR(Z)/kStrideDivisor, about a fifth of the Gumbel scale beta = IQR/1.57.
constexpr double kStrideDivisor = 8.0;
// Strided sums: nodes where 1 - F^n (right of the median) or F^n (left of
// it) is below this end the sums (what is dropped is < 1e-18 of E (Z-c)^2).
constexpr double kStrideTail = 1e-20;
// Strided sums: the sums at strides h and 2h must agree to this, relative to
// sd Z (mean) and E (Z - c)^2 (second moment); see strided_moments.
constexpr double kStrideCheck = 1e-9;
// Strided sums: the most nodes one sum may take (if the check kept halving
// the stride); never reached for binomial and Poisson laws.
constexpr double kMaxStrideNodes = 1e6;


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
MaxMoments continuous_moments(const MaxOfIid& d) {
  const double c = quantile(d, 0.5);
  double s = quantile(d, 0.75) - quantile(d, 0.25);
  if (!(s > 0.0) || !std::isfinite(s)) s = 1.0;
  const auto [lo, hi] = support(d);
  const SideIntegrals left = integrate_side([&](double t) { return cdf(d, c - s * t); }, (c - lo) / s);
  const SideIntegrals right =
      integrate_side([&](double t) { return cdf(boost::math::complement(d, c + s * t)); }, (hi - c) / s);
  const double shift = s * (right.i0 - left.i0);            // E Z - c
  const double second = 2.0 * s * s * (right.i1 + left.i1);  // E (Z - c)^2
  return MaxMoments{c + shift, std::max(0.0, second - shift * shift)};
}

// Integer laws by sums over the support, P(Z = k) = F(k)^n - F(k-1)^n
// (DESIGN §6), from the smallest k with F(k)^n >= 1e-300 to the smallest k
// with P(Z > k) < 1e-300; mean and variance are centred (at the median, then
// at the mean) and normalised by the summed mass, in long double. The number
// of terms is the width of that range, ~75 sd(X) for Poisson and binomial
// laws; laws wider than kDirectTerms go to strided_moments.
struct IntegerMoments {
  MaxMoments moments;
  double stride = 1.0;  // the stride of the sums (1: every term)
};

IntegerMoments strided_moments(const MaxOfIid& d);

IntegerMoments discrete_moments(const MaxOfIid& d) {
  const LoadLaw& law = d.law();
  const double dn = as_double(d.n());
  const double c = quantile(d, 0.5);
  const double k_lo = quantile(d, kNegligible);
  // 1 - F^n <= n P(X > k), which places the guess at or beyond the answer.
  const double k_hi =
      dist::first_integer([&](double k) { return cdf(boost::math::complement(d, k)) < kNegligible; },
                          dist::quantile_upper(law, kNegligible / dn), c, support(d).second);
  if (!(k_hi - k_lo < kDirectTerms)) return strided_moments(d);
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
    const long double dev = static_cast<long double>(k_lo + static_cast<double>(i) - mean);
    second += dev * dev * mass[i];
  }
  return {MaxMoments{mean, static_cast<double>(second / total)}, 1.0};
}

// Wide integer laws: the cdf forms (H = F^n, c the median of Z)
//   E Z = c + sum_{k>=c} (1 - H(k)) - sum_{k<c} H(k),
//   E (Z-c)^2 = sum_{k>=c} (2(k-c)+1)(1 - H(k)) + sum_{k<c} (2(c-k)-1) H(k)
// summed over every h-th integer only (h a power of two), by the
// trapezoidal rule at the integer nodes c + ih:
//   E Z = c + 1/2 + h [1/2 - H(c) + sum_{i>=1} (1 - H(c+ih)) - sum_{i>=1} H(c-ih)],
//   E (Z-c)^2 = 1/2 + (h^2 - 1)/6
//               + h [1/2 - H(c) + sum_{i>=1} (2ih+1)(1 - H(c+ih)) + sum_{i>=1} (2ih-1) H(c-ih)].
// Why it holds: H(k) = G(k)^n at the integers for a cdf G that is entire in k
// (Poisson: G(x) = Q(x+1, lambda), the regularised upper incomplete gamma
// function; binomial: G(x) = I_{1-p}(M-x, x+1)), so Z = ceil(U) for the
// continuous U with cdf G^n. Each sum is a lattice sum of 1{x>=c} - H(x)
// (times 2(x-c)+1), smooth on both sides of the jump at c, so the
// Euler–Maclaurin derivative terms at c cancel between the two sides and
// only the jump terms remain, which give the constants 1/2 and (h^2-1)/6
// (exact for every h; with h = 1 both lines are the sums above, term for
// term). What is left is the Poisson-summation (aliasing) remainder of the
// smooth part, bounded by (h/pi) sum_{m>=1} |phi_U(2 pi m/h)|/m (and the
// like with phi_U' for the second moment), phi_U the characteristic function
// of U. For U near a Gumbel law of scale beta, |phi_U(t)| ~ sqrt(2 pi beta t)
// e^{-pi beta t/2}, so with h <= beta/5 (h <= IQR(Z)/8, IQR = 1.57 beta) the
// remainder is below 1e-20 sd Z; near a normal law it is far smaller. The
// stride is checked a posteriori: the sums at strides h and 2h (every other
// node, no extra evaluation) must agree to kStrideCheck; the remainder
// behaving like e^{-a/h}, that at h is then about the square of that at 2h;
// otherwise h is halved. Every H is F^n at an integer, evaluated as in the
// term-by-term sums (nothing non-integer is rounded).
IntegerMoments strided_moments(const MaxOfIid& d) {
  const double c = quantile(d, 0.5);
  const double iqr = quantile(d, 0.75) - quantile(d, 0.25);
  const auto [lo, hi] = support(d);
  double h = 1.0;
  while (2.0 * h <= iqr / kStrideDivisor) h *= 2.0;
  const long double hc = cdf(d, c);
  for (;;) {
    // sums over the nodes right and left of c: [0] every node (stride h),
    // [1] the nodes with even i (stride 2h)
    long double r0[2] = {0.0L, 0.0L}, r2[2] = {0.0L, 0.0L}, l0[2] = {0.0L, 0.0L}, l2[2] = {0.0L, 0.0L};
    double nodes = 0.0;
    const auto count_node = [&] {
      if (++nodes > kMaxStrideNodes) {
        throw ReferenceUnavailable(fmt::format(
            "exact moments of the maximum of {} x {}: the strided sums would need more than {:.0g} nodes", d.n(),
            dist::to_spec(d.law()), kMaxStrideNodes));
      }
    };
    for (double i = 1.0;; i += 1.0) {
      const double k = c + i * h;
      if (k > hi) break;
      const long double t = cdf(boost::math::complement(d, k));
      if (t < kStrideTail) break;
      count_node();
      const long double w = 2.0L * static_cast<long double>(i * h) + 1.0L;
      for (int s = 0; s < (std::fmod(i, 2.0) == 0.0 ? 2 : 1); ++s) {
        r0[s] += t;
        r2[s] += w * t;
      }
    }
    for (double i = 1.0;; i += 1.0) {
      const double k = c - i * h;
      if (k < lo) break;
      const long double t = cdf(d, k);
      if (t < kStrideTail) break;
      count_node();
      const long double w = 2.0L * static_cast<long double>(i * h) - 1.0L;
      for (int s = 0; s < (std::fmod(i, 2.0) == 0.0 ? 2 : 1); ++s) {
        l0[s] += t;
        l2[s] += w * t;
      }
    }
    long double shift[2], second[2];  // E Z - c and E (Z - c)^2 at strides h, 2h
    for (int s = 0; s < 2; ++s) {
      const long double step = static_cast<long double>(h) * (s == 0 ? 1.0L : 2.0L);
      shift[s] = 0.5L + step * (0.5L - hc + r0[s] - l0[s]);
      second[s] = 0.5L + (step * step - 1.0L) / 6.0L + step * (0.5L - hc + r2[s] + l2[s]);
    }
    const long double variance = second[0] - shift[0] * shift[0];
    const bool agree = std::abs(shift[0] - shift[1]) <= kStrideCheck * std::sqrt(std::max(variance, 0.0L)) &&
                       std::abs(second[0] - second[1]) <= kStrideCheck * second[0];
    if (h == 1.0 || agree) {
      return {MaxMoments{c + static_cast<double>(shift[0]), static_cast<double>(std::max(0.0L, variance))}, h};
    }
    h /= 2.0;
  }
}

// discrete_moments, with Boost's failures to evaluate the law's tails (its
// incomplete gamma series give up for Poisson means beyond ~1e10) reported
// as an unavailable reference.
IntegerMoments integer_moments(const MaxOfIid& d) {
  try {
    return discrete_moments(d);
  } catch (const boost::math::evaluation_error& e) {
    throw ReferenceUnavailable(fmt::format("exact moments of the maximum of {} x {}: the law's cdf cannot be "
                                           "evaluated in its tails ({})",
                                           d.n(), dist::to_spec(d.law()), e.what()));
  }
}

// Laws with finitely many values (an empirical sample of m values): each
// distinct value a_j with P(Z = a_j) = F_j^n - F_{j-1}^n, F_j the count of
// values <= a_j over m (exact), formed as pow_n_mass forms it.
MaxMoments atom_moments(const MaxOfIid& d) {
  const dist::Atoms a = dist::atoms(d.law());
  const double dn = as_double(d.n());
  const double c = quantile(d, 0.5);
  long double total = 0.0L;
  long double first = 0.0L;
  std::vector<double> mass(a.values.size());
  double below = 0.0;
  for (std::size_t j = 0; j < a.values.size(); ++j) {
    below += a.counts[j];
    mass[j] = pow_n_mass(below / a.total, (a.total - below) / a.total, a.counts[j] / a.total, dn);
    total += mass[j];
    first += static_cast<long double>(a.values[j] - c) * mass[j];
  }
  const double mean = c + static_cast<double>(first / total);
  long double second = 0.0L;
  for (std::size_t j = 0; j < a.values.size(); ++j) {
    const long double dev = static_cast<long double>(a.values[j] - mean);
    second += dev * dev * mass[j];
  }
  return MaxMoments{mean, static_cast<double>(second / total)};
}

MaxMoments general_moments(const MaxOfIid& d) {
  const LoadLaw& law = d.law();
  if (const auto* c = std::get_if<dist::Constant>(&law)) return MaxMoments{c->value, 0.0};
  if (std::holds_alternative<dist::Empirical>(law)) return atom_moments(d);
  if (!dist::is_continuous(law)) return integer_moments(d).moments;
  if (const auto* g = std::get_if<dist::Normal>(&law)) {
    // Z = mu + sigma Z* with Z* the maximum of standard normals (Mehrotra §3).
    const MaxMoments z = continuous_moments(MaxOfIid{dist::Normal{0.0, 1.0}, d.n()});
    return MaxMoments{g->mu + g->sigma * z.mean, g->sigma * g->sigma * z.variance};
  }
  return continuous_moments(d);
}

}  // namespace

MaxOfIid::MaxOfIid(dist::LoadLaw law, std::int64_t n) : law_(std::move(law)), n_(n) {
  if (n < 1) throw engine::InputError(fmt::format("maximum of n loads: n = {} must be >= 1", n));
}

double cdf(const MaxOfIid& d, double x) {
  const double f = dist::cdf(d.law(), x);
  return pow_n(f, f <= 0.5 ? 1.0 - f : dist::ccdf(d.law(), x), as_double(d.n()));
}

double cdf(const Complement<MaxOfIid>& c) {
  const LoadLaw& law = c.dist.law();
  const double f = dist::cdf(law, c.param);
  return one_minus_pow_n(f, f <= 0.5 ? 1.0 - f : dist::ccdf(law, c.param), as_double(c.dist.n()));
}

std::pair<double, double> support(const MaxOfIid& d) {
  return {dist::support_min(d.law()), dist::support_max(d.law())};
}

double pdf(const MaxOfIid& d, double x) {
  const LoadLaw& law = d.law();
  const std::int64_t n = d.n();
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

std::vector<double> mass_run(const MaxOfIid& d, double lo, double hi) {
  const LoadLaw& law = d.law();
  if (dist::is_continuous(law)) {
    throw engine::InputError(fmt::format("mass table of the maximum: {} is not an integer law", dist::to_spec(law)));
  }
  const double dn = as_double(d.n());
  const auto cells = static_cast<std::size_t>(hi - lo + 1.0);
  const auto stride = static_cast<std::size_t>(kMassRunAnchorStride);
  std::vector<double> mass(cells), below(cells), above(cells);  // P(X = k), F(k), P(X > k)
  for (std::size_t i = 0; i < cells; ++i) mass[i] = dist::pdf(law, lo + static_cast<double>(i));
  for (std::size_t first = 0; first < cells; first += stride) {
    const std::size_t last = std::min(first + stride, cells) - 1;
    below[first] = dist::cdf(law, lo + static_cast<double>(first));
    for (std::size_t i = first + 1; i <= last; ++i) below[i] = below[i - 1] + mass[i];
    above[last] = dist::ccdf(law, lo + static_cast<double>(last));
    for (std::size_t i = last; i > first; --i) above[i - 1] = above[i] + mass[i];
  }
  for (std::size_t i = 0; i < cells; ++i) mass[i] = pow_n_mass(std::min(below[i], 1.0), above[i], mass[i], dn);
  return mass;
}

double quantile(const MaxOfIid& d, double alpha) {
  const LoadLaw& law = d.law();
  const std::int64_t n = d.n();
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
  const auto root = [&] {
    return tail < 0.5 ? dist::quantile_upper(law, tail)
                      : dist::quantile(law, static_cast<double>(std::exp(log_root)));
  };
  if (dist::is_continuous(law)) return root();
  if (std::holds_alternative<dist::Empirical>(law)) {
    // The smallest value of the sample with F^n >= alpha.
    const dist::Atoms a = dist::atoms(law);
    const auto it = std::partition_point(a.values.begin(), a.values.end(),
                                         [&](double v) { return cdf(d, v) < alpha; });
    return it == a.values.end() ? a.values.back() : *it;
  }
  // Integer laws: the smallest k with F(k)^n >= alpha, by the same evaluation
  // of F^n as cdf; Boost's root is only the starting guess (it can be off
  // by one after rounding, and by far more deep in the tails). Where Boost's
  // discrete quantile gives up (its series limits, for Poisson means beyond
  // ~1e11) the search starts from the mean instead: O(log) more evaluations.
  double x = dist::mean(law);
  try {
    x = root();
  } catch (const boost::math::evaluation_error&) {
  }
  return dist::first_integer([&](double k) { return cdf(d, k) >= alpha; }, x, dist::support_min(law),
                             dist::support_max(law));
}

MaxMoments moments(const MaxOfIid& d) {
  const LoadLaw& law = d.law();
  const std::int64_t n = d.n();
  const double dn = as_double(n);
  if (const auto* e = std::get_if<dist::Exponential>(&law)) {
    // DESIGN §6: E[max of n Exp(mean m)] = m H_n; Var = m^2 sum_{k<=n} 1/k^2
    // (Rényi: the spacings of exponential order statistics are independent
    // Exp(mean m/k)).
    return MaxMoments{e->mean * harmonic(n), e->mean * e->mean * harmonic2(n)};
  }
  if (const auto* p = std::get_if<dist::Pareto>(&law)) {
    // Z = XM·V^(-1/ALPHA) with V ~ Beta(1, n): E Z^r = XM^r Γ(n+1)Γ(1-r/ALPHA)/Γ(n+1-r/ALPHA)
    // for r < ALPHA; the ratio Γ(n+1)/Γ(n+1-r/ALPHA) by Boost's tgamma_delta_ratio.
    dist::require_finite_variance(law, "the exact moments of its maximum need both");
    const auto raw = [&](double r) {
      return boost::math::tgamma(1.0 - r / p->alpha, engine::MathPolicy()) *
             boost::math::tgamma_delta_ratio(dn + 1.0, -r / p->alpha, engine::MathPolicy());
    };
    const double m1 = raw(1.0);
    return MaxMoments{p->xm * m1, p->xm * p->xm * (raw(2.0) - m1 * m1)};
  }
  if (const auto* u = std::get_if<dist::Uniform>(&law)) {
    // (Z - a)/(b - a) ~ Beta(n, 1): mean n/(n+1), variance n/((n+1)^2 (n+2)).
    const double w = u->b - u->a;
    const double ratio = dn / (dn + 1.0);
    return MaxMoments{u->a + w * ratio, w * w * ratio / ((dn + 1.0) * (dn + 2.0))};
  }
  return general_moments(d);
}

MaxMoments numeric_moments(const MaxOfIid& d) { return general_moments(d); }

double ceil_mean(const MaxOfIid& d, std::int64_t L) {
  const LoadLaw& law = d.law();
  if (L < 1) throw engine::InputError(fmt::format("E ceil(Z/L): L = {} must be >= 1", L));
  if (!dist::is_integer_valued(law) || dist::support_min(law) < 0.0) {
    throw engine::InputError(
        fmt::format("E ceil(Z/L): {} is not an integer law on 0, 1, 2, ...", dist::to_spec(law)));
  }
  const double dL = as_double(L);
  // Terms j with jL < k0 are 1 exactly: counted, not evaluated.
  const double k0 = quantile(d, kCertainLevel);
  double j = std::ceil(k0 / dL);
  // More than kDirectTerms terms left (they end near the max-quantile at
  // 1 - 2^-53): the law is wide, its moments are strided with a stride h, and
  // for L <= h, E ceil(Z/L) = (E Z - 1/2)/L + 1/2 to the same remainder (see
  // the header). Otherwise, or for L > h, the terms one by one.
  const double k_end = quantile(d, 1.0 - 0x1p-53);
  if ((k_end - k0) / dL > kDirectTerms) {
    const IntegerMoments m = integer_moments(d);
    if (dL <= m.stride) return (m.moments.mean - 0.5) / dL + 0.5;
  }
  double sum = j;
  for (;; j += 1.0) {
    const double t = cdf(boost::math::complement(d, j * dL));
    sum += t;
    if (t < 1e-18 * sum || t == 0.0) break;
  }
  return sum;
}

}  // namespace lbmc::analytic
