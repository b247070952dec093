// Samplers of the task-time laws: gamma, lognormal, Weibull, Pareto,
// geometric, negative binomial and empirical (part of samplers.hpp, which is
// the header to include).
//
// Design note
// - Gamma(K, THETA): Marsaglia & Tsang (2000, ACM TOMS 26:363-372) on our
//   ziggurat normal and the open uniform: d = K - 1/3, c = 1/sqrt(9d),
//   t = c·x (x normal: drawn as Normal(0, c)), v = (1 + t)^3, accept d·v
//   with probability e^g, g = x^2/2 + d(1 - v + ln v) = -3d·L(t) where
//   L(t) = t - t^2/2 + t^3/3 - ln(1 + t) >= 0. Range: (0, inf). K < 1:
//   THETA·Z^(1/K) with Z = X^K drawn by its own ziggurat
//   (gamma_ziggurat.hpp), one generator output for nearly every draw.
// - The gamma squeeze: with w = min(1 + t, 1),
//     L(t) <= t^4/4 - t^5/5 + t^6/(6w)   for every t > -1
//   (t >= 0: L' = t^3/(1+t) <= t^3(1 - t + t^2); t < 0: L = sum_j>=4 |t|^j/j
//   with the terms past j = 6 bounded by a geometric series), and
//   e^(-y) >= 1 - y, so u·w < w(1 - 2^-40 - t^4(3d/4 - 3d/5·t)) - (d/2)t^6
//   accepts without a logarithm (the 2^-40 absorbs rounding; no division,
//   no branch but the test). It leaves 1.5% of the points at K = 2.5 (1.4%
//   are rejections), against 8% with the paper's u < 1 - 0.0331x^4; those
//   take the exact test ln u < g, with portable_log (portable_exp_log.hpp).
// - Lognormal(MU, SIGMA): exp(MU + SIGMA·z), z our normal. Range: (0, inf).
// - Weibull(K, LAMBDA): inversion, LAMBDA·E^(1/K), E = -ln U our
//   exponential (ziggurat): LAMBDA·E for K = 1, LAMBDA·sqrt(E) for K = 2,
//   otherwise FixedPower (relative error < 2^-50.6 for K >= 0.1, with 1/K
//   rounded to double). Range: [0, inf); 0 only by underflow (K < 0.1 or
//   a tiny LAMBDA).
// - Pareto(ALPHA, XM): inversion, XM·exp(E/ALPHA), E as above. Range:
//   [XM, inf); XM itself when E = 0.
// - Geometric(P), trials: from P = 0.05, inversion of the table of its
//   failures (the negative binomial below at R = 1, each value plus 1),
//   whose value guide settles nearly every draw with one bucket's load and
//   a compare; the largest of n comes from the outputs' range. Below it
//   (the guide would leave more draws to the table's search, and below
//   P = 0.0125 there is none), inversion in O(1): 1 + floor(E/r),
//   r = -ln(1 - P), since P(floor(E/r) >= k) = e^(-rk) = (1 - P)^k
//   exactly; the largest of n
//   draws is that of the largest E (integer_max), the exponentials'
//   maximum; their running sums (integer_prefix_sums) take two ziggurat
//   points a step. Range: 1, 2, ...; P = 1 is the point 1 and draws
//   nothing.
// - Negative binomial(R, P), failures: inversion of a table of its masses
//   with a Chen & Asau guide (InversionTable), over [0, hi] with P(X > hi) <=
//   2^-40 (bounded by the ratio of successive masses, which tends to 1 - P),
//   most draws settled by its value guide (cell_value_guide.hpp), or where
//   the table is too wide for that one by its cubic guide
//   (cubic_cell_guide.hpp); beyond hi an exact sequential search on the
//   conditional tail. Where that table would pass 2^18 cells (always from a
//   mean of 2^18), a wide table of up to 2^21 cells: for R > 1 from lo, a
//   little below the quantile 2^-40, with the search walking down from
//   lo - 1 below it (NegBinomial(1e4, 0.01): 140 000 cells from 921 481;
//   NegBinomial(1e5, 0.01): 443 593; NegBinomial(1e6, 0.01): 1 402 744),
//   for R <= 1 from 0. A table's masses: Boost's pdf every 4096 cells, the
//   ratio of successive masses in double-double between, the threads taking
//   runs of 4096 (a short run on one core: 0.08 s at NegBinomial(1e5,
//   0.01); 0.23 s and 61 MiB at the peak at NegBinomial(1e6, 0.01)). When
//   the wide table would pass 2^21 cells too (sd past about 1.5e5, or R <= 1
//   with a tail past 2^21): rejection from a hat constant on blocks
//   (block_rejection.hpp),
//   for every R and P the law table admits: log-concave for R >= 1
//   (blocks out from the mode), log-convex and decreasing for R < 1 (blocks
//   out from 0, single values at first). Its masses are Loader's
//   saddle-point form (log_pmf.hpp), its mode and tail decays the ratio
//   f(k+1)/f(k) = (k + R)(1 - P)/(k + 1), in double-double. One output
//   for ~98% of the draws (1.03 on average at R = 1e6, P = 0.01). Range:
//   0, 1, ...; P = 1 is the point 0. The largest of n draws on the table
//   comes from the outputs' range (integer_max, output_range.hpp).
// - Empirical: inversion of the sorted sample: the value of index
//   floor(m·u), u the 64-bit output over 2^64 (the 128-bit product: every
//   index with probability 1/m up to m/2^64). Range: the sample's values.
// - Reproducibility: the gamma and Weibull paths and the negative binomial
//   past its table are our own arithmetic (portable_exp_log.hpp,
//   fixed_power.hpp, double-double, IEEE sqrt): the same bits with every C
//   library. The lognormal and Pareto paths and the geometric's ziggurat
//   call std::exp, std::log or std::floor on every draw; a C library whose
//   last bit differs changes a value by an ulp, and could flip a decision
//   with a probability of order 1e-16. The table paths are integer
//   compares.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "lbmc/dist/block_rejection.hpp"
#include "lbmc/dist/cell_value_guide.hpp"
#include "lbmc/dist/cubic_cell_guide.hpp"
#include "lbmc/dist/fixed_power.hpp"
#include "lbmc/dist/gamma_ziggurat.hpp"
#include "lbmc/dist/inversion_table.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/portable_exp_log.hpp"
#include "lbmc/dist/sampler_support.hpp"
#include "lbmc/dist/ziggurat.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::dist {

