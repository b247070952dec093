// The tilt, the lattice inversion and the prefactor of
// multinomial_lattice.hpp, whose note states the method and its cost.
#include "multinomial_lattice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include <fmt/format.h>

#include "lbmc/analytic/extended_math.hpp"
#include "lbmc/analytic/reference_unavailable.hpp"
#include "numbers.hpp"

namespace lbmc::analytic::detail {
namespace {

constexpr long double kPiL = std::numbers::pi_v<long double>;
// Pmf terms of the tilted law below e^{-kDrop} of its largest are dropped.
constexpr long double kDrop = 80.0L;
// Aliased mass allowed in the lattice inversion, relative to P(S = N).
constexpr double kAlias = 1e-22;
// Complex terms (a sine and a cosine each, ~22 ns) the lattice inversion may
// take: for one cdf value, and for all the cdf values of one reference
// (moments, quantile, E ceil(M/L)): ~1.5 s. The references behind results/
// take at most 1.9e7 (N = 3000, P = 30), the tests at most 4.5e6.
constexpr double kMaxCdfWork = 0x1p26;
constexpr double kMaxReferenceWork = 0x1p26;


// The tilted, truncated Poisson law P(Y = j) ∝ e^{js}/j! on j in [lo, hi]
// within {0..k}, the terms below e^{-kDrop} of the mode dropped.
struct Tilted {
  long double s = 0.0L;
  std::int64_t lo = 0, hi = 0;
  std::vector<long double> w;   // e^{js}/j! / e^{ref}, j = lo..hi
  long double log_total = 0.0L; // ln sum_j e^{js}/j!
  long double mean = 0.0L, var = 0.0L;
};

Tilted make_tilted(long double s, std::int64_t k) {
  Tilted y;
  y.s = s;
  const long double t = ext::exp(s);
  const std::int64_t mode = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(t)), 0, k);
  const auto lw = [&](std::int64_t j) { return as_ld(j) * s - ext::log_factorial(j); };
  const long double ref = lw(mode);
  y.lo = mode;
  while (y.lo > 0 && lw(y.lo - 1) - ref > -kDrop) --y.lo;
  y.hi = mode;
  while (y.hi < k && lw(y.hi + 1) - ref > -kDrop) ++y.hi;
  y.w.resize(static_cast<std::size_t>(y.hi - y.lo + 1));
  long double total = 0.0L, first = 0.0L;
  for (std::int64_t j = y.lo; j <= y.hi; ++j) {
    const long double v = ext::exp(lw(j) - ref);
    y.w[static_cast<std::size_t>(j - y.lo)] = v;
    total += v;
    first += v * as_ld(j);
  }
  y.mean = first / total;
  long double second = 0.0L;
  for (std::int64_t j = y.lo; j <= y.hi; ++j) {
    const long double d = as_ld(j) - y.mean;
    second += y.w[static_cast<std::size_t>(j - y.lo)] * d * d;
  }
  y.var = second / total;
  y.log_total = ref + ext::log(total);
  return y;
}

// The saddle point: s = ln t with E Y = N/P (lambda < k here). Newton in s,
// kept inside a bracket [lo, hi] of mean below / above lambda; the exact
// identity holds for any s, so the tolerance only affects conditioning.
Tilted solve_tilt(std::int64_t N, std::int64_t P, std::int64_t k) {
  const long double lambda = as_ld(N) / as_ld(P);
  long double lo = ext::log(lambda);  // truncation lowers the mean: E Y <= lambda
  long double hi = std::numeric_limits<long double>::infinity();
  Tilted y = make_tilted(lo, k);
  for (int it = 0; it < 200; ++it) {
    const long double gap = lambda - y.mean;
    if (std::abs(gap) <= 1e-17L * lambda || !(y.var > 0.0L)) break;
    (gap > 0.0L ? lo : hi) = y.s;
    long double next = y.s + gap / y.var;
    if (!(next > lo && next < hi)) next = std::isinf(hi) ? lo + 1.0L : (lo + hi) / 2.0L;
    if (next == y.s) break;
    y = make_tilted(next, k);
  }
  return y;
}

