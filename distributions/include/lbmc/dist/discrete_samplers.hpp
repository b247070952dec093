// Poisson and binomial samplers (part of samplers.hpp, which is the header to
// include).
//
// Design note
// - Inversion of a cumulative table of 63-bit integer thresholds with a Chen &
//   Asau (1974) guide table, over the range outside of which each tail holds
//   at most `tail_mass` (2^-32, by a geometric bound: both laws are
//   log-concave); outside it an exact sequential search on the conditional
//   tail law. Binomials use p' = min(p, 1-p) and return M - k when p > 1/2.
// - When the table would exceed `max_table` (2^16) cells, transformed
//   rejection: PTRS for Poisson (Hörmann 1993, Insurance Math. Econom.
//   12:39-45) and BTRS for binomial (Hörmann 1993, J. Stat. Comput. Simul.
//   46:101-110).
// - All probabilities come from Loader's saddle-point formulas (log_pmf.hpp),
//   not from Boost's cdf or quantile. Point masses (p in {0,1}, M = 0,
//   lambda = 0) consume no randomness.
// - A value guide (cell_value_guide.hpp) over the table hands back most
//   draws' values from one bucket's cut; the tails, its unsettled buckets
//   and tables too wide for it go through the table's search.
// - integer() draws the same variate from the same outputs as an integer
//   (draw_integer, sampler_support.hpp): the table's cell plus its base,
//   without the round trip through double that an integer sum would pay.
//   integer_max() draws the largest of n from the outputs' range
//   (output_range.hpp): n outputs and two searches. integer_prefix_sums()
//   draws the running sums of n in the value guide's loop, which takes the
//   outputs two at a time and keeps the generator in registers
//   (CellValueGuide::prefix_sums). On pcg64 both draw their outputs from
//   two chains of its state (engine::Pcg64Pair).
// - portable() is the same method on the same table for the counter-based
//   stream and a GPU (portable_discrete.hpp), with lbmc's own log and exp.
// - Reproducibility: the table path is integer compares and loads. The tail
//   searches (std::exp) and the rejection samplers' final tests (std::log)
//   call the C library; one whose last bit differs could flip one decision
//   with a probability of order 1e-16.
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "lbmc/dist/cell_value_guide.hpp"
#include "lbmc/dist/inversion_table.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/log_pmf.hpp"
#include "lbmc/dist/portable_discrete.hpp"
#include "lbmc/dist/sampler_support.hpp"
#include "lbmc/dist/shared_array.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::dist {


//! Construction options of the Poisson and binomial samplers.
struct DiscreteOptions {
  //! The table covers [lo, hi], walked out from the mode until the geometric
  //! bounds on P(X < lo) and P(X > hi) are <= tail_mass; beyond it, exact
  //! sequential search. In (0, 0.25].
  double tail_mass = 0x1p-32;
  //! Largest table, in cells (hi - lo + 1), before switching to rejection.
  std::size_t max_table = kDefaultMaxTable;
  //! Build the value guide over the table: a thousand buckets or more, which
  //! pay for themselves over many draws. Without it every draw takes the
  //! table's search, to the same variate.
  bool value_guide = true;
};

