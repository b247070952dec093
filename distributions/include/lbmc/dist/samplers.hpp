// Random samplers for the load laws: our own code, not std::*_distribution, so
// that a (seed, block) pair means the same numbers with every compiler and
// standard library (DESIGN §2, §7).
//
// Design note
// - One class per law of laws.hpp, built once from the law and then called as
//   `double x = sampler(gen)` with an engine::Generator (pcg64). operator() is
//   const and writes no shared state, so one sampler may serve every thread,
//   each with its own generator. Building is the expensive part (tables): build
//   once per parameter point, outside the replication loop (visit_sampler).
// - Normal and exponential: the ziggurat of Marsaglia & Tsang (2000), "The
//   ziggurat method for generating random variables", J. Stat. Softw. 5(8),
//   with 256 layers of equal area v. The tables (r, v, the layer edges x_i and
//   f(x_i)) are solved once per process from the defining equations in
//   double-double arithmetic, using only + - * / and sqrt, then rounded to
//   double, so they are the same on every IEEE-754 platform. Fast path: one
//   64-bit output; bits 0-7 pick the layer i, bit 8 the sign (normal), bits
//   12-63 a 52-bit integer m; the abscissa is (2m+1)·2^-53·x_i, accepted at once
//   when it lies inside the layer's inner rectangle (an integer compare;
//   98.5% of normal, 97.8% of exponential draws).
//   Otherwise the wedge test against f, or the exact tail: Marsaglia (1964)
//   for the normal, memorylessness (r + a fresh variate) for the exponential.
// - Uniform: a + (b - a)·u, u on the 2^-53 grid, clamped below b.
// - Poisson and binomial: inversion of a cumulative table of 63-bit integer
//   thresholds with a Chen & Asau (1974) guide table, over the range outside of
//   which each tail holds at most `tail_mass` (2^-32, by a geometric bound:
//   both laws are log-concave); outside it an exact sequential search on the
//   conditional tail law. Binomials use p' = min(p, 1-p) and return M - k when
//   p > 1/2. When the table would exceed `max_table` (2^16) cells, transformed
//   rejection:
//   PTRS for Poisson (Hörmann 1993, Insurance Math. Econom. 12:39-45) and
//   BTRS for binomial (Hörmann 1993, J. Stat. Comput. Simul. 46:101-110),
//   All probabilities come from Loader's (2000) saddle-point formulas, in log
//   space, stable for any parameter size (no Boost cdf: at M ~ 2^53 it is off
//   by up to 5e-5). Point masses (p in {0,1}, M = 0, lambda = 0) and
//   the constant consume no randomness.
// - Reproducibility: fast paths use integer operations and one or two IEEE
//   multiplications and additions. Slow paths (1.5-2.2% of normal and
//   exponential draws, the rejection samplers' final tests) call std::exp and
//   std::log; a C library whose last bit differs could flip one accept/reject
//   decision with a probability of order 1e-16 per draw.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/rng.hpp"

// No fused multiply-add in the samplers' arithmetic: a contracted mu + sigma·z
// rounds differently, and the same seed must give the same bits on every
// target. (GCC in ISO mode, -std=c++20, already does not contract.)
#if defined(__clang__)
#define LBMC_SAMPLER_NO_FP_CONTRACT _Pragma("clang fp contract(off)")
#else
#define LBMC_SAMPLER_NO_FP_CONTRACT
#endif