namespace detail {
//! The gamma squeeze for d = k - 1/3 (design note): for t > -1 and
//! w = min(1 + t, 1), scaled_bound(t, w)/w <= e^(-3d·L(t)), the acceptance
//! probability of Marsaglia–Tsang, so u·w < scaled_bound(t, w) accepts.
struct GammaSqueeze {
  double three_quarters_d = 0.0;  // 3d/4
  double three_fifths_d = 0.0;    // 3d/5
  double half_d = 0.0;            // d/2

  //! The squeeze of d.
  static GammaSqueeze of(double d) noexcept { return {0.75 * d, 0.6 * d, 0.5 * d}; }
  //! min(1 + t, 1) without a branch: 1 + min(t, 0).
  static double clipped_one_plus(double t) noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    return 1.0 + 0.5 * (t - std::abs(t));
  }
  //! w·(1 - 2^-40 - t^4(3d/4 - 3d/5·t)) - (d/2)t^6.
  double scaled_bound(double t, double w) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const double t2 = t * t;
    const double t4 = t2 * t2;
    return w * ((1.0 - 0x1p-40) - t4 * (three_quarters_d - three_fifths_d * t)) - half_d * (t4 * t2);
  }
};

//! The negative binomial law (failures) of r > 0 and 0 < p < 1 as
//! BlockRejection takes it.
UnimodalLaw negbinomial_unimodal(double r, double p);
}  // namespace detail

//! Sampler for Gamma{k, theta}: Marsaglia–Tsang for k >= 1, the ziggurat on
//! X^k (SmallShapeGammaSampler) for k < 1.
class GammaSampler {
 public:
  //! Throws engine::InputError unless k > 0 and theta > 0, both finite.
  explicit GammaSampler(const Gamma& law);

