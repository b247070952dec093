// Construction of the task-time samplers, the negative binomial table, its
// tail search and its law as BlockRejection takes it (see
// task_time_samplers.hpp).
#include "lbmc/dist/task_time_samplers.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>

#include <boost/math/distributions/negative_binomial.hpp>
#include <fmt/format.h>

#include "lbmc/dist/double_double.hpp"
#include "lbmc/dist/log_pmf.hpp"
#include "lbmc/dist/paired_draws.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"
#include "lbmc/engine/scratch_vector.hpp"

// No fused multiply-add anywhere in this file (sampler_support.hpp).
LBMC_SAMPLER_NO_FP_CONTRACT

namespace lbmc::dist {
namespace {

using engine::InputError;

bool positive_finite(double x) { return std::isfinite(x) && x > 0.0; }

// The negative binomial's table from 0, where its mean is below 2^18; a
// wide one, from a low quantile (R > 1) or from 0 (R <= 1), up to 2^21
// cells (NegBinomial(1e5, 0.01): 443 593 cells; NegBinomial(1e6, 0.01):
// 1 402 744, a short run of 0.23 s on one core and 61 MiB at the peak).
constexpr std::size_t kMaxTableCells = std::size_t{1} << 18;
constexpr std::size_t kMaxWideTableCells = std::size_t{1} << 21;
// The masses a table's first chunk computes, and its largest chunk.
constexpr std::size_t kFirstMassChunk = 256;
constexpr std::size_t kLargestMassChunk = 65536;
constexpr double kTableTail = 0x1p-40;
// From this P the geometric's table draws its running sums as fast as the
// ziggurat or faster (0.84 of the time at P = 0.3) and its maxima in 0.6 of
// the time; below it the value guide leaves more of the draws to the
// table's search (2^-6 at P = 0.02), and below P = 0.0125 there is none.
constexpr double kSmallestTabledP = 0.05;

// A table's masses come in runs of kAnchorSpacing cells: Boost's pdf at
// the run's first cell (its anchor), then the ratios f(k+1)/f(k) = (k +
// R)(1 - P)/(k + 1) in double-double (about 1e-30 of relative error a
// step, far below the anchor's own), each mass rounded once. Boost's pdf at
// every cell took about 1 µs a cell, a step about 50 ns.
constexpr std::size_t kAnchorSpacing = 4096;

// masses[j] = f(lo + j) of `d`, the runs from masses' first computed by
// the threads (the same values for any number of them); an exception of
// Boost's leaves the loop first.
void compute_masses(const boost::math::negative_binomial_distribution<double, engine::MathPolicy>& d, double lo,
                    std::span<double> masses) {
  const double r = d.successes();
  const dd::DD q = dd::two_sum(1.0, -d.success_fraction());
  const auto runs = static_cast<std::int64_t>((masses.size() + kAnchorSpacing - 1) / kAnchorSpacing);
  std::exception_ptr failure;
#pragma omp parallel for schedule(static) if (runs > 1)
  for (std::int64_t run = 0; run < runs; ++run) {
    const std::size_t begin = static_cast<std::size_t>(run) * kAnchorSpacing;
    const std::size_t end = std::min(begin + kAnchorSpacing, masses.size());
    try {
      dd::DD f{};
      for (std::size_t j = begin; j < end; ++j) {
        const double k = lo + static_cast<double>(j);
        // Boost's at the anchor, and wherever the masses lie below the
        // normal doubles (the far left of a table from 0), where the
        // ratios would carry an underflow on.
        if (j == begin || !(f.hi >= std::numeric_limits<double>::min())) {
          f = dd::DD{boost::math::pdf(d, k)};
        } else {
          f = f * (dd::two_sum(k - 1.0, r) * q) / dd::DD{k};
        }
        masses[j] = f.hi;
      }
    } catch (...) {
#pragma omp critical(lbmc_negbinomial_masses)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

// The last sampler built on a wide table (its setup takes tenths of a
// second), so that the parameter points of a run over one law build it
// once: one at a time, held until the next one replaces it.
std::mutex kept_mutex;
std::optional<NegBinomialSampler> kept_sampler;

const Weibull& checked(const Weibull& law) {
  if (!positive_finite(law.k) || !positive_finite(law.lambda)) {
    throw InputError(fmt::format("weibull sampler: need finite K > 0 and LAMBDA > 0, got {}, {}", law.k, law.lambda));
  }
  return law;
}

}  // namespace

GammaSampler::GammaSampler(const Gamma& law) {
  if (!positive_finite(law.k) || !positive_finite(law.theta)) {
    throw InputError(fmt::format("gamma sampler: need finite K > 0 and THETA > 0, got {}, {}", law.k, law.theta));
  }
  if (law.k < 1.0) {
    small_shape_.emplace(law);
    return;
  }
  d_ = law.k - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d_);
  scaled_normal_ = NormalSampler(Normal{0.0, c});
  half_inverse_c2_ = 4.5 * d_;
  squeeze_ = detail::GammaSqueeze::of(d_);
  d_theta_ = d_ * law.theta;
}

bool GammaSampler::accepts(double t, double u, double v) const noexcept {
  return portable_log(*math_, u) < half_inverse_c2_ * (t * t) + d_ * (1.0 - v + portable_log(*math_, v));
}

LognormalSampler::LognormalSampler(const Lognormal& law) : law_(law) {
  if (!std::isfinite(law.mu) || !positive_finite(law.sigma)) {
    throw InputError(fmt::format("lognormal sampler: need finite MU and SIGMA > 0, got {}, {}", law.mu, law.sigma));
  }
}

WeibullSampler::WeibullSampler(const Weibull& law) : law_(checked(law)), power_(1.0 / law.k, law.lambda) {
  if (law.k == 1.0) shape_ = Shape::one;
  if (law.k == 2.0) shape_ = Shape::two;
}

ParetoSampler::ParetoSampler(const Pareto& law) : law_(law), inverse_alpha_(1.0 / law.alpha) {
  if (!positive_finite(law.alpha) || !positive_finite(law.xm)) {
    throw InputError(fmt::format("pareto sampler: need finite ALPHA > 0 and XM > 0, got {}, {}", law.alpha, law.xm));
  }
}

GeometricSampler::GeometricSampler(const Geometric& law) {
  if (!(law.p > 0.0 && law.p <= 1.0)) {
    throw InputError(fmt::format("geometric sampler: need 0 < P <= 1, got {}", law.p));
  }
  if (law.p < 1.0) inverse_rate_ = -1.0 / std::log1p(-law.p);
  if (law.p >= kSmallestTabledP && law.p < 1.0) {
    NegBinomialSampler table(NegBinomial{1.0, law.p}, 1);
    if (table.guided()) table_.emplace(std::move(table));
  }
}

namespace detail {

// The ratio f(k+1)/f(k) = (k + r)q/(k + 1) moves monotonically from r·q
// towards q (down for r >= 1, up for r < 1), which gives the mode and both
// tail decays; the ratios are formed in double-double and the decays'
// logarithms rounded down.
UnimodalLaw negbinomial_unimodal(double r, double p) {
  using dd::DD;
  const DD q = DD{1.0} - DD{p};  // exact
  // log(numerator/denominator), rounded down: a lower bound on a decay.
  auto decay = [](DD numerator, DD denominator) {
    const double lambda = dd::to_double(dd::dd_log(numerator / denominator));
    return lambda * (1.0 - 0x1.0p-50);
  };
  // (x + r)q - (x + 1): > 0 exactly when f(x + 1) > f(x).
  auto rising = [r, q](double x) { return dd::to_double(dd::two_sum(x, r) * q - dd::two_sum(x, 1.0)) > 0.0; };
  UnimodalLaw law;
  law.log_pmf = NegBinomialLogPmf(r, p);
  law.log_concave = r >= 1.0;
  if (r > 1.0) {
    double m = std::floor((r - 1.0) * (1.0 - p) / p);
    while (rising(m)) m += 1.0;
    while (m > 0.0 && !rising(m - 1.0)) m -= 1.0;
    law.mode = m;
  }
  law.log_ratio = [=](double x) { return dd::to_double(dd::dd_log(dd::two_sum(x, r) * q / dd::two_sum(x, 1.0))); };
  law.upper_decay = [=](double x) {
    if (r < 1.0) return decay(DD{1.0}, q);  // the ratio's supremum is its limit q
    return decay(dd::two_sum(x, 1.0), dd::two_sum(x, r) * q);
  };
  law.lower_decay = [=](double x) { return decay(dd::two_sum(x - 1.0, r) * q, DD{x}); };
  return law;
}

}  // namespace detail

std::int64_t GeometricSampler::integer_prefix_sums(engine::Generator& gen, std::span<std::int64_t> y) const {
  if (table_) return table_->integer_prefix_sums(gen, y);
  std::int64_t sum = 0;
  std::int64_t* next = y.data();
  if (inverse_rate_ == 0.0) {  // the point 1
    for (std::int64_t& v : y) v = ++sum;
    return sum;
  }
  const ExponentialZiggurat& t = *unit_exponential_.portable().tables.exponential;
  detail::for_each_paired_draw(
      gen, static_cast<std::int64_t>(y.size()),
      [this, &t](std::uint64_t x, std::int64_t& value) {
        const detail::ZigguratPoint p = detail::ziggurat_point(t, x);
        if (!p.inside(t)) return false;
        value = trials(p.z);
        return true;
      },
      [this, &t](std::uint64_t x, engine::Generator& g) {
        return trials(standard_exponential_from(t, detail::ziggurat_point(t, x), g, detail::LibraryMath{}));
      },
      [&sum, &next](std::int64_t value) { *next++ = sum += value; });
  return sum;
}

NegBinomialSampler::NegBinomialSampler(const NegBinomial& law, std::int64_t offset) : law_(law), offset_(offset) {
  if (!positive_finite(law.r) || !(law.p > 0.0 && law.p <= 1.0)) {
    throw InputError(fmt::format("negbinomial sampler: need finite R > 0 and 0 < P <= 1, got {}, {}", law.r, law.p));
  }
  if (offset < 0) throw std::logic_error("negbinomial sampler: a negative offset");
  if (law.p == 1.0) return;  // the point 0
  {
    const std::lock_guard lock(kept_mutex);
    if (kept_sampler && kept_sampler->law_.r == law.r && kept_sampler->law_.p == law.p &&
        kept_sampler->offset_ == offset) {
      *this = *kept_sampler;
      return;
    }
  }
  build(law);
  if (table_.size() > kMaxTableCells) {
    const std::lock_guard lock(kept_mutex);
    kept_sampler = *this;
  }
}

void NegBinomialSampler::build(const NegBinomial& law) {
  const boost::math::negative_binomial_distribution<double, engine::MathPolicy> d(law.r, law.p);
  // The table's far end: no table is built that would reach past it.
  const double hi_at_least = boost::math::quantile(boost::math::complement(d, kTableTail));
  if (law.r > 1.0) {
    // Past the mean the tail holds far more than 2^-40, so from a mean of
    // 2^18 the table from 0 would pass 2^18 cells: no need to compute them.
    const double mean = law.r * (1.0 - law.p) / law.p;
    const auto narrow = static_cast<double>(kMaxTableCells);
    if (mean < narrow && hi_at_least < narrow && build_table(0.0, kMaxTableCells)) return;
    // Else a wide table from a lower quantile (log-concave: the masses rise
    // to the mode): lo a little below the quantile kTableTail.
    double lo = std::max(0.0, std::floor(boost::math::quantile(d, kTableTail)) - 1.0);
    while (lo > 0.0 && boost::math::cdf(d, lo - 1.0) > kTableTail) lo -= 1.0;
    if (hi_at_least - lo < static_cast<double>(kMaxWideTableCells) && build_table(lo, kMaxWideTableCells)) return;
  } else if (hi_at_least < static_cast<double>(kMaxWideTableCells) && build_table(0.0, kMaxWideTableCells)) {
    return;  // R <= 1: the masses fall from 0, whose mass p^R is far above 2^-40
  }
  if (offset_ != 0) throw std::logic_error("negbinomial sampler: an offset past the table");
  blocks_ = std::make_shared<const BlockRejection>(detail::negbinomial_unimodal(law.r, law.p));
}

bool NegBinomialSampler::build_table(double lo, std::size_t max_cells) {
  const boost::math::negative_binomial_distribution<double, engine::MathPolicy> d(law_.r, law_.p);
  // The masses from lo up to hi, where the tail beyond is below kTableTail:
  // past the mode the ratio f(k+1)/f(k) = (k+r)(1-p)/(k+1) moves
  // monotonically towards 1-p, so P(X > k) <= f(k+1)/(1 - max(ratio(k+1), 1-p)).
  // The masses come a chunk at a time (compute_masses), the sums and the
  // test run in order, so the table is the same for any number of threads.
  const double q = 1.0 - law_.p;
  const double mode = law_.r > 1.0 ? std::floor((law_.r - 1.0) * q / law_.p) : 0.0;
  // Grown in place a chunk at a time, each mass written once (no zeroing,
  // huge pages: a wide table's first writes were most of what its setup
  // spent outside the masses, in page faults).
  engine::ScratchVector<double> probs;
  probs.reserve(max_cells);
  double total = 0.0;
  bool ended = false;
  for (std::size_t chunk = kFirstMassChunk; !ended; chunk = std::min(2 * chunk, kLargestMassChunk)) {
    const std::size_t begin = probs.size();
    if (begin >= max_cells) return false;
    probs.resize(std::min(begin + chunk, max_cells));
    compute_masses(d, lo + static_cast<double>(begin), std::span(probs).subspan(begin));
    for (std::size_t j = begin; j < probs.size(); ++j) {
      const double k = lo + static_cast<double>(j);
      const double f = probs[j];
      total += f;
      if (k < mode) continue;
      const double next_ratio = (k + 1.0 + law_.r) * q / (k + 2.0);
      const double bound = f * ((k + law_.r) * q / (k + 1.0)) / (1.0 - std::max(next_ratio, q));
      if (bound <= kTableTail * total) {
        probs.resize(j + 1);
        ended = true;
        break;
      }
    }
  }
  const double hi = lo + static_cast<double>(probs.size() - 1);
  const double below = lo > 0.0 ? boost::math::cdf(d, lo - 1.0) : 0.0;
  table_ = InversionTable(lo, probs, below, boost::math::cdf(boost::math::complement(d, hi)));
  first_value_ = offset_ + static_cast<std::int64_t>(lo);
  build_guides();
  return true;
}

void NegBinomialSampler::build_guides() {
  // A wide table spreads its draws over far more cells than the value
  // guide's 4096 buckets could hold one cut each: it goes to the cubic
  // guide without the cells' values (8 bytes a cell) or the try.
  if (table_.size() <= kMaxTableCells) {
    std::vector<std::int64_t> values(table_.size() + 2, -1);
    for (std::size_t i = 1; i <= table_.size(); ++i) values[i] = first_value_ + static_cast<std::int64_t>(i - 1);
    value_guide_ = CellValueGuide(table_, SharedArray(std::move(values)));
  }
  if (value_guide_.empty()) cubic_guide_ = CubicCellGuide(table_, first_value_);
}

std::int64_t NegBinomialSampler::cubic_prefix_sums(engine::Generator& gen, std::span<std::int64_t> y) const {
  return detail::guided_prefix_sums(
      gen, y,
      [this](std::uint64_t x0, std::uint64_t x1, std::int64_t& v0, std::int64_t& v1) {
        return cubic_guide_.settle_pair(x0, x1, v0, v1);
      },
      [this](std::uint64_t u) { return cubic_guide_.value(u); },
      [this](std::uint64_t u) { return cubic_search(u); },
      [this](std::uint64_t u, engine::Generator& g) { return tail_value(u, g); });
}

std::int64_t NegBinomialSampler::cubic_search(std::uint64_t u) const noexcept {
  const std::int64_t value = cubic_guide_.nearby_value(u, table_.thresholds().data());
  return value >= 0 ? value : table_value(u);
}

double NegBinomialSampler::unsettled_variate(std::uint64_t u, engine::Generator& gen) const {
  const std::int64_t value = table_value(u);
  return static_cast<double>(value >= 0 ? value : tail_value(u, gen));
}

std::int64_t NegBinomialSampler::tail_value(std::uint64_t u, engine::Generator& gen) const {
  const double tail = u < table_.thresholds()[0] ? lower_tail(gen) : upper_tail(gen);
  return offset_ + static_cast<std::int64_t>(tail);
}

double NegBinomialSampler::upper_tail(engine::Generator& gen) const {
  // X given X > hi: walk up from hi + 1, the masses by their ratio.
  const double q = 1.0 - law_.p;
  const boost::math::negative_binomial_distribution<double, engine::MathPolicy> d(law_.r, law_.p);
  double k = table_.lo() + static_cast<double>(table_.size());
  double f = boost::math::pdf(d, k);
  double u = engine::uniform_open01(gen) * table_.above();
  while (u > f && f > 0.0) {
    u -= f;
    f *= (k + law_.r) * q / (k + 1.0);
    k += 1.0;
  }
  return k;
}

double NegBinomialSampler::lower_tail(engine::Generator& gen) const {
  // X given X < lo: walk down from lo - 1, the masses by their ratio
  // f(k-1)/f(k) = k/((k - 1 + r)(1 - p)).
  const double q = 1.0 - law_.p;
  const boost::math::negative_binomial_distribution<double, engine::MathPolicy> d(law_.r, law_.p);
  double k = table_.lo() - 1.0;
  double f = boost::math::pdf(d, k);
  double u = engine::uniform_open01(gen) * table_.below();
  while (u > f && f > 0.0 && k > 0.0) {
    u -= f;
    f *= k / ((k - 1.0 + law_.r) * q);
    k -= 1.0;
  }
  return k;
}

EmpiricalSampler::EmpiricalSampler(const Empirical& law) : law_(law) {
  if (!law.sample || law.sample->sorted.empty()) throw InputError("empirical sampler: the sample is empty");
  values_ = law.sample->sorted.data();
  size_ = static_cast<std::uint64_t>(law.sample->sorted.size());
}

}  // namespace lbmc::dist
