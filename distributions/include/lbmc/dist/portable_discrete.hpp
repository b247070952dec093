// The Poisson and binomial samplers of the counter-based stream, as the host
// and a GPU both compile them (host_device.hpp). Part of samplers.hpp,
// through discrete_samplers.hpp, which documents the method.
//
// Design note
// - The same method as the pcg64 samplers (discrete_samplers.hpp): inversion
//   of the same 63-bit threshold table through the same Chen & Asau guide,
//   the same conditional tail search past the table, the same PTRS and BTRS
//   past max_table. The table is built once on the host; this form holds
//   pointers to its thresholds and guide (to the device's copies on a GPU),
//   so the cell of a draw is the pcg64 sampler's for the same output.
// - What it computes at draw time (the tails' probabilities, the rejection
//   tests) goes through lbmc's own log and exp (portable_log_pmf.hpp,
//   portable_exp_log.hpp): the same bits on the host and a GPU. The value
//   guide of the pcg64 samplers (cell_value_guide.hpp) settles most draws
//   first, as there: it hands back the value of the same cell.
// - The tail search (detail::sample_tail) is the pcg64 samplers' too. Here a
//   probability below e^-708 is taken as 0 (the search and the tail masses
//   it restarts from use the same terms, so it ends).
#pragma once

#include <cstddef>
#include <cstdint>

#include "lbmc/dist/output_range.hpp"
#include "lbmc/dist/portable_exp_log.hpp"
#include "lbmc/dist/portable_log_pmf.hpp"
#include "lbmc/engine/host_device.hpp"
#include "lbmc/engine/words.hpp"

namespace lbmc::dist {

//! How a Poisson or binomial sampler draws: a point mass (no randomness), the
//! inversion table, or transformed rejection (PTRS / BTRS).
enum class DiscreteMethod { point, table, rejection };

//! The largest Poisson or binomial table, in cells, before transformed
//! rejection takes over (by default; DiscreteOptions::max_table).
inline constexpr std::size_t kDefaultMaxTable = std::size_t{1} << 16;

namespace detail {
//! floor(x), exactly, on either side (no library call).
LBMC_HOST_DEVICE inline double exact_floor(double x) noexcept {
  if (!(x < 0x1p52 && x > -0x1p52)) return x;  // an integer already, or NaN
  const double t = static_cast<double>(static_cast<std::int64_t>(x));
  return t > x ? t - 1.0 : t;
}

//! The point of transformed rejection (Hörmann 1993): U uniform on
//! (-1/2, 1/2), V on (0, 1), and us = 1/2 - |U|; two outputs.
struct TrsPoint {
  double u, v, us;
  template <class Words>
  LBMC_HOST_DEVICE static TrsPoint draw(Words& gen) noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const double u = engine::uniform_open01(gen) - 0.5;
    const double v = engine::uniform_open01(gen);
    return {u, v, 0.5 - (u < 0.0 ? -u : u)};
  }
};

//! P(X beyond k) (step +1 or -1) of a law with pmf(k): the terms summed
//! outward from k until the geometric bound on the rest is below 2^-64 of
//! the sum (the law log-concave, discrete_samplers.cpp).
template <class Law>
LBMC_HOST_DEVICE double tail_mass(const Law& law, double k, double step) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  double sum = 0.0;
  double previous = 0.0;
  for (double j = k + step;; j += step) {
    const double p = law.pmf(j);
    if (p == 0.0) return sum;
    sum += p;
    if (previous > 0.0 && p < previous) {
      const double r = p / previous;
      if (p * r / (1.0 - r) <= 0x1p-64 * sum) return sum;
    }
    previous = p;
  }
}

//! X given X beyond k0 (step +1: X > k0; -1: X < k0), `mass` = P(X beyond
//! k0), for a law with pmf(k) and kmax: sequential inversion, X = the first
//! k whose cumulative mass from k0 exceeds u·mass (the same sums, in the
//! same order, as tail_mass). When less than 2^-16 of the mass remains, the
//! search restarts beyond the current k with a fresh uniform (X given X
//! beyond k has the same form), so the comparisons never run out of
//! resolution. Exact up to the pmf's rounding.
template <class Law, class Words>
LBMC_HOST_DEVICE double sample_tail(const Law& law, double k0, double step, double mass, Words& gen) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  for (;;) {
    if (!(mass > 0.0)) {  // unreachable in practice
      const double k = k0 + step;
      return k < 0.0 ? 0.0 : (k > law.kmax ? law.kmax : k);
    }
    const double target = engine::uniform_open01(gen) * mass;
    double acc = 0.0;
    for (double k = k0 + step;; k += step) {
      acc += law.pmf(k);
      if (target < acc) return k;
      if (mass - acc < 0x1p-16 * mass) {
        k0 = k;
        mass = tail_mass(law, k, step);
        break;
      }
    }
  }
}
}  // namespace detail