  //! One variate; about 2.04 outputs of the generator for k = 2.5, 1.004
  //! for k = 0.3.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    if (!small_shape_) [[likely]] return d_theta_ * draw_cube(gen);
    return (*small_shape_)(gen);
  }

 private:
  // v = (1 + t)^3, t = c·x, accepted by Marsaglia–Tsang: d·v is
  // Gamma(d + 1/3) with d = k - 1/3, scale 1.
  double draw_cube(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    for (;;) {
      double t = 0.0;
      double s = 0.0;
      do {
        t = scaled_normal_(gen);
        s = 1.0 + t;
      } while (s <= 0.0);
      const double v = s * s * s;
      const double u = engine::uniform_open01(gen);
      const double w = detail::GammaSqueeze::clipped_one_plus(t);
      if (u * w < squeeze_.scaled_bound(t, w)) [[likely]]
        return v;
      if (accepts(t, u, v)) return v;
    }
  }
  // The exact test ln u < x^2/2 + d(1 - v + ln v), x = t/c; out of line (rare).
  bool accepts(double t, double u, double v) const noexcept;

  NormalSampler scaled_normal_{Normal{0.0, 1.0}};  // Normal(0, c): t itself
  std::optional<SmallShapeGammaSampler> small_shape_;  // for k < 1
  const ExpLogTables* math_ = &exp_log_tables();
  double d_ = 0.0;
  double half_inverse_c2_ = 0.0;  // 1/(2c^2) = 9d/2
  double d_theta_ = 0.0;
  detail::GammaSqueeze squeeze_;
};

//! Sampler for Lognormal{mu, sigma}: exp(mu + sigma·z).
class LognormalSampler {
 public:
  //! Throws engine::InputError unless sigma > 0, both finite.
  explicit LognormalSampler(const Lognormal& law);
  //! One variate.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    return std::exp(law_.mu + law_.sigma * unit_normal_(gen));
  }

 private:
  Lognormal law_;
  NormalSampler unit_normal_{Normal{0.0, 1.0}};
};

//! Sampler for Weibull{k, lambda}: lambda·E^(1/k).
class WeibullSampler {
 public:
  //! Throws engine::InputError unless k > 0 and lambda > 0, both finite.
  explicit WeibullSampler(const Weibull& law);
  //! One variate.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const double e = unit_exponential_(gen);
    switch (shape_) {
      case Shape::one:
        return law_.lambda * e;
      case Shape::two:
        return law_.lambda * std::sqrt(e);
      case Shape::other:
        break;
    }
    return power_(e);
  }

 private:
  // E^(1/k) in closed form for k = 1 and 2, otherwise by FixedPower.
  enum class Shape { one, two, other };

  Weibull law_;
  ExponentialSampler unit_exponential_{Exponential{1.0}};
  FixedPower power_;  // lambda·x^(1/k)
  Shape shape_ = Shape::other;
};

//! Sampler for Pareto{alpha, xm}: xm·exp(E/alpha).
class ParetoSampler {
 public:
  //! Throws engine::InputError unless alpha > 0 and xm > 0, both finite.
  explicit ParetoSampler(const Pareto& law);
  //! One variate.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    return law_.xm * std::exp(unit_exponential_(gen) * inverse_alpha_);
  }

 private:
  Pareto law_;
  ExponentialSampler unit_exponential_{Exponential{1.0}};
  double inverse_alpha_ = 1.0;
};