namespace detail {
//! What the Poisson and binomial samplers share: how they draw, the point
//! of a point mass, the inversion table, and a variate as the value of the
//! table's cell (cell_values_) or, past the table, Derived::tail's search (an
//! integer either way); Derived::rejection draws past max_table.
template <class Derived>
class TableOrRejection {
 public:
  //! One variate.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    if (portable_.method == DiscreteMethod::table) [[likely]] return static_cast<double>(table_variate(gen));
    return other_variate(gen);
  }
  //! The same variate as an integer, from the same outputs: the table's
  //! cells without a round trip through double (see draw_integer).
  std::int64_t integer(engine::Generator& gen) const {
    if (portable_.method == DiscreteMethod::table) [[likely]] return table_variate(gen);
    return static_cast<std::int64_t>(other_variate(gen));
  }
  //! The largest of `count` >= 1 variates drawn in turn, as an integer: the
  //! same outputs and the same value as `count` calls of integer(), from the
  //! outputs' range on the table (output_range.hpp).
  std::int64_t integer_max(engine::Generator& gen, std::int64_t count) const {
    if (portable_.method == DiscreteMethod::table) [[likely]] {
      if (const auto cells = table_.extreme_cells(gen, count)) [[likely]] {
        return std::max(cell_values_[cells->first], cell_values_[cells->second]);
      }
    }
    return max_by_single_draws(derived(), gen, count);
  }
  //! The running sums of the next y.size() variates drawn in turn, as
  //! integers, into y; returns the last (0 when y is empty): the same
  //! outputs and values as y.size() calls of integer().
  std::int64_t integer_prefix_sums(engine::Generator& gen, std::span<std::int64_t> y) const {
    if (portable_.method == DiscreteMethod::table && !value_guide_.empty()) [[likely]] {
      return value_guide_.prefix_sums(
          gen, y, [this](std::uint64_t u) { return cell_values_[table_.locate(u)]; },
          [this](std::uint64_t u, engine::Generator& g) {
            return static_cast<std::int64_t>(derived().tail(table_.locate(u) != 0, g));
          });
    }
    return prefix_sums_by_single_draws(*this, gen, y);
  }
  //! One variate from another stream (the counter-based one), as a GPU
  //! draws it.
  template <engine::UniformWords Gen>
    requires(!std::same_as<Gen, engine::Generator>)
  double operator()(Gen& gen) const noexcept {
    return portable_(gen);
  }
  //! The sampler of the counter-based stream, for the host and a GPU: the
  //! same method on the same table (portable_discrete.hpp). It points into
  //! this sampler's tables and lives as long as this sampler or a copy.
  const PortableDiscrete& portable() const noexcept { return portable_; }
  //! How this sampler draws (decided in the constructor).
  DiscreteMethod method() const noexcept { return portable_.method; }
  //! The inversion table (empty unless method() == table).
  const InversionTable& table() const noexcept { return table_; }

 protected:
  // The method, the point mass, the law and the rejection constants, which
  // both forms read; the table's views are added by complete_portable.
  PortableDiscrete portable_;
  InversionTable table_;

  //! Points the portable form at the tables, once they are built.
  void complete_portable() {
    portable_.log_pmf = {stirlerr_table(), &exp_log_tables()};
    if (portable_.method != DiscreteMethod::table) return;
    portable_.table = table_.portable();
    portable_.value_guide = value_guide_.portable();
    portable_.lo = table_.lo();
    portable_.below = table_.below();
    portable_.above = table_.above();
  }

  //! Selects the table and reads cell 1 + j as first + step·j.
  void use_table_values(std::int64_t first, std::int64_t step, const DiscreteOptions& options) {
    portable_.method = DiscreteMethod::table;
    std::vector<std::int64_t> values(table_.size() + 2, kTailCell);
    for (std::size_t j = 0; j < table_.size(); ++j) values[j + 1] = first + step * static_cast<std::int64_t>(j);
    cell_values_ = SharedArray(std::move(values));
    if (options.value_guide) value_guide_ = CellValueGuide(table_, cell_values_);
  }

 private:
  const Derived& derived() const noexcept { return static_cast<const Derived&>(*this); }
  // Rejection or the point mass; the rejection loop gets a copy of the
  // generator (with_generator_copy), so that a caller whose loop does not
  // inline it keeps its own generator in registers.
  double other_variate(engine::Generator& gen) const {
    if (portable_.method == DiscreteMethod::rejection) {
      return with_generator_copy(gen, [this](engine::Generator& g) { return derived().rejection(g); });
    }
    return portable_.point;
  }
  // The cell's value is read, not computed: a load in place of the range
  // check, an addition and (binomial) a multiplication, which on the integer
  // kernels' hot path compete with the generator's for the ALUs. The value
  // guide settles most draws; the rest, and every draw of a table too wide
  // for it, take the table's search.
  std::int64_t table_variate(engine::Generator& gen) const {
    const std::uint64_t u = gen() >> 1;
    const std::int64_t value = value_guide_.empty() ? cell_values_[table_.locate(u)] : value_guide_.value(u);
    if (value >= 0) [[likely]] return value;
    return with_generator_copy(gen, [this, u](engine::Generator& g) { return unsettled_variate(u, g); });
  }
  // A draw of a tail cell or of a bucket the value guide leaves unsettled.
  [[gnu::noinline]] std::int64_t unsettled_variate(std::uint64_t u, engine::Generator& gen) const {
    const std::size_t i = table_.locate(u);
    const std::int64_t value = cell_values_[i];
    if (value != kTailCell) return value;
    return static_cast<std::int64_t>(derived().tail(i != 0, gen));
  }