// Bernstein: P(|S - N| >= x) <= 2 exp(-x^2 / (2 (V + b x / 3))) for a sum S
// of variance V whose terms stay within b of their mean. The x at which the
// bound falls to kAlias times the peak mass of S, ~1/sqrt(2 pi V).
double bernstein_half_width(double V, double b) {
  const double peak = std::min(1.0, 1.0 / std::sqrt(2.0 * static_cast<double>(kPiL) * std::max(V, 1e-300)));
  const double c = std::log(2.0 / (kAlias * peak));
  const double q = 2.0 * c * b / 3.0;
  return (q + std::sqrt(q * q + 8.0 * c * V)) / 2.0;
}

// The number L of points on the circle: the full span of S (no aliasing at
// all), or fewer where the Bernstein bound leaves less than kAlias of
// P(S = N) aliased (|Y - N/P| <= b).
double lattice_points(const Tilted& y, std::int64_t N, std::int64_t P) {
  const long double lambda = as_ld(N) / as_ld(P);
  const double b = static_cast<double>(std::max(as_ld(y.hi) - lambda, lambda - as_ld(y.lo)));
  const double V = as_double(P) * static_cast<double>(y.var);
  const double bern = std::ceil(bernstein_half_width(V, b)) + 1.0;
  const double span = as_double(P) * as_double(y.hi - y.lo) + 1.0;  // > every |S - N| difference
  return std::max(1.0, std::min(span, bern));
}

// Takes `work` terms from the budget, or throws ReferenceUnavailable.
void charge(LatticeBudget& budget, double work, std::int64_t N, std::int64_t P) {
  if (work > budget.left) {
    throw ReferenceUnavailable(fmt::format(
        "maximum load of N = {} tasks on P = {} processors: the lattice inversion would exceed its budget of "
        "{:.3g} terms",
        N, P, budget.total));
  }
  budget.left -= work;
}

// (1/L) sum_{l<L} f(2 pi l/L) for an f with f(0) = 1 and f(-theta) =
// conj f(theta), term(l) = Re f(2 pi l/L). The terms on the OpenMP threads, a
// chunk at a time, added in order: the bits of one loop.
template <class Term>
long double trapezoid_on_circle(std::int64_t n_points, const Term& term) {
  long double sum = 1.0L;  // l = 0
  const std::int64_t half = (n_points - 1) / 2;
  constexpr std::int64_t kChunk = std::int64_t{1} << 14;
  std::vector<double> terms;
  for (std::int64_t first = 1; first <= half; first += kChunk) {
    const std::int64_t count = std::min(kChunk, half - first + 1);
    terms.resize(static_cast<std::size_t>(count));
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) terms[static_cast<std::size_t>(i)] = term(first + i);
    for (const double t : terms) sum += 2.0L * t;
  }
  if (n_points % 2 == 0) sum += term(n_points / 2);
  return sum / as_ld(n_points);
}

// P(Y_1 + ... + Y_P = N) for iid Y of the tilted law, by the trapezoidal
// rule on the unit circle: exactly sum_m P(S = N + mL).
long double lattice_point_mass(const Tilted& y, std::int64_t N, std::int64_t P, LatticeBudget& budget) {
  const double dp = as_double(P);
  const std::size_t width = y.w.size();
  long double total = 0.0L;
  for (const long double v : y.w) total += v;
  std::vector<double> p(width), d(width);
  for (std::size_t i = 0; i < width; ++i) {
    const std::int64_t j = y.lo + static_cast<std::int64_t>(i);
    p[i] = static_cast<double>(y.w[i] / total);
    d[i] = as_double(j * P - N) / dp;  // j - N/P, rounded once
  }
  const double L = lattice_points(y, N, P);
  charge(budget, L / 2.0 * as_double(static_cast<std::int64_t>(width)), N, P);
  const auto n_points = static_cast<std::int64_t>(L);
  // f(theta) = psi(theta)^P, psi = E e^{i (Y - N/P) theta}; f(-theta) = conj f(theta).
  const auto term = [&](std::int64_t l) {
    const double theta = static_cast<double>(2.0L * kPiL * as_ld(l) / as_ld(n_points));
    double re = 0.0, im = 0.0;  // z = psi - 1 = sum p_j (e^{i x_j} - 1)
    for (std::size_t i = 0; i < width; ++i) {
      const double x = d[i] * theta;
      const double sh = std::sin(0.5 * x), ch = std::cos(0.5 * x);
      re -= p[i] * 2.0 * sh * sh;
      im += p[i] * 2.0 * sh * ch;
    }
    // log(1 + z) = 0.5 log1p(2 re + re^2 + im^2) + i atan2(im, 1 + re)
    const double log_mod = 0.5 * std::log1p(2.0 * re + re * re + im * im);
    const double e = dp * log_mod;
    if (e < -745.0) return 0.0;
    return std::exp(e) * std::cos(dp * std::atan2(im, 1.0 + re));
  };
  return trapezoid_on_circle(n_points, term);
}