//! Sampler for NegBinomial{r, p} (failures): table inversion, or rejection
//! from a hat constant on blocks past 2^21 cells.
class NegBinomialSampler {
 public:
  //! Throws engine::InputError unless r > 0 and 0 < p <= 1. Every variate
  //! is the law's plus `offset` >= 0 (1: the geometric's trials from its
  //! failures at r = 1), which needs the table (std::logic_error past it).
  explicit NegBinomialSampler(const NegBinomial& law, std::int64_t offset = 0);
  //! One variate.
  double operator()(engine::Generator& gen) const { return draw<double>(gen); }
  //! The same variate as an integer (draw_integer), from the same outputs.
  std::int64_t integer(engine::Generator& gen) const { return draw<std::int64_t>(gen); }
  //! The largest of `count` >= 1 variates drawn in turn, as an integer: the
  //! same outputs and value as `count` calls of integer(), from the
  //! outputs' range on the table (output_range.hpp), by BlockRejection::max_of
  //! past it.
  std::int64_t integer_max(engine::Generator& gen, std::int64_t count) const {
    if (table_.size() != 0) [[likely]] {
      if (const auto cells = table_.extreme_cells(gen, count)) [[likely]] {
        return first_value_ + static_cast<std::int64_t>(cells->second) - 1;
      }
    } else if (blocks_) {
      return static_cast<std::int64_t>(blocks_->max_of(gen, count));
    }
    return max_by_single_draws(*this, gen, count);
  }
  //! The running sums of the next y.size() variates drawn in turn, as
  //! integers, into y; returns the last (0 when y is empty): the same
  //! outputs and values as y.size() calls of integer(): the value guide's
  //! loop on the table, BlockRejection::prefix_sums past it.
  std::int64_t integer_prefix_sums(engine::Generator& gen, std::span<std::int64_t> y) const {
    if (table_.size() != 0 && !value_guide_.empty()) [[likely]] {
      return value_guide_.prefix_sums(
          gen, y, [this](std::uint64_t u) { return table_value(u); },
          [this](std::uint64_t u, engine::Generator& g) { return tail_value(u, g); });
    }
    if (table_.size() != 0 && !cubic_guide_.empty()) return cubic_prefix_sums(gen, y);
    if (blocks_) return blocks_->prefix_sums(gen, y);
    return prefix_sums_by_single_draws(*this, gen, y);
  }
  //! The variate of an output u = gen() >> 1 that falls past the table
  //! (below its first threshold, or above its last), drawing on from gen:
  //! the conditional tail's search. What the table paths do there.
  std::int64_t tail_value(std::uint64_t u, engine::Generator& gen) const;
  //! The table (size 0 past it); its lo() is 0 unless the law's table
  //! starts at a lower quantile (offset aside).
  const InversionTable& table() const noexcept { return table_; }
  //! The block rejection sampler, or null when the table (or the point 0) serves.
  const BlockRejection* blocks() const noexcept { return blocks_.get(); }
  //! Whether the table has a value guide (cell_value_guide.hpp).
  bool guided() const noexcept { return !value_guide_.empty(); }
  //! Whether the table, too wide for a value guide, has a cubic one
  //! (cubic_cell_guide.hpp).
  bool cubic_guided() const noexcept { return !cubic_guide_.empty(); }

 private:
  template <class Value>
  Value draw(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    if (table_.size() != 0) [[likely]] {
      const std::uint64_t u = gen() >> 1;
      const std::int64_t value = guided_value(u);
      if (value >= 0) [[likely]] return static_cast<Value>(value);
      return static_cast<Value>(
          detail::with_generator_copy(gen, [this, u](engine::Generator& g) { return unsettled_variate(u, g); }));
    }
    if (blocks_) return static_cast<Value>((*blocks_)(gen));
    return static_cast<Value>(offset_);
  }
  // The value of the table's cell of u, or -1 past the table.
  std::int64_t table_value(std::uint64_t u) const noexcept {
    const std::size_t i = table_.locate(u);
    return i - 1 < table_.size() ? first_value_ + static_cast<std::int64_t>(i - 1) : -1;
  }
  // The same, through a guide where the table has one (-1: the table's
  // search and then the tail's decide).
  std::int64_t guided_value(std::uint64_t u) const noexcept {
    if (!value_guide_.empty()) return value_guide_.value(u);
    if (cubic_guide_.empty()) return table_value(u);
    const std::int64_t value = cubic_guide_.value(u);
    return value >= 0 ? value : cubic_search(u);
  }
  // The value of u where the cubic guide's value() leaves it: one threshold
  // compare, else the table's search (-1 past the table). Cold, out of
  // line: inlined, it cost the draws' loop registers.
  [[gnu::noinline, gnu::cold]] std::int64_t cubic_search(std::uint64_t u) const noexcept;
  // integer_prefix_sums on the cubic guide (detail::guided_prefix_sums).
  // Out of line, for the loop's registers.
  [[gnu::noinline]] std::int64_t cubic_prefix_sums(engine::Generator& gen, std::span<std::int64_t> y) const;
  // cold: a draw the value guide leaves to the table's search, or the tail's.
  double unsettled_variate(std::uint64_t u, engine::Generator& gen) const;
  double upper_tail(engine::Generator& gen) const;
  double lower_tail(engine::Generator& gen) const;
  // The table and its guides, or else the blocks (the constructor's work
  // where it has not kept the same law's wide table).
  void build(const NegBinomial& law);
  // The table of the masses from lo up, and its guides; false (nothing
  // built) where it would pass max_cells.
  bool build_table(double lo, std::size_t max_cells);
  // The guides of table_.
  void build_guides();

