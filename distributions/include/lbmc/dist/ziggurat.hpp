// Normal and exponential samplers by the ziggurat (part of samplers.hpp, which
// is the header to include).
//
// Design note
// - The ziggurat of Marsaglia & Tsang (2000), "The ziggurat method for
//   generating random variables", J. Stat. Softw. 5(8), with layers of equal
//   area v: 512 for the normal, 1024 for the exponential. The tables (r, v,
//   the layer edges x_i and f(x_i)) are solved once per process from the
//   defining equations in double-double arithmetic, using only + - * / and
//   sqrt, then rounded to double, so they are the same on every IEEE-754
//   platform (ziggurat.cpp).
// - Fast path: one 64-bit output; bits 0-9 pick one of 1024 entries (normal:
//   the layer i and the sign, from a copy of the layers with negated scales
//   beside the positive ones; exponential: the layer), bits 12-63 a 52-bit
//   integer m; the abscissa is (2m+1)·2^-53·x_i, accepted at once when it
//   lies inside the layer's inner rectangle (an integer compare; 99.2% of
//   normal, 99.36% of exponential draws). More layers than the paper's 128
//   or 256 make the rare branch rarer, and it is the costly one: it is
//   mispredicted, and its wedge test's outcome is a coin flip. 1024 entries
//   of 16 bytes stay in the L1 cache.
// - Otherwise the wedge test against f, or the exact tail: Marsaglia (1964)
//   for the normal, memorylessness (r + a fresh variate) for the exponential.
//   The wedge test (0.6-0.7% of draws) first compares with Taylor bounds on
//   f and calls std::exp only between them (about 0.1% of wedge tests), where
//   it decides as the comparison with std::exp alone would; the normal tail
//   calls std::log. A C library whose last bit differs could flip one
//   accept/reject decision there with a probability of order 1e-16 per draw.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/sampler_support.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::dist {

//! Ziggurat tables for a decreasing density shape f on [0, inf) with f(0) = 1
//! (normal: exp(-x^2/2); exponential: exp(-x); the gamma's X^K:
//! exp(-x^(1/K)), gamma_ziggurat.hpp), Marsaglia & Tsang (2000) §2.
//! Layer 0 is the base strip (the rectangle [0, r] x [0, f(r)] plus the tail
//! beyond r, as one strip of width x_0 = v/f(r)); layer i >= 1 is the
//! rectangle [0, x_i] x [f(x_i), f(x_{i+1})]. Every layer has area v:
//!   v = r f(r) + \int_r^inf f,   x_i (f(x_{i+1}) - f(x_i)) = v,
//! with x_1 = r and x_L = 0 (f(x_L) = 1), which fixes r.
//! Signed tables (the normal) index their fast path by the layer and a sign.
template <std::size_t Layers, bool Signed>
struct ZigguratTable {
  static_assert(std::has_single_bit(Layers));
  //! The number L of layers.
  static constexpr std::size_t kLayers = Layers;
  //! Fast-path entries: the layers, times two signs for a signed table.
  static constexpr std::size_t kEntries = Signed ? 2 * Layers : Layers;
  //! The low bits of a draw that pick the entry j (layer j mod L; for a
  //! signed table, negative for j >= L).
  static constexpr std::uint64_t kEntryMask = kEntries - 1;
  double r = 0.0;                       //!< start of the tail, x_1
  double v = 0.0;                       //!< common area of the layers
  std::array<double, kLayers + 1> x{};  //!< x_0 = v/f(r) > x_1 = r > ... > x_L = 0
  std::array<double, kLayers + 1> f{};  //!< f(x_i); f_0 = 0 (bottom of the base strip), f_L = 1
  //! The fast path, indexed by the entry j. Separate arrays of 8-byte entries
  //! are addressed by the index directly.
  //! accept[j]: abscissae (2m+1)·|scale[j]| with m < accept[j] are inside the
  //! inner rectangle (computed product <= x_{i+1}); m == accept[j] is not. 0
  //! for the top layer. Both signs' entries are the same.
  std::array<std::uint64_t, kEntries> accept{};
  //! scale[j] = ±x_i · 2^-53: the abscissa for m is (2m+1)·scale[j], with
  //! magnitude in (0, x_i); − for the negative entries of a signed table.
  std::array<double, kEntries> scale{};
};

