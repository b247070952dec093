// Poisson and binomial samplers: table construction, tail search and the
// rejection setups (see discrete_samplers.hpp).
//
// Both laws are handled through their log-pmf alone (Loader's formulas,
// log_pmf.hpp). Both are log-concave, so beyond the mode, in either direction,
// the ratio of successive probabilities decreases and a tail is bounded by a
// geometric series: P(X > k) <= p(k+1)^2 / (p(k+1) - p(k+2)) once
// p(k+2) < p(k+1), and likewise below. Table extents and tail masses follow
// without Boost's cdf or quantile (which lose up to 5e-5 for binomials at
// M ~ 2^53).
#include "lbmc/dist/discrete_samplers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "lbmc/engine/errors.hpp"

// No fused multiply-add anywhere in this file (sampler_support.hpp).
LBMC_SAMPLER_NO_FP_CONTRACT

namespace lbmc::dist {
namespace {

using engine::InputError;

template <class LogPmf>
struct IntegerLaw {
  LogPmf log_pmf;
  double mode;
  double kmax;  // the largest value; infinity for Poisson
  double pmf(double k) const { return (k < 0.0 || k > kmax) ? 0.0 : std::exp(log_pmf(k)); }
};
template <class LogPmf>
IntegerLaw(LogPmf, double, double) -> IntegerLaw<LogPmf>;

auto poisson_law(double lambda) {
  return IntegerLaw{[lambda](double k) { return detail::poisson_log_pmf(k, lambda); },
                    std::floor(lambda), std::numeric_limits<double>::infinity()};
}
auto binomial_law(double n, double p, double q) {
  return IntegerLaw{[n, p, q](double k) { return detail::binomial_log_pmf(k, n, p, q); },
                    std::min(std::floor((n + 1.0) * p), n), n};
}

// The first k from the mode outward (step +1 or -1) whose tail beyond it is
// bounded by eps, or NaN after more than `limit` steps.
template <class Law>
double table_end(const Law& law, double eps, double step, std::size_t limit) {
  double k = law.mode;
  double p1 = law.pmf(k + step);
  for (std::size_t n = 0; n <= limit; ++n) {
    if (p1 == 0.0) return k;  // nothing representable beyond k
    const double p2 = law.pmf(k + 2.0 * step);
    if (p2 < p1 && p1 * (p1 / (p1 - p2)) <= eps) return k;
    k += step;
    p1 = p2;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

using detail::sample_tail;
using detail::tail_mass;

// X given X outside `table` (built from `law`): above it when `upper`, else below.
template <class Law>
double sample_outside(const Law& law, const InversionTable& table, bool upper,
                      engine::Generator& gen) {
  const double hi = table.lo() + static_cast<double>(table.size()) - 1.0;
  return upper ? sample_tail(law, hi, 1.0, table.above(), gen)
               : sample_tail(law, table.lo(), -1.0, table.below(), gen);
}

// The table over [lo, hi] (each tail beyond it <= tail_mass), or false when it
// would have more than `limit` cells.
template <class Law>
bool build_table(const Law& law, double tail_mass_bound, std::size_t limit,
                 InversionTable& table) {
  const double hi = table_end(law, tail_mass_bound, 1.0, limit);
  const double lo = table_end(law, tail_mass_bound, -1.0, limit);
  if (std::isnan(hi) || std::isnan(lo) || hi - lo + 1.0 > static_cast<double>(limit)) return false;
  std::vector<double> probs(static_cast<std::size_t>(hi - lo + 1.0));
  for (std::size_t j = 0; j < probs.size(); ++j) probs[j] = law.pmf(lo + static_cast<double>(j));
  table = InversionTable(lo, probs, tail_mass(law, lo, -1.0), tail_mass(law, hi, 1.0));
  return true;
}

// The switch rule: the table, unless the rejection method is valid and the
// table would have more than max_table cells (a table spans about 13 sd at
// tail_mass 2^-32, so the walk is skipped once sd alone exceeds max_table).
template <class Law>
bool use_table(const Law& law, bool rejection_valid, double sd, const DiscreteOptions& options,
               InversionTable& table) {
  if (!rejection_valid) {  // narrow: sd < sqrt(10)
    return build_table(law, options.tail_mass, std::size_t{1} << 30, table);
  }
  if (sd > static_cast<double>(options.max_table)) return false;
  return build_table(law, options.tail_mass, options.max_table, table);
}

void check_options(const DiscreteOptions& options) {
  if (!(options.tail_mass > 0.0 && options.tail_mass <= 0.25)) {
    throw InputError(fmt::format("sampler tail_mass {} outside (0, 0.25]", options.tail_mass));
  }
}

}  // namespace

PoissonSampler::PoissonSampler(const Poisson& law, const DiscreteOptions& options) {
  if (!(std::isfinite(law.lambda) && law.lambda >= 0.0)) {
    throw InputError(fmt::format("Poisson sampler: need finite lambda >= 0, got {}", law.lambda));
  }
  check_options(options);
  portable_.lambda = law.lambda;
  portable_.kmax = std::numeric_limits<double>::infinity();
  choose_method(options);
  complete_portable();
}

void PoissonSampler::choose_method(const DiscreteOptions& options) {
  PortableDiscrete& form = portable_;
  if (form.lambda == 0.0) return;  // point mass at 0
  // sqrt(lambda): the standard deviation, for the switch rule and for PTRS.
  const double smu = std::sqrt(form.lambda);
  if (use_table(poisson_law(form.lambda), form.lambda >= 10.0, smu, options, table_)) {
    use_table_values(static_cast<std::int64_t>(table_.lo()), 1, options);
    return;
  }
  // PTRS setup, Hörmann (1993) algorithm PTRS step 0.
  form.method = DiscreteMethod::rejection;
  form.b = 0.931 + 2.53 * smu;
  form.a = -0.059 + 0.02483 * form.b;
  form.log_inv_alpha = std::log(1.1239 + 1.1328 / (form.b - 3.4));
  form.v_r = 0.9277 - 3.6224 / (form.b - 2.0);
}

double PoissonSampler::tail(bool upper, engine::Generator& gen) const {
  return sample_outside(poisson_law(portable_.lambda), table_, upper, gen);
}

BinomialSampler::BinomialSampler(const Binomial& law, const DiscreteOptions& options) {
  if (!(law.trials >= 0 && law.trials <= (std::int64_t{1} << 53) && law.p >= 0.0 && law.p <= 1.0)) {
    throw InputError(fmt::format("binomial sampler: need 0 <= M <= 2^53 and p in [0,1], got {}, {}",
                                 law.trials, law.p));
  }
  check_options(options);
  portable_.binomial = true;
  portable_.n = static_cast<double>(law.trials);
  portable_.kmax = portable_.n;
  choose_method(law, options);
  complete_portable();
}

void BinomialSampler::choose_method(const Binomial& law, const DiscreteOptions& options) {
  PortableDiscrete& form = portable_;
  if (law.trials == 0 || law.p == 0.0) return;  // point mass at 0
  if (law.p == 1.0) {
    form.point = form.n;
    return;
  }
  form.flip = law.p > 0.5;
  form.p = form.flip ? 1.0 - law.p : law.p;  // exact (Sterbenz) when flipped
  form.q = form.flip ? law.p : 1.0 - law.p;
  const auto reduced = binomial_law(form.n, form.p, form.q);  // Binomial(n, p'), p' = min(p, 1-p)
  const double spq = std::sqrt(form.n * form.p * form.q);     // its standard deviation
  if (use_table(reduced, form.n * form.p >= 10.0, spq, options, table_)) {
    // The table's cells, read from the top when p > 1/2.
    use_table_values(static_cast<std::int64_t>(form.flip ? form.n - table_.lo() : table_.lo()), form.flip ? -1 : 1,
                     options);
    return;
  }
  // BTRS setup, Hörmann (1993) algorithm BTRS step 0 and 3.0.
  form.method = DiscreteMethod::rejection;
  form.b = 1.15 + 2.53 * spq;
  form.a = -0.0873 + 0.0248 * form.b + 0.01 * form.p;
  form.c = form.n * form.p + 0.5;
  form.v_r = 0.92 - 4.2 / form.b;
  form.alpha = (2.83 + 5.1 / form.b) * spq;
  // The mode floor((n + 1) p') (<= n, as p' <= 1/2).
  form.log_pmf_mode = reduced.log_pmf(reduced.mode);
}

double BinomialSampler::tail(bool upper, engine::Generator& gen) const {
  const PortableDiscrete& form = portable_;
  const double k = sample_outside(binomial_law(form.n, form.p, form.q), table_, upper, gen);
  return form.flip ? form.n - k : k;
}

}  // namespace lbmc::dist