  NegBinomial law_;
  std::int64_t offset_ = 0;  // added to every variate
  std::int64_t first_value_ = 0;  // the value of the table's cell 1: offset_ + its lowest value
  InversionTable table_;
  CellValueGuide value_guide_;  // cell i holds the value first_value_ + i - 1; the tails -1
  CubicCellGuide cubic_guide_;  // where the table is too wide for value_guide_
  std::shared_ptr<const BlockRejection> blocks_;  // past 2^21 cells
};

//! Sampler for Geometric{p} (trials): inversion of the table of its masses
//! (NegBinomialSampler at r = 1, plus 1) where the table's value guide
//! settles the draws (p >= 0.05); else 1 + floor(E/r),
//! r = -ln(1 - p). E/r >= 0 is floored by truncation to an integer, which is
//! exact and costs two instructions where std::floor costs eight (E/r < 2^52:
//! the only case that occurs, as E/r <= 1e10·E for p >= 1e-10; above it E/r
//! is an integer).
class GeometricSampler {
 public:
  //! Throws engine::InputError unless 0 < p <= 1.
  explicit GeometricSampler(const Geometric& law);
  //! One variate; p = 1 gives 1 and draws nothing.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    if (table_) return (*table_)(gen);
    if (inverse_rate_ == 0.0) return 1.0;
    const double x = unit_exponential_(gen) * inverse_rate_;
    return 1.0 + (x < 0x1p52 ? static_cast<double>(static_cast<std::int64_t>(x)) : x);
  }
  //! The same variate as an integer (draw_integer), from the same outputs.
  std::int64_t integer(engine::Generator& gen) const {
    if (table_) return table_->integer(gen);
    if (inverse_rate_ == 0.0) return 1;
    return trials(unit_exponential_(gen));
  }
  //! The largest of `count` >= 1 variates drawn in turn, as an integer
  //! (max_of_integers): the same outputs and value. On the table, from the
  //! outputs' range (NegBinomialSampler::integer_max); else the variate of
  //! the largest exponential, since 1 + floor(E/r) is non-decreasing in E.
  std::int64_t integer_max(engine::Generator& gen, std::int64_t count) const {
    if (table_) return table_->integer_max(gen, count);
    if (inverse_rate_ == 0.0) return 1;
    double e = unit_exponential_(gen);
    for (std::int64_t i = 1; i < count; ++i) e = std::max(e, unit_exponential_(gen));
    return trials(e);
  }
  //! The running sums of the next y.size() variates drawn in turn, as
  //! integers, into y; returns the last (0 when y is empty): the same
  //! outputs and values as y.size() calls of integer(). On the table, its
  //! value guide's loop; else two ziggurat points a step (engine::Pcg64Pair)
  //! in a loop that calls nothing while both lie on the fast path, so that
  //! the generator stays in registers (one call at a time kept its state in
  //! memory, for the rare path's call to exp).
  [[gnu::noinline]] std::int64_t integer_prefix_sums(engine::Generator& gen, std::span<std::int64_t> y) const;
  //! Whether the draws come from the table.
  bool tabled() const noexcept { return table_.has_value(); }

 private:
  // 1 + floor(e/r), as an integer.
  std::int64_t trials(double e) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const double x = e * inverse_rate_;
    if (x < 0x1p52) [[likely]] return 1 + static_cast<std::int64_t>(x);
    return static_cast<std::int64_t>(1.0 + x);
  }

  ExponentialSampler unit_exponential_{Exponential{1.0}};
  double inverse_rate_ = 0.0;  // 1/r; 0 for the point mass
  std::optional<NegBinomialSampler> table_;  // the failures plus 1, where its value guide settles the draws
};

//! Sampler for an Empirical law: a uniformly chosen value of its sample.
class EmpiricalSampler {
 public:
  //! Throws engine::InputError for an empty sample.
  explicit EmpiricalSampler(const Empirical& law);
  //! One variate; one 64-bit output.
  double operator()(engine::Generator& gen) const noexcept {
    __extension__ using Wide = unsigned __int128;  // GCC and Clang
    return values_[static_cast<std::size_t>((static_cast<Wide>(gen()) * size_) >> 64)];
  }

 private:
  Empirical law_;
  const double* values_ = nullptr;
  std::uint64_t size_ = 0;
};

}  // namespace lbmc::dist