//! The normal's table: 512 layers, both signs (10 index bits); 0.8% of draws
//! leave the fast path (1.5% with 256 layers).
using NormalZiggurat = ZigguratTable<512, true>;
//! The exponential's table: 1024 layers (10 index bits); 0.64% of draws leave
//! the fast path (2.2% with 256 layers).
using ExponentialZiggurat = ZigguratTable<1024, false>;

//! The normal ziggurat, f(x) = exp(-x^2/2) (r ≈ 3.85204615036839), built on
//! first use (about 6 ms), thread-safe.
const NormalZiggurat& normal_ziggurat();
//! The exponential ziggurat, f(x) = exp(-x) (r ≈ 9.2561645442655), built on
//! first use (about 11 ms), thread-safe.
const ExponentialZiggurat& exponential_ziggurat();

namespace detail {
//! 2m + 1 as a double, exactly, for m < 2^52 (through a signed conversion,
//! which is one instruction on x86-64, unlike the unsigned one).
inline double odd_to_double(std::uint64_t m) noexcept {
  return static_cast<double>(static_cast<std::int64_t>(2 * m + 1));
}

//! The fast path's reading of one 64-bit output: the low bits pick the
//! entry j (bits 0-9 for 1024 entries), bits 12-63 a 52-bit integer m, and
//! the abscissa is z = (2m+1)·scale[j]; the point lies inside the layer's
//! inner rectangle when m < accept[j].
struct ZigguratPoint {
  std::size_t entry;
  std::uint64_t m;
  double z;
  //! Whether the point is inside its layer's inner rectangle.
  template <class Table>
  bool inside(const Table& t) const noexcept {
    return m < t.accept[entry];
  }
};
template <class Table>
inline ZigguratPoint ziggurat_point(const Table& t, std::uint64_t bits) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  const auto j = static_cast<std::size_t>(bits & t.kEntryMask);
  const std::uint64_t m = bits >> 12;
  return {j, m, odd_to_double(m) * t.scale[j]};
}

//! A standard half-normal variate conditioned on X > r (Marsaglia 1964): in (r, inf).
//! Inline, with the caller's generator: through a copy of it on the stack
//! (or an out-of-line call taking it by reference), kernels that keep a
//! double across their draws held the generator's state in memory on the
//! fast path too, and a draw cost 3.5x as much. Marsaglia & Tsang (2000) §4:
//! x = -log(U1)/r, y = -log(U2) until 2y > x^2; then r + x.
template <engine::UniformWords Gen>
inline double normal_tail(double r, Gen& gen) {
  for (;;) {
    const double x = -std::log(engine::uniform_open01(gen)) / r;
    const double y = -std::log(engine::uniform_open01(gen));
    if (y + y > x * x) return r + x;
  }
}
//! y < exp(-s), with the C library's exp: out of line, for the rare wedge
//! points that the bounds below leave open.
bool below_exp(double y, double s) noexcept;

//! Whether the height y lies under the curve f(z) = e^{-s(z)} (s(z) = z or
//! z²/2), where top = f(x_{i+1}) and d = s(z) − s(x_{i+1}) >= 0, decided
//! exactly as below_exp(y, s(z)) decides it. For d >= 0 the Taylor remainders
//! of e^{-d} alternate in sign, so
//!   1 − d + d²/2 − d³/6  <=  e^{-d}  <=  1 − d + d²/2,
//! and only points between the two (about 0.1% of wedge tests) call exp.
//! The bounds, evaluated in double from the rounded table, are within
//! 1e-14·top of e^{-s(z)}, and a C library's exp within 2^-52 relative; the
//! slack 2^-36·top exceeds both, so outside it the bounds decide as exp would.
//! Inline, with no branch on the outcome itself: the sampler's accept/reject
//! branch is the only one taken at random.
inline bool under_curve(double y, double top, double d, double s) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  const double upper = 1.0 - d * (1.0 - 0.5 * d);
  const double lower = upper - d * d * d * (1.0 / 6.0);
  const double slack = top * 0x1p-36;
  const bool below = y < top * lower - slack;
  const bool above = y > top * upper + slack;
  if (!below && !above) [[unlikely]]
    return below_exp(y, s);
  return below;
}