// The work of one lattice evaluation for a k above every load (no
// truncation), from the normal approximation of the Poisson(N/P) terms: the
// least the moments of the maximum need several times over. Used to refuse
// at once what the budget would refuse after the first tilt.
double untruncated_work(std::int64_t N, std::int64_t P) {
  const double lambda = as_double(N) / as_double(P);
  const double half_width = std::sqrt(2.0 * static_cast<double>(kDrop) * lambda);
  const double width = 2.0 * half_width + 1.0;
  const double bern = bernstein_half_width(as_double(P) * lambda, half_width) + 1.0;
  const double span = as_double(P) * (width - 1.0) + 1.0;
  return std::max(1.0, std::min(span, bern)) / 2.0 * width;
}

}  // namespace

LatticeBudget cdf_budget() { return LatticeBudget{kMaxCdfWork}; }

LatticeBudget reference_budget(std::int64_t N, std::int64_t P) {
  if (P >= 3 && untruncated_work(N, P) > 2.0 * kMaxReferenceWork) {
    throw ReferenceUnavailable(fmt::format(
        "maximum load of N = {} tasks on P = {} processors: the lattice inversion would need ~{:.2g} terms per "
        "cdf value (budget {:.3g})",
        N, P, untruncated_work(N, P), kMaxReferenceWork));
  }
  return LatticeBudget{kMaxReferenceWork};
}

double lattice_cdf(std::int64_t N, std::int64_t P, std::int64_t k, LatticeBudget& budget) {
  const long double log_prefix = ext::log_factorial(N) - as_ld(N) * ext::log(as_ld(P));
  if (k * P == N) {
    // every processor holds exactly k: N!/(k!^P P^N)
    return static_cast<double>(ext::exp(log_prefix - as_ld(P) * ext::log_factorial(k)));
  }
  const Tilted y = solve_tilt(N, P, k);
  const long double mass = lattice_point_mass(y, N, P, budget);
  if (!(mass > 0.0L)) return 0.0;
  // [x^N] e_k(x)^P = e^{-Ns} (sum_j e^{js}/j!)^P P(S = N)  (tilt by t = e^s).
  // ln N! - N ln P - N s is regrouped as N (ln(N/P) - s) - N + (Stirling
  // remainder) so that no term of size N ln N is rounded (that cost ~1e-12
  // relative at N = 1e6); below N = 1000 lgamma is used directly.
  long double log_cdf = 0.0L;
  const long double dN = as_ld(N);
  if (N >= 1000) {
    const long double rest = 0.5L * ext::log(2.0L * kPiL * dN) + 1.0L / (12.0L * dN) -
                             1.0L / (360.0L * dN * dN * dN) + 1.0L / (1260.0L * dN * dN * dN * dN * dN);
    log_cdf = dN * (ext::log(dN / as_ld(P)) - y.s) + (as_ld(P) * y.log_total - dN) + rest + ext::log(mass);
  } else {
    log_cdf = log_prefix - dN * y.s + as_ld(P) * y.log_total + ext::log(mass);
  }
  return static_cast<double>(std::min(1.0L, ext::exp(log_cdf)));
}

}  // namespace lbmc::analytic::detail