namespace lbmc::dist {

//! Ziggurat tables for a decreasing density shape f on [0, inf) with f(0) = 1
//! (normal: exp(-x^2/2); exponential: exp(-x)), Marsaglia & Tsang (2000) §2.
//! Layer 0 is the base strip (the rectangle [0, r] x [0, f(r)] plus the tail
//! beyond r, as one strip of width x_0 = v/f(r)); layer i >= 1 is the
//! rectangle [0, x_i] x [f(x_i), f(x_{i+1})]. Every layer has area v:
//!   v = r f(r) + \int_r^inf f,   x_i (f(x_{i+1}) - f(x_i)) = v,
//! with x_1 = r and x_256 = 0 (f(x_256) = 1), which fixes r.
struct ZigguratTable {
  static constexpr std::size_t kLayers = 256;
  //! The fast-path data of one layer, together in one 16-byte slot.
  struct Layer {
    //! Abscissae (2m+1)·scale with m < accept are inside the inner rectangle
    //! (computed product <= x_{i+1}); m == accept is not. 0 for the top layer.
    std::uint64_t accept;
    //! x_i · 2^-53: the abscissa for m is (2m+1)·scale, in (0, x_i).
    double scale;
  };
  double r = 0.0;                       //!< start of the tail, x_1
  double v = 0.0;                       //!< common area of the layers
  std::array<double, kLayers + 1> x{};  //!< x_0 = v/f(r) > x_1 = r > ... > x_256 = 0
  std::array<double, kLayers + 1> f{};  //!< f(x_i); f_0 = 0 (bottom of the base strip), f_256 = 1
  std::array<Layer, kLayers> layer{};
};

//! The normal ziggurat, f(x) = exp(-x^2/2) (r ≈ 3.6541528853610088), built on
//! first use (about a millisecond), thread-safe.
const ZigguratTable& normal_ziggurat();
//! The exponential ziggurat, f(x) = exp(-x) (r ≈ 7.6971174701310497), built on
//! first use, thread-safe.
const ZigguratTable& exponential_ziggurat();

namespace detail {
//! 2m + 1 as a double, exactly, for m < 2^52 (through a signed conversion,
//! which is one instruction on x86-64, unlike the unsigned one).
inline double odd_to_double(std::uint64_t m) noexcept {
  return static_cast<double>(static_cast<std::int64_t>(2 * m + 1));
}

//! Calls f(copy of gen) and writes the copy back. Cold paths that need the
//! generator go through this, so that the caller's generator never has its
//! address passed to an out-of-line function and can live in registers.
template <class F>
auto with_generator_copy(engine::Generator& gen, F&& f) {
  engine::Generator local = gen;
  auto result = std::forward<F>(f)(local);
  gen = local;
  return result;
}

// Cold paths of the ziggurats, out of line (samplers.cpp).
//! A standard half-normal variate conditioned on X > r (Marsaglia 1964): in (r, inf).
double normal_tail(double r, engine::Generator& gen);
//! The wedge test of layer i >= 1 at abscissa z with u uniform on [0, 1):
//! whether f(x_i) + u (f(x_{i+1}) - f(x_i)) < f(z).
bool normal_under_curve(const ZigguratTable& t, std::size_t i, double z, double u) noexcept;
bool exponential_under_curve(const ZigguratTable& t, std::size_t i, double z, double u) noexcept;

//! log P(X = k) for Poisson(lambda), k >= 0 an integer, lambda > 0, by Loader
//! (2000) "Fast and accurate computation of binomial probabilities" eq. (5):
//! -stirlerr(k) - bd0(k, lambda) - log(2 pi k)/2; no cancellation for large lambda.
double poisson_log_pmf(double k, double lambda);
//! log P(X = k) for Binomial(n, p), q = 1 - p given separately; Loader (2000) eq. (4).
double binomial_log_pmf(double k, double n, double p, double q);

//! Inversion table (cumulative 63-bit thresholds) with a Chen & Asau guide.
//! Cell 0 is "below the table", cells 1..n the values lo..lo+n-1, cell n+1
//! "above the table".
class InversionTable {
 public:
  InversionTable() = default;
  //! `probs[j]` = P(X = lo + j); `below` = P(X < lo); `above` = P(X > lo + n - 1).
  InversionTable(double lo, const std::vector<double>& probs, double below, double above);

  //! The cell of the 63-bit uniform integer u: smallest i with u < threshold_i.
  std::size_t locate(std::uint64_t u) const noexcept {
    const std::uint64_t* thr = thresholds_.data();
    std::size_t i = guide_[static_cast<std::size_t>(u >> shift_)];
    i += static_cast<std::size_t>(u >= thr[i]);  // branch-free: most searches end here
    i += static_cast<std::size_t>(u >= thr[i]);
    while (u >= thr[i]) ++i;  // rare; thr[n+1] = 2^63 > u stops it
    return i;
  }
  //! The value of cell 1.
  double lo() const noexcept { return lo_; }
  //! The number n of table cells (values lo .. lo + n - 1).
  std::size_t size() const noexcept { return n_; }
  //! P(X < lo) and P(X > lo + n - 1), as given.
  double below() const noexcept { return below_; }
  double above() const noexcept { return above_; }
  //! thresholds[i] = 2^63 · P(cell < i+1), quantized; thresholds[n+1] = 2^63.
  const std::vector<std::uint64_t>& thresholds() const noexcept { return thresholds_; }

