// Maximum load under random assignment (DESIGN §6; Franklin et al. 1994 §2).
//
// The lattice method (saddle-point tilt + exact trapezoidal inversion on the
// unit circle) and the processor-by-processor dynamic program are described
// in the header. Everything that adds terms of size N ln N (the prefactor
// N!/P^N t^{-N} e_k(t)^P) is done in long double; the inversion sum is in
// double, with psi^P = exp(P log1p(z)) and z formed from sin^2 and sin so
// that it vanishes with theta without cancellation. The lattice's complex
// terms are counted against a budget per reference (LatticeBudget); two
// processors beyond N = 2048 use the binomial closed forms at the end of
// the file instead.
// The long double logarithms, exponentials and log-factorials are ext::
// (extended_math.hpp), not logl / expl / lgammal: those end in x87
// instructions whose last bit depends on the processor's vendor, and the
// moments' cancellations showed that bit in the printed digits.
#include "lbmc/analytic/balls_into_bins.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/special_functions/polygamma.hpp>
#include <fmt/format.h>

#include "lbmc/analytic/extended_math.hpp"
#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/analytic/reference_unavailable.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"

namespace lbmc::analytic {
namespace {

constexpr long double kPiL = 3.141592653589793238462643383279502884L;
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
// Two processors: the lattice up to this N (at most ~1 s for the moments),
// the binomial closed forms beyond.
constexpr std::int64_t kTwoBinLatticeMaxN = 2048;
// Two processors, E ceil(M/L): the residue method when 16 L <= sd(X).
constexpr double kResidueRatio = 16.0;
// Most inner steps the dynamic program may take.
constexpr double kMaxDpWork = 1e10;

double as_double(std::int64_t n) { return static_cast<double>(n); }
long double as_ld(std::int64_t n) { return static_cast<long double>(n); }

void require_np(std::int64_t N, std::int64_t P, std::int64_t min_n = 0) {
  if (N < min_n) throw engine::InputError(fmt::format("random assignment: N = {} must be >= {}", N, min_n));
  if (P < 1) throw engine::InputError(fmt::format("random assignment: P = {} must be >= 1", P));
}

// ceil(N/P) for N >= 0, P >= 1.
std::int64_t ceil_div(std::int64_t N, std::int64_t P) { return N / P + (N % P != 0 ? 1 : 0); }

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

// The complex terms the lattice inversion may still take, shared by the cdf
// values of one reference.
struct LatticeBudget {
  double total;
  double left = total;
};

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
  // Bernstein: P(|S - N| >= x) <= 2 exp(-x^2 / (2 (V + b x / 3))), |Y - N/P| <= b.
  const long double lambda = as_ld(N) / as_ld(P);
  const double b = static_cast<double>(std::max(as_ld(y.hi) - lambda, lambda - as_ld(y.lo)));
  const double V = dp * static_cast<double>(y.var);
  const double peak = std::min(1.0, 1.0 / std::sqrt(2.0 * static_cast<double>(kPiL) * std::max(V, 1e-300)));
  const double c = std::log(2.0 / (kAlias * peak));
  const double q = 2.0 * c * b / 3.0;
  const double bern = std::ceil((q + std::sqrt(q * q + 8.0 * c * V)) / 2.0) + 1.0;
  const double span = as_double(P) * as_double(y.hi - y.lo) + 1.0;  // > every |S - N| difference
  const double L = std::max(1.0, std::min(span, bern));
  const double work = L / 2.0 * as_double(static_cast<std::int64_t>(width));
  if (work > budget.left) {
    throw ReferenceUnavailable(fmt::format(
        "maximum load of N = {} tasks on P = {} processors: the lattice inversion would exceed its budget of "
        "{:.3g} terms",
        N, P, budget.total));
  }
  budget.left -= work;
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
  long double sum = 1.0L;  // l = 0
  const std::int64_t half = (n_points - 1) / 2;
  // The terms on the OpenMP threads, a chunk at a time, added in order: the
  // bits of one loop.
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

// The work of one lattice evaluation for a k above every load (no
// truncation), from the normal approximation of the Poisson(N/P) terms: the
// least the moments of the maximum need several times over. Used to refuse
// at once what the budget would refuse after the first tilt.
double untruncated_work(std::int64_t N, std::int64_t P) {
  const double lambda = as_double(N) / as_double(P);
  const double half_width = std::sqrt(2.0 * static_cast<double>(kDrop) * lambda);
  const double width = 2.0 * half_width + 1.0;
  const double V = as_double(P) * lambda;
  const double c = std::log(2.0 / (kAlias * std::min(1.0, 1.0 / std::sqrt(2.0 * static_cast<double>(kPiL) * V))));
  const double q = 2.0 * c * half_width / 3.0;
  const double bern = (q + std::sqrt(q * q + 8.0 * c * V)) / 2.0 + 1.0;
  const double span = as_double(P) * (width - 1.0) + 1.0;
  return std::max(1.0, std::min(span, bern)) / 2.0 * width;
}

double cdf_with(std::int64_t N, std::int64_t P, std::int64_t k, LatticeBudget& budget) {
  if (k >= N) return 1.0;  // also N = 0
  if (k < 0 || k * P < N) return 0.0;
  if (P == 2 && N > kTwoBinLatticeMaxN) return cdf(TwoBinMax{N}, k);
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

}  // namespace

MultinomialMax::MultinomialMax(std::int64_t N, std::int64_t P) : tasks_(N), processors_(P) { require_np(N, P); }

double cdf(const MultinomialMax& m, std::int64_t k) {
  LatticeBudget budget{kMaxCdfWork};
  return cdf_with(m.tasks(), m.processors(), k, budget);
}

double cdf_dynamic_program(const MultinomialMax& m, std::int64_t k) {
  const std::int64_t N = m.tasks();
  const std::int64_t P = m.processors();
  if (k >= N) return 1.0;
  if (k < 0 || k * P < N) return 0.0;
  if (as_double(P) * as_double(N) * as_double(k + 1) > kMaxDpWork || N > 10000) {
    throw engine::InputError(fmt::format(
        "multinomial max cdf (dynamic program): N = {}, P = {}, k = {} is too large", N, P, k));
  }
  // q[r] = P(the processors so far each hold <= k, and r tasks are left).
  std::vector<long double> q(static_cast<std::size_t>(N) + 1, 0.0L), next(q.size());
  q[static_cast<std::size_t>(N)] = 1.0L;
  std::vector<long double> row(static_cast<std::size_t>(k) + 1);
  std::int64_t r_lo = N, r_hi = N;
  for (std::int64_t done = 0; done < P; ++done) {
    const std::int64_t left = P - done;  // processors not yet filled, this one included
    std::fill(next.begin(), next.end(), 0.0L);
    if (left == 1) {
      // the last processor takes every remaining task
      long double s = 0.0L;
      for (std::int64_t r = r_lo; r <= std::min(r_hi, k); ++r) s += q[static_cast<std::size_t>(r)];
      return static_cast<double>(s);
    }
    const long double prob = 1.0L / as_ld(left);
    const long double ratio = prob / (1.0L - prob);
    const long double log_keep = ext::log1p(-prob);
    // after this processor, the remaining left-1 processors must absorb the rest
    const std::int64_t cap = (left - 1) * k;
    std::int64_t new_lo = N, new_hi = 0;
    for (std::int64_t r = r_lo; r <= r_hi; ++r) {
      const long double qr = q[static_cast<std::size_t>(r)];
      if (qr == 0.0L) continue;
      // Binomial(r, prob) pmf at j = 0..min(k, r), by the ratio recurrence
      long double b = ext::exp(as_ld(r) * log_keep);
      const std::int64_t jmax = std::min(k, r);
      for (std::int64_t j = 0; j <= jmax; ++j) {
        if (j > 0) b *= as_ld(r - j + 1) / as_ld(j) * ratio;
        const std::int64_t rest = r - j;
        if (rest > cap) continue;
        next[static_cast<std::size_t>(rest)] += qr * b;
        new_lo = std::min(new_lo, rest);
        new_hi = std::max(new_hi, rest);
      }
    }
    if (new_lo > new_hi) return 0.0;
    q.swap(next);
    r_lo = new_lo;
    r_hi = new_hi;
  }
  return static_cast<double>(q[0]);  // not reached: left == 1 returns
}

namespace {

// P(M > k) <= P · P(Bin(N, 1/P) > k) (union bound); also >= u - u^2/2.
double union_bound(std::int64_t N, std::int64_t P, std::int64_t k) {
  if (k >= N) return 0.0;
  if (P == 1) return 1.0;
  const boost::math::binomial_distribution<double, engine::MathPolicy> bin(as_double(N), 1.0 / as_double(P));
  return std::min(1.0, as_double(P) * boost::math::cdf(boost::math::complement(bin, as_double(k))));
}

// P(M > k), taken from the union bound where that is below 1e-8.
double tail(std::int64_t N, std::int64_t P, std::int64_t k, LatticeBudget& budget) {
  const double u = union_bound(N, P, k);
  if (u < 1e-8) return u;
  return std::clamp(1.0 - cdf_with(N, P, k, budget), 0.0, u);
}

// A reference that needs several lattice evaluations: its budget, refused at
// once where a single evaluation would already exceed it twice over.
LatticeBudget reference_budget(std::int64_t N, std::int64_t P) {
  if (P >= 3 && untruncated_work(N, P) > 2.0 * kMaxReferenceWork) {
    throw ReferenceUnavailable(fmt::format(
        "maximum load of N = {} tasks on P = {} processors: the lattice inversion would need ~{:.2g} terms per "
        "cdf value (budget {:.3g})",
        N, P, untruncated_work(N, P), kMaxReferenceWork));
  }
  return LatticeBudget{kMaxReferenceWork};
}

std::int64_t quantile_with(std::int64_t N, std::int64_t P, double alpha, LatticeBudget& budget) {
  std::int64_t bad = ceil_div(N, P) - 1;  // cdf(bad) = 0 < alpha unless alpha = 0
  std::int64_t good = N;                 // cdf(N) = 1 >= alpha
  if (alpha == 0.0) return bad + 1;
  while (good - bad > 1) {
    const std::int64_t mid = bad + (good - bad) / 2;
    (cdf_with(N, P, mid, budget) >= alpha ? good : bad) = mid;
  }
  return good;
}

}  // namespace

std::pair<std::int64_t, std::int64_t> support(const MultinomialMax& m) {
  return {ceil_div(m.tasks(), m.processors()), m.tasks()};
}

std::int64_t quantile(const MultinomialMax& m, double alpha) {
  if (!(alpha >= 0.0 && alpha <= 1.0)) {
    throw engine::InputError(fmt::format("maximum load quantile level {} outside [0,1]", alpha));
  }
  LatticeBudget budget = reference_budget(m.tasks(), m.processors());
  return quantile_with(m.tasks(), m.processors(), alpha, budget);
}

MaxMoments moments(const MultinomialMax& m) {
  const std::int64_t N = m.tasks();
  const std::int64_t P = m.processors();
  if (N == 0) return MaxMoments{0.0, 0.0};
  if (P == 2 && N > kTwoBinLatticeMaxN) return moments(TwoBinMax{N});
  LatticeBudget budget = reference_budget(N, P);
  const std::int64_t c = quantile_with(N, P, 0.5, budget);
  const std::int64_t lowest = support(m).first;
  const double dc = as_double(c);
  // E M - c and E (M - c)^2, summed in long double from the median outwards.
  long double first = 0.0L, second = 0.0L;
  for (std::int64_t k = c; k < N; ++k) {
    const double t = tail(N, P, k, budget);
    first += t;
    second += (2.0L * as_ld(k - c) + 1.0L) * t;
    if ((2.0 * as_double(k - c) + 1.0) * t < 1e-18 * std::max(1.0, dc) && t < 1e-8) break;
  }
  for (std::int64_t k = c - 1; k >= lowest; --k) {
    const double f = cdf_with(N, P, k, budget);
    first -= f;
    second += (2.0L * as_ld(c - k) - 1.0L) * f;
    if ((2.0 * as_double(c - k) + 1.0) * f < 1e-18 * std::max(1.0, dc)) break;
  }
  const double mean = dc + static_cast<double>(first);
  return MaxMoments{mean, static_cast<double>(std::max(0.0L, second - first * first))};
}

double ceil_mean(const MultinomialMax& m, std::int64_t L) {
  const std::int64_t N = m.tasks();
  const std::int64_t P = m.processors();
  if (L < 1) throw engine::InputError(fmt::format("E ceil(M/L): L = {} must be >= 1", L));
  if (P == 2 && N > kTwoBinLatticeMaxN) return ceil_mean(TwoBinMax{N}, L);
  LatticeBudget budget = reference_budget(N, P);
  const double dL = as_double(L);
  // P(M > jL) = 1 exactly while jL P < N (the cdf is 0 there): counted.
  double j = as_double(ceil_div(ceil_div(N, P), L));
  double sum = j;
  for (;; j += 1.0) {
    const double k = j * dL;
    const double t = 1.0 - cdf_with(N, P, static_cast<std::int64_t>(k), budget);
    sum += t;
    if (t < 1e-18 * sum || k > as_double(N)) break;
  }
  return sum;
}

PoissonModel::PoissonModel(double lambda, std::int64_t P) : lambda_(lambda), processors_(P) {
  if (!(lambda > 0.0) || !std::isfinite(lambda)) {
    throw engine::InputError(fmt::format("Poisson model: lambda = {} must be > 0", lambda));
  }
  require_np(1, P);
}

MaxOfIid max_load(const PoissonModel& model) { return MaxOfIid{dist::Poisson{model.lambda()}, model.processors()}; }

double efficiency(const PoissonModel& model) {
  // Franklin §2: efficiency = lambda / g-bar, g-bar = E[max of P Poisson(lambda)].
  return model.lambda() / mean(max_load(model));
}

double efficiency(const MultinomialMax& m) {
  require_np(m.tasks(), m.processors(), 1);
  return (as_double(m.tasks()) / as_double(m.processors())) / mean(m);
}

namespace {
std::int64_t groups_of(std::int64_t P, std::int64_t L) {
  if (L < 1 || P % L != 0) {
    throw engine::InputError(fmt::format("grouping: L = {} must be >= 1 and divide P = {}", L, P));
  }
  return P / L;
}
}  // namespace

double efficiency(const PoissonModel& model, const Grouping& grouping) {
  const std::int64_t L = grouping.group_size;
  const std::int64_t G = groups_of(model.processors(), L);
  const double lambda = model.lambda();
  const double dl = as_double(L);
  // a group's load is Poisson(L lambda) (Franklin §2: "random Poisson variables add");
  // with L = 1, ceil(Z/L) = Z: both finishing rules are the ungrouped model
  if (!grouping.unit_jobs || L == 1) return efficiency(PoissonModel{dl * lambda, G});
  // E ceil(Z/L) = sum_{m>=0} P(Z > mL), Z = max of G Poisson(L lambda)
  return lambda / ceil_mean(MaxOfIid{dist::Poisson{dl * lambda}, G}, L);
}

double efficiency(const MultinomialMax& m, const Grouping& grouping) {
  const std::int64_t N = m.tasks();
  const std::int64_t P = m.processors();
  const std::int64_t L = grouping.group_size;
  require_np(N, P, 1);
  const std::int64_t G = groups_of(P, L);
  if (!grouping.unit_jobs || L == 1) return efficiency(MultinomialMax{N, G});
  // E ceil(M_G / L) = sum_{m>=0} P(M_G > mL)
  return (as_double(N) / as_double(P)) / ceil_mean(MultinomialMax{N, G}, L);
}

std::int64_t largest_P_for_efficiency(double lambda, double target) {
  if (!(lambda > 0.0) || !std::isfinite(lambda)) {
    throw engine::InputError(fmt::format("largest P: lambda = {} must be > 0", lambda));
  }
  if (!(target > 0.0 && target <= 1.0)) {
    throw engine::InputError(fmt::format("largest P: target efficiency {} outside (0,1]", target));
  }
  // efficiency(1) = 1 >= target; bracket [good, bad) by doubling, then bisect
  constexpr std::int64_t kCap = std::int64_t{1} << 62;
  if (efficiency(PoissonModel{lambda, kCap}) >= target) {
    throw ReferenceUnavailable(fmt::format(
        "the efficiency at lambda = {} stays >= {} for every P up to 2^62, the largest P computed", lambda, target));
  }
  std::int64_t good = 1, bad = 2;
  while (efficiency(PoissonModel{lambda, bad}) >= target) {
    good = bad;
    bad *= 2;
  }
  while (bad - good > 1) {
    const std::int64_t mid = good + (bad - good) / 2;
    (efficiency(PoissonModel{lambda, mid}) >= target ? good : bad) = mid;
  }
  return good;
}

double franklin_P_approximation(double lambda, double target) {
  if (!(lambda > 0.0)) throw engine::InputError(fmt::format("Franklin P: lambda = {} must be > 0", lambda));
  if (!(target > 0.0 && target < 1.0)) {
    throw engine::InputError(fmt::format("Franklin P: efficiency {} must be in (0,1)", target));
  }
  // Franklin §2 at completion time lambda/e: z = sqrt(lambda)(1/e - 1),
  // P ≈ e^{z^2/2} z sqrt(2 pi) / ln 2 (= e^{lambda/2} sqrt(2 pi lambda) / ln 2 at e = 1/2).
  const double excess = 1.0 / target - 1.0;
  const double z_squared = lambda * excess * excess;
  return std::exp(z_squared / 2.0) * std::sqrt(2.0 * static_cast<double>(kPiL) * z_squared) / std::log(2.0);
}

// ---------------------------------------------------------------------------
// Two processors: M = max(X, N - X) = N/2 + |X - N/2|, X ~ Binomial(N, 1/2).

namespace {

constexpr long double kSqrtPiL = 1.772453850905516027298167483341145183L;

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

TwoBinMax::TwoBinMax(std::int64_t N) : tasks_(N) { require_np(N, 2); }

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
  double j = as_double(ceil_div(N, 2 * L));
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