//! The height of the point drawn in layer i >= 1: uniform (u in [0, 1))
//! between the layer's bottom f(x_i) and its top f(x_{i+1}).
template <class Table>
inline double wedge_height(const Table& t, std::size_t i, double u) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  return t.f[i] + u * (t.f[i + 1] - t.f[i]);
}

//! The wedge test of layer i >= 1 at abscissa z (signed, |z| > x_{i+1}: the
//! fast path failed) with u uniform on [0, 1): whether the height
//! f(x_i) + u (f(x_{i+1}) - f(x_i)) lies under f(z) = exp(-z²/2).
inline bool normal_under_curve(const NormalZiggurat& t, std::size_t i, double z, double u) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  const double edge = t.x[i + 1];
  const double a = z < 0.0 ? -z : z;
  return under_curve(wedge_height(t, i, u), t.f[i + 1], 0.5 * (a - edge) * (a + edge), 0.5 * z * z);
}
//! The same wedge test for the exponential shape f(z) = exp(-z), z > x_{i+1}.
inline bool exponential_under_curve(const ExponentialZiggurat& t, std::size_t i, double z, double u) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  return under_curve(wedge_height(t, i, u), t.f[i + 1], z - t.x[i + 1], z);
}
}  // namespace detail

//! Standard-normal based sampler for Normal{mu, sigma}: mu + sigma·z.
//! Range: any finite double (unless mu + sigma·z overflows); z is never 0 and
//! is symmetric in sign, |z| >= 2^-53·x_511 ≈ 1.9e-17. One 64-bit output per
//! variate on the fast path (99.2% of draws).
class NormalSampler {
 public:
  //! Throws engine::InputError unless sigma > 0 and both are finite.
  explicit NormalSampler(const Normal& law);

  //! One variate from pcg64.
  double operator()(engine::Generator& gen) const noexcept { return draw(gen); }
  //! One variate from another stream (the counter-based one), inlined into
  //! its kernel whatever the size of the two together.
  template <engine::UniformWords Gen>
    requires(!std::same_as<Gen, engine::Generator>)
  [[gnu::always_inline]] double operator()(Gen& gen) const noexcept {
    return draw(gen);
  }

 private:
  // One variate from `gen`, inlined into each caller.
  template <engine::UniformWords Gen>
  [[gnu::always_inline]] double draw(Gen& gen) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const NormalZiggurat& t = *table_;
    for (;;) {
      const detail::ZigguratPoint p = detail::ziggurat_point(t, gen());
      const std::size_t j = p.entry;  // layer and sign
      double z = p.z;                 // the signed abscissa
      if (!p.inside(t)) [[unlikely]] {
        const std::size_t i = j % t.kLayers;
        if (i == 0) {
          const double tail = detail::normal_tail(t.r, gen);
          z = j == i ? tail : -tail;
        } else if (!detail::normal_under_curve(t, i, z, engine::uniform01(gen))) {
          continue;
        }
      }
      return mu_ + sigma_ * z;
    }
  }

  double mu_;
  double sigma_;
  const NormalZiggurat* table_;
};

//! Sampler for Exponential{mean}: mean·e with e a standard exponential.
//! Range: (0, inf); 0 is impossible (e >= 2^-53·x_1023 ≈ 3.5e-18, so as long
//! as mean·3.5e-18 does not underflow), inf impossible. One 64-bit output per
//! variate on the fast path (99.36% of draws).
class ExponentialSampler {
 public:
  //! Throws engine::InputError unless mean > 0 and finite.
  explicit ExponentialSampler(const Exponential& law);

  //! One variate.
  template <engine::UniformWords Gen>
  double operator()(Gen& gen) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const ExponentialZiggurat& t = *table_;
    // Inline, like the normal's, so that the generator stays in registers.
    double offset = 0.0;  // r per visit to the base strip's tail (X | X > r ~ r + X)
    for (;;) {
      const detail::ZigguratPoint p = detail::ziggurat_point(t, gen());
      if (!p.inside(t)) [[unlikely]] {
        if (p.entry == 0) {
          offset += t.r;
          continue;
        }
        if (!detail::exponential_under_curve(t, p.entry, p.z, engine::uniform01(gen))) continue;
      }
      return mean_ * (offset + p.z);
    }
  }

 private:
  double mean_;
  const ExponentialZiggurat* table_;
};

}  // namespace lbmc::dist