 private:
  double lo_ = 0.0;
  double below_ = 0.0;
  double above_ = 0.0;
  std::size_t n_ = 0;
  unsigned shift_ = 63;
  std::vector<std::uint64_t> thresholds_;
  std::vector<std::uint32_t> guide_;
};
}  // namespace detail

//! Standard-normal based sampler for Normal{mu, sigma}: mu + sigma·z.
//! Range: any finite double (unless mu + sigma·z overflows); z is never 0 and
//! is symmetric in sign, |z| >= 2^-53·x_255 ≈ 2.4e-17. One 64-bit output per
//! variate on the fast path (98.5% of draws).
class NormalSampler {
 public:
  //! Throws engine::InputError unless sigma > 0 and both are finite.
  explicit NormalSampler(const Normal& law);

  //! One variate.
  double operator()(engine::Generator& gen) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const ZigguratTable& t = *table_;
    for (;;) {
      const std::uint64_t bits = gen();
      const std::size_t i = static_cast<std::size_t>(bits & 0xffu);
      const std::uint64_t m = bits >> 12;
      const std::uint64_t sign = (bits & 0x100u) << 55;  // bit 8 -> the sign bit
      const ZigguratTable::Layer& layer = t.layer[i];
      double z = detail::odd_to_double(m) * layer.scale;
      if (m >= layer.accept) [[unlikely]] {
        if (i == 0) {
          z = detail::with_generator_copy(
              gen, [&t](engine::Generator& g) { return detail::normal_tail(t.r, g); });
        } else if (!detail::normal_under_curve(t, i, z, engine::uniform01(gen))) {
          continue;
        }
      }
      return mu_ + sigma_ * std::bit_cast<double>(std::bit_cast<std::uint64_t>(z) | sign);
    }
  }

  //! The law the sampler was built from.
  const Normal& law() const noexcept { return law_; }

 private:
  Normal law_;
  double mu_;
  double sigma_;
  const ZigguratTable* table_;
};

//! Sampler for Exponential{mean}: mean·e with e a standard exponential.
//! Range: (0, inf); 0 is impossible (e >= 2^-53·x_255 ≈ 7.1e-18, so as long as
//! mean·7.1e-18 does not underflow), inf impossible. One 64-bit output per
//! variate on the fast path (97.8% of draws).
class ExponentialSampler {
 public:
  //! Throws engine::InputError unless mean > 0 and finite.
  explicit ExponentialSampler(const Exponential& law);

  //! One variate.
  double operator()(engine::Generator& gen) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const ZigguratTable& t = *table_;
    double offset = 0.0;  // r per visit to the tail: X | X > r  ~  r + X
    for (;;) {
      const std::uint64_t bits = gen();
      const std::size_t i = static_cast<std::size_t>(bits & 0xffu);
      const std::uint64_t m = bits >> 12;
      const ZigguratTable::Layer& layer = t.layer[i];
      const double z = detail::odd_to_double(m) * layer.scale;
      if (m < layer.accept) [[likely]]
        return mean_ * (offset + z);
      if (i == 0) {
        offset += t.r;
      } else if (detail::exponential_under_curve(t, i, z, engine::uniform01(gen))) {
        return mean_ * (offset + z);
      }
    }
  }

  //! The law the sampler was built from.
  const Exponential& law() const noexcept { return law_; }

 private:
  Exponential law_;
  double mean_;
  const ZigguratTable* table_;
};

//! Sampler for Uniform{a, b}: a + (b - a)·u with u = engine::uniform01 (the
//! 2^-53 grid on [0, 1)). Range: [a, b); a is possible, b is not (a result that
//! rounds up to b is replaced by the largest double below b). If b - a
//! overflows, a + h·u + h·u with h = b/2 - a/2 is used instead.
class UniformSampler {
 public:
  //! Throws engine::InputError unless a < b, both finite.
  explicit UniformSampler(const Uniform& law);

  //! One variate; one 64-bit output.
  double operator()(engine::Generator& gen) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const double u = engine::uniform01(gen);
    double x;
    if (!split_) [[likely]] {
      x = a_ + width_ * u;
    } else {
      const double t = width_ * u;  // width_ holds h here
      x = (a_ + t) + t;
    }
    return x < below_b_ ? x : below_b_;
  }

  //! The law the sampler was built from.
  const Uniform& law() const noexcept { return law_; }

 private:
  Uniform law_;
  double a_;
  double width_;
  double below_b_;
  bool split_ = false;
};