//! An InversionTable's search data (inversion_table.hpp): the cell of a
//! 63-bit uniform integer, as InversionTable::locate finds it.
struct PortableInversion {
  const std::uint64_t* thresholds;  //!< cells + 2 of them, the last 2^63
  const std::uint32_t* guide;       //!< buckets + 1 first cells
  std::uint32_t cells;              //!< table cells (values lo .. lo + cells - 1)
  std::uint32_t buckets;
  unsigned shift;                   //!< u >> shift is u's bucket

  //! The smallest i with u < thresholds[i].
  LBMC_HOST_DEVICE std::uint32_t locate(std::uint64_t u) const noexcept {
    const auto bucket = static_cast<std::uint32_t>(u >> shift);
    std::uint32_t i = guide[bucket];
    i += u >= thresholds[i] ? 1 : 0;
    i += u >= thresholds[i] ? 1 : 0;
    if (u < thresholds[i]) [[likely]] return i;
    // Bisection up to the next bucket's first cell, whose threshold exceeds u.
    std::uint32_t hi = guide[bucket + 1];
    while (i < hi) {
      const std::uint32_t mid = i + (hi - i) / 2;
      if (u >= thresholds[mid]) {
        i = mid + 1;
      } else {
        hi = mid;
      }
    }
    return i;
  }
  //! Whether every u of `range` falls in a table cell, none in a tail.
  LBMC_HOST_DEVICE bool inside(const OutputRange& range) const noexcept {
    return range.low >= thresholds[0] && range.high < thresholds[cells];
  }
};

//! One bucket of a CellValueGuide (cell_value_guide.hpp): a u of the bucket
//! below `cut` falls in a cell of value value[0], one at or above it in a
//! cell of value value[1]; a negative value: the table's search decides.
struct ValueBucket {
  std::uint64_t cut;
  std::int32_t value[2];
};

//! A CellValueGuide's data: the value of the cell of a 63-bit uniform
//! integer from one bucket, or a negative number when the table's search
//! must decide. No guide: buckets == nullptr.
struct PortableValueGuide {
  const ValueBucket* buckets = nullptr;
  std::uint32_t count = 0;  //!< the number of buckets
  unsigned shift = 63;

  LBMC_HOST_DEVICE std::int64_t value(std::uint64_t u) const noexcept {
    const ValueBucket& bucket = buckets[u >> shift];
    return bucket.value[u >= bucket.cut ? 1 : 0];
  }
};

//! Poisson{lambda} or Binomial{n, p} on the counter-based stream: a point
//! mass, the table, or PTRS/BTRS, as the pcg64 sampler it comes from
//! (PoissonSampler::portable, BinomialSampler::portable) decided. The law
//! is held reduced (binomial p <= 1/2); `flip` returns n - k.
struct PortableDiscrete {
  DiscreteMethod method = DiscreteMethod::point;
  double point = 0.0;      //!< the point mass's value
  bool binomial = false;   //!< else Poisson
  double lambda = 0.0;     //!< Poisson mean
  double n = 0.0;          //!< binomial trials
  double kmax = 0.0;       //!< the largest value: n, or infinity for Poisson
  double p = 0.0, q = 0.0;  //!< binomial p <= 1/2 and q = 1 - p
  bool flip = false;       //!< the law's p was above 1/2: return n - k
  // The table (method == table).
  PortableInversion table{};
  PortableValueGuide value_guide{};  //!< over the table, the law's values (flip applied)
  double lo = 0.0;               //!< the value of cell 1
  double below = 0.0, above = 0.0;  //!< the tails' masses beyond the table
  // PTRS (Poisson) and BTRS (binomial) constants, Hörmann (1993).
  double a = 0.0, b = 0.0, c = 0.0, v_r = 0.0;
  double log_inv_alpha = 0.0;  //!< PTRS
  double alpha = 0.0, log_pmf_mode = 0.0;  //!< BTRS
  PortableLogPmf log_pmf{};

