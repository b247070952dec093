// The maximum load of random assignment: the edges of its cdf, the dispatch
// to two_bin_max.hpp and to the lattice inversion (multinomial_lattice.cpp),
// and the quantile, moments and E ceil(M/L) as searches and sums over the cdf
// (multinomial_max.hpp states the methods).
#include "lbmc/analytic/multinomial_max.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/binomial.hpp>
#include <fmt/format.h>

#include "lbmc/analytic/two_bin_max.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"
#include "multinomial_lattice.hpp"
#include "random_assignment_checks.hpp"
#include "numbers.hpp"

namespace lbmc::analytic {
namespace {

// Two processors: the lattice up to this N (at most ~1 s for the moments),
// the binomial closed forms beyond.
constexpr std::int64_t kTwoBinLatticeMaxN = 2048;


// P(M <= k): the closed-form edges, two processors beyond the lattice's N,
// the lattice inversion for the rest.
double cdf_with(std::int64_t N, std::int64_t P, std::int64_t k, detail::LatticeBudget& budget) {
  if (k >= N) return 1.0;  // also N = 0
  if (k < 0 || k * P < N) return 0.0;
  if (P == 2 && N > kTwoBinLatticeMaxN) return cdf(TwoBinMax{N}, k);
  return detail::lattice_cdf(N, P, k, budget);
}

// P(M > k) <= P · P(Bin(N, 1/P) > k) (union bound); also >= u - u^2/2.
double union_bound(std::int64_t N, std::int64_t P, std::int64_t k) {
  if (k >= N) return 0.0;
  if (P == 1) return 1.0;
  const boost::math::binomial_distribution<double, engine::MathPolicy> bin(as_double(N), 1.0 / as_double(P));
  return std::min(1.0, as_double(P) * boost::math::cdf(boost::math::complement(bin, as_double(k))));
}

// P(M > k), taken from the union bound where that is below 1e-8.
double tail(std::int64_t N, std::int64_t P, std::int64_t k, detail::LatticeBudget& budget) {
  const double u = union_bound(N, P, k);
  if (u < 1e-8) return u;
  return std::clamp(1.0 - cdf_with(N, P, k, budget), 0.0, u);
}

std::int64_t quantile_with(std::int64_t N, std::int64_t P, double alpha, detail::LatticeBudget& budget) {
  std::int64_t bad = detail::ceil_div(N, P) - 1;  // cdf(bad) = 0 < alpha unless alpha = 0
  std::int64_t good = N;                 // cdf(N) = 1 >= alpha
  if (alpha == 0.0) return bad + 1;
  while (good - bad > 1) {
    const std::int64_t mid = bad + (good - bad) / 2;
    (cdf_with(N, P, mid, budget) >= alpha ? good : bad) = mid;
  }
  return good;
}

}  // namespace

MultinomialMax::MultinomialMax(std::int64_t N, std::int64_t P) : tasks_(N), processors_(P) {
  detail::require_tasks_processors(N, P);
}

double cdf(const MultinomialMax& m, std::int64_t k) {
  detail::LatticeBudget budget = detail::cdf_budget();
  return cdf_with(m.tasks(), m.processors(), k, budget);
}

std::pair<std::int64_t, std::int64_t> support(const MultinomialMax& m) {
  return {detail::ceil_div(m.tasks(), m.processors()), m.tasks()};
}

std::int64_t quantile(const MultinomialMax& m, double alpha) {
  if (!(alpha >= 0.0 && alpha <= 1.0)) {
    throw engine::InputError(fmt::format("maximum load quantile level {} outside [0,1]", alpha));
  }
  detail::LatticeBudget budget = detail::reference_budget(m.tasks(), m.processors());
  return quantile_with(m.tasks(), m.processors(), alpha, budget);
}

MaxMoments moments(const MultinomialMax& m) {
  const std::int64_t N = m.tasks();
  const std::int64_t P = m.processors();
  if (N == 0) return MaxMoments{0.0, 0.0};
  if (P == 2 && N > kTwoBinLatticeMaxN) return moments(TwoBinMax{N});
  detail::LatticeBudget budget = detail::reference_budget(N, P);
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
  detail::LatticeBudget budget = detail::reference_budget(N, P);
  const double dL = as_double(L);
  // P(M > jL) = 1 exactly while jL P < N (the cdf is 0 there): counted.
  double j = as_double(detail::ceil_div(support(m).first, L));
  double sum = j;
  for (;; j += 1.0) {
    const double k = j * dL;
    const double t = 1.0 - cdf_with(N, P, static_cast<std::int64_t>(k), budget);
    sum += t;
    if (t < 1e-18 * sum || k > as_double(N)) break;
  }
  return sum;
}

}  // namespace lbmc::analytic