//! Sampler for Constant{value}. Range: {value}. Consumes no randomness.
class ConstantSampler {
 public:
  explicit ConstantSampler(const Constant& law) noexcept : law_(law) {}
  //! Returns the value; the generator is not advanced.
  double operator()(engine::Generator& /*gen*/) const noexcept { return law_.value; }
  //! The law the sampler was built from.
  const Constant& law() const noexcept { return law_; }

 private:
  Constant law_;
};

//! How a Poisson or binomial sampler draws: a point mass (no randomness), the
//! inversion table, or transformed rejection (PTRS / BTRS).
enum class DiscreteMethod { point, table, rejection };

//! Construction options of the Poisson and binomial samplers.
struct DiscreteOptions {
  //! The table covers [lo, hi], walked out from the mode until the geometric
  //! bounds on P(X < lo) and P(X > hi) are <= tail_mass; beyond it, exact
  //! sequential search. In (0, 0.25].
  double tail_mass = 0x1p-32;
  //! Largest table, in cells (hi - lo + 1), before switching to rejection.
  std::size_t max_table = std::size_t{1} << 16;
};

//! Sampler for Poisson{lambda}. Range: the non-negative integers (as doubles),
//! any of them possible; 0 is possible.
//! Method: lambda == 0: point mass at 0, no randomness. Otherwise the
//! inversion table (one 64-bit output per variate outside the far tails),
//! unless the table would exceed options.max_table cells and lambda >= 10, in
//! which case PTRS (two outputs per trial, about 1.1 trials per variate).
class PoissonSampler {
 public:
  //! Throws engine::InputError unless lambda >= 0 and finite.
  explicit PoissonSampler(const Poisson& law, const DiscreteOptions& options = {});

  //! One variate.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    if (method_ == DiscreteMethod::table) [[likely]] {
      const std::size_t i = table_.locate(gen() >> 1);
      if (i - 1 < table_.size()) [[likely]]
        return table_.lo() + static_cast<double>(static_cast<std::int64_t>(i - 1));
      return detail::with_generator_copy(
          gen, [this, i](engine::Generator& g) { return tail(i != 0, g); });
    }
    if (method_ == DiscreteMethod::rejection) return ptrs(gen);
    return 0.0;
  }

  //! How this sampler draws (decided in the constructor).
  DiscreteMethod method() const noexcept { return method_; }
  //! The law the sampler was built from.
  const Poisson& law() const noexcept { return law_; }
  //! The inversion table (empty unless method() == table).
  const detail::InversionTable& table() const noexcept { return table_; }

 private:
  // PTRS, Hörmann (1993) §3 (algorithm PTRS), valid for lambda >= 10.
  double ptrs(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    for (;;) {
      const double u = engine::uniform_open01(gen) - 0.5;  // U in (-1/2, 1/2)
      const double v = engine::uniform_open01(gen);        // V in (0, 1)
      const double us = 0.5 - std::abs(u);
      const double k = std::floor((2.0 * a_ / us + b_) * u + law_.lambda + 0.43);
      if (us >= 0.07 && v <= v_r_) return k;
      if (k < 0.0 || (us < 0.013 && v > us)) continue;
      if (std::log(v) + log_inv_alpha_ - std::log(a_ / (us * us) + b_) <=
          detail::poisson_log_pmf(k, law_.lambda)) {
        return k;
      }
    }
  }
  double tail(bool upper, engine::Generator& gen) const;  // cold: conditional tail search

  Poisson law_;
  DiscreteMethod method_ = DiscreteMethod::point;
  detail::InversionTable table_;
  double a_ = 0.0, b_ = 0.0, v_r_ = 0.0, log_inv_alpha_ = 0.0;  // PTRS constants
};

//! Sampler for Binomial{trials, p}. Range: the integers 0..trials (as
//! doubles), each possible when 0 < p < 1.
//! Method: p == 0, p == 1 or trials == 0: point mass, no randomness.
//! Otherwise, on p' = min(p, 1-p) (returning trials - k when p > 1/2): the
//! inversion table, unless it would exceed options.max_table cells and
//! trials·p' >= 10, in which case BTRS.
class BinomialSampler {
 public:
  //! Throws engine::InputError unless 0 <= trials <= 2^53 and 0 <= p <= 1.
  explicit BinomialSampler(const Binomial& law, const DiscreteOptions& options = {});