  //! One variate.
  template <class Words>
  LBMC_HOST_DEVICE LBMC_FORCE_INLINE double operator()(Words& gen) const noexcept {
    if (method == DiscreteMethod::table) [[likely]] {
      const std::uint64_t u = gen() >> 1;
      if (value_guide.buckets != nullptr) {
        const std::int64_t value = value_guide.value(u);
        if (value >= 0) [[likely]] return static_cast<double>(value);
      }
      const std::uint32_t i = table.locate(u);
      if (i - 1u < table.cells) return table_value(i);
      const double k = tail(i != 0, gen);
      return flip ? n - k : k;
    }
    if (method == DiscreteMethod::rejection) return binomial ? btrs(gen) : ptrs(gen);
    return point;
  }
  //! The value of table cell i (1 .. cells).
  LBMC_HOST_DEVICE double table_value(std::uint32_t i) const noexcept {
    const double k = lo + static_cast<double>(i - 1u);
    return flip ? n - k : k;
  }

  //! The largest of `count` >= 1 variates drawn in turn: the same outputs
  //! and the same value as `count` calls, from the outputs' range on the
  //! table (output_range.hpp).
  template <class Words>
  LBMC_HOST_DEVICE double max_of(Words& gen, std::int64_t count) const noexcept {
    if (method == DiscreteMethod::table) [[likely]] {
      Words local = gen;
      const OutputRange range = output_range(local, count);
      if (table.inside(range)) [[likely]] {
        gen = local;
        const double low = table_value(table.locate(range.low));
        const double high = table_value(table.locate(range.high));
        return low < high ? high : low;
      }
    }
    double z = (*this)(gen);
    for (std::int64_t i = 1; i < count; ++i) {
      const double x = (*this)(gen);
      z = z < x ? x : z;
    }
    return z;
  }

  //! log P(X = k) of the reduced law.
  LBMC_HOST_DEVICE double log_probability(double k) const noexcept {
    return binomial ? log_pmf.binomial(k, n, p, q) : log_pmf.poisson(k, lambda);
  }
  //! P(X = k) of the reduced law; 0 outside its range and below e^-708.
  LBMC_HOST_DEVICE double pmf(double k) const noexcept {
    if (k < 0.0 || k > kmax) return 0.0;
    const double y = log_probability(k);
    return y > -708.0 ? detail::portable_exp_core(*log_pmf.math, y, 0) : 0.0;
  }

  //! X given X outside the table, above it when `upper`
  //! (detail::sample_tail).
  template <class Words>
  LBMC_HOST_DEVICE double tail(bool upper, Words& gen) const noexcept {
    return upper ? detail::sample_tail(*this, lo + static_cast<double>(table.cells) - 1.0, 1.0, above, gen)
                 : detail::sample_tail(*this, lo, -1.0, below, gen);
  }

  //! PTRS, Hörmann (1993) §3, valid for lambda >= 10.
  template <class Words>
  LBMC_HOST_DEVICE double ptrs(Words& gen) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    for (;;) {
      const auto [u, v, us] = detail::TrsPoint::draw(gen);
      const double k = detail::exact_floor((2.0 * a / us + b) * u + lambda + 0.43);
      if (us >= 0.07 && v <= v_r) return k;
      if (k < 0.0 || (us < 0.013 && v > us)) continue;
      if (log_pmf.log(v) + log_inv_alpha - log_pmf.log(a / (us * us) + b) <= log_pmf.poisson(k, lambda)) return k;
    }
  }

  //! BTRS, Hörmann (1993) §3, on p <= 1/2, valid for n p >= 10.
  template <class Words>
  LBMC_HOST_DEVICE double btrs(Words& gen) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    for (;;) {
      const auto [u, v, us] = detail::TrsPoint::draw(gen);
      const double k = detail::exact_floor((2.0 * a / us + b) * u + c);
      if (k < 0.0 || k > n) continue;
      if ((us >= 0.07 && v <= v_r) ||
          log_pmf.log(v * alpha / (a / (us * us) + b)) <= log_pmf.binomial(k, n, p, q) - log_pmf_mode) {
        return flip ? n - k : k;
      }
    }
  }

  //! Calls f(pointer, count) for each table it reads, whose pointer f may
  //! replace (by a device copy).
  template <class F>
  void for_each_table(F&& f) {
    if (method == DiscreteMethod::table) {
      f(table.thresholds, std::size_t{table.cells} + 2);
      f(table.guide, std::size_t{table.buckets} + 1);
      if (value_guide.buckets != nullptr) f(value_guide.buckets, std::size_t{value_guide.count});
    }
    f(log_pmf.stirlerr_small, std::size_t{kStirlerrTable});
    f(log_pmf.math, std::size_t{1});
  }
};

}  // namespace lbmc::dist