  // Both laws' values are >= 0; cells 0 and n + 1 (the tails) hold -1.
  static constexpr std::int64_t kTailCell = -1;
  SharedArray<std::int64_t> cell_values_;  // value of each cell, kTailCell past the table
  CellValueGuide value_guide_;             // over table_, sharing cell_values_
};
}  // namespace detail

//! Sampler for Poisson{lambda}. Range: the non-negative integers (as doubles),
//! any of them possible; 0 is possible.
//! Method: lambda == 0: point mass at 0, no randomness. Otherwise the
//! inversion table (one 64-bit output per variate outside the far tails),
//! unless the table would exceed options.max_table cells and lambda >= 10, in
//! which case PTRS (two outputs per trial, about 1.1 trials per variate).
class PoissonSampler : public detail::TableOrRejection<PoissonSampler> {
 public:
  //! Throws engine::InputError unless lambda >= 0 and finite.
  explicit PoissonSampler(const Poisson& law, const DiscreteOptions& options = {});

 private:
  friend class detail::TableOrRejection<PoissonSampler>;
  void choose_method(const DiscreteOptions& options);  // point, table or PTRS
  double tail(bool upper, engine::Generator& gen) const;  // cold: conditional tail search
  // PTRS, Hörmann (1993) §3 (algorithm PTRS), valid for lambda >= 10.
  double rejection(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const PortableDiscrete& form = portable_;  // lambda and the PTRS constants
    for (;;) {
      const auto [u, v, us] = detail::TrsPoint::draw(gen);
      const double k = std::floor((2.0 * form.a / us + form.b) * u + form.lambda + 0.43);
      if (us >= 0.07 && v <= form.v_r) return k;
      if (k < 0.0 || (us < 0.013 && v > us)) continue;
      if (std::log(v) + form.log_inv_alpha - std::log(form.a / (us * us) + form.b) <=
          detail::poisson_log_pmf(k, form.lambda)) {
        return k;
      }
    }
  }
};

//! Sampler for Binomial{trials, p}. Range: the integers 0..trials (as
//! doubles), each possible when 0 < p < 1.
//! Method: p == 0, p == 1 or trials == 0: point mass, no randomness.
//! Otherwise, on p' = min(p, 1-p) (returning trials - k when p > 1/2): the
//! inversion table, unless it would exceed options.max_table cells and
//! trials·p' >= 10, in which case BTRS.
class BinomialSampler : public detail::TableOrRejection<BinomialSampler> {
 public:
  //! Throws engine::InputError unless 0 <= trials <= 2^53 and 0 <= p <= 1.
  //! Its table() is that of Binomial(trials, min(p, 1-p)).
  explicit BinomialSampler(const Binomial& law, const DiscreteOptions& options = {});

 private:
  friend class detail::TableOrRejection<BinomialSampler>;
  void choose_method(const Binomial& law, const DiscreteOptions& options);  // point, table or BTRS
  double tail(bool upper, engine::Generator& gen) const;  // cold: conditional tail search
  // BTRS, Hörmann (1993) §3 (algorithm BTRS), on p' = min(p, 1-p), valid for
  // n p' >= 10; the acceptance compares with f(k)/f(m), m the mode.
  double rejection(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const PortableDiscrete& form = portable_;  // the law on p' and the BTRS constants
    for (;;) {
      const auto [u, v, us] = detail::TrsPoint::draw(gen);
      const double k = std::floor((2.0 * form.a / us + form.b) * u + form.c);
      if (k < 0.0 || k > form.n) continue;
      if ((us >= 0.07 && v <= form.v_r) ||
          std::log(v * form.alpha / (form.a / (us * us) + form.b)) <=
              detail::binomial_log_pmf(k, form.n, form.p, form.q) - form.log_pmf_mode) {
        return form.flip ? form.n - k : k;
      }
    }
  }
};

}  // namespace lbmc::dist