  //! One variate.
  double operator()(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    if (method_ == DiscreteMethod::table) [[likely]] {
      const std::size_t i = table_.locate(gen() >> 1);
      if (i - 1 < table_.size()) [[likely]]
        return table_base_ + table_step_ * static_cast<double>(static_cast<std::int64_t>(i - 1));
      return detail::with_generator_copy(
          gen, [this, i](engine::Generator& g) { return tail(i != 0, g); });
    }
    if (method_ == DiscreteMethod::rejection) return btrs(gen);
    return point_;
  }

  //! How this sampler draws (decided in the constructor).
  DiscreteMethod method() const noexcept { return method_; }
  //! The law the sampler was built from.
  const Binomial& law() const noexcept { return law_; }
  //! The inversion table of Binomial(trials, min(p, 1-p)) (empty unless
  //! method() == table).
  const detail::InversionTable& table() const noexcept { return table_; }

 private:
  // BTRS, Hörmann (1993) §3 (algorithm BTRS), on p' = min(p, 1-p), valid for
  // n p' >= 10; the acceptance compares with f(k)/f(m), m the mode.
  double btrs(engine::Generator& gen) const {
    LBMC_SAMPLER_NO_FP_CONTRACT
    for (;;) {
      const double u = engine::uniform_open01(gen) - 0.5;
      const double v = engine::uniform_open01(gen);
      const double us = 0.5 - std::abs(u);
      const double k = std::floor((2.0 * a_ / us + b_) * u + c_);
      if (k < 0.0 || k > n_) continue;
      if ((us >= 0.07 && v <= v_r_) ||
          std::log(v * alpha_ / (a_ / (us * us) + b_)) <=
              detail::binomial_log_pmf(k, n_, p_, q_) - log_pmf_mode_) {
        return flip_ ? n_ - k : k;
      }
    }
  }
  double tail(bool upper, engine::Generator& gen) const;  // cold: conditional tail search

  Binomial law_;
  DiscreteMethod method_ = DiscreteMethod::point;
  double point_ = 0.0;
  detail::InversionTable table_;                // of Binomial(trials, min(p, 1-p))
  double table_base_ = 0.0, table_step_ = 1.0;  // value of cell 1, and +-1 per cell
  // BTRS constants (on p' = min(p, 1-p)).
  double n_ = 0.0, p_ = 0.0, q_ = 0.0;
  double a_ = 0.0, b_ = 0.0, c_ = 0.0, v_r_ = 0.0, alpha_ = 0.0, log_pmf_mode_ = 0.0;
  bool flip_ = false;
};

//! The sampler type of a law type: sampler_for_t<Normal> is NormalSampler, ...
template <class Law>
struct SamplerFor;
template <>
struct SamplerFor<Normal> {
  using type = NormalSampler;
};
template <>
struct SamplerFor<Binomial> {
  using type = BinomialSampler;
};
template <>
struct SamplerFor<Poisson> {
  using type = PoissonSampler;
};
template <>
struct SamplerFor<Exponential> {
  using type = ExponentialSampler;
};
template <>
struct SamplerFor<Uniform> {
  using type = UniformSampler;
};
template <>
struct SamplerFor<Constant> {
  using type = ConstantSampler;
};
template <class Law>
using sampler_for_t = typename SamplerFor<Law>::type;

//! Builds the sampler of the law held in `law` (default options) and returns
//! f(sampler), with the sampler passed as a const lvalue of its concrete type,
//! so that a hot loop inside f is compiled once per sampler type with no
//! per-draw dispatch. f must return the same type for every sampler type and
//! must not return a reference into the sampler (it dies on return). Build
//! cost: see each sampler (tables); call it once per parameter point.
template <class F>
decltype(auto) visit_sampler(const LoadLaw& law, F&& f) {
  return std::visit(
      [&f](const auto& l) -> decltype(auto) {
        const sampler_for_t<std::decay_t<decltype(l)>> sampler(l);
        return std::invoke(std::forward<F>(f), sampler);
      },
      law);
}

}  // namespace lbmc::dist
