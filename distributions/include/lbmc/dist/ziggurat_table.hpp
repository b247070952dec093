// The ziggurat tables and the normal and exponential ziggurat samplers'
// arithmetic, as the host and a GPU both compile it (host_device.hpp); part
// of samplers.hpp, through ziggurat.hpp, which documents the method.
//
// Design note
// - The functions take the tables by reference and a Math: log(x) of a
//   positive normal x, and below_exp(y, s), whether y < e^{-s}. On pcg64 the
//   samplers use the C library's (ziggurat.hpp, LibraryMath); on the
//   counter-based stream lbmc's own (portable_exp_log.hpp, PortableMath), so
//   that a GPU gives the same bits as the host.
// - Marsaglia & Tsang (2000), "The ziggurat method for generating random
//   variables", J. Stat. Softw. 5(8); the normal tail, Marsaglia (1964).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "lbmc/engine/host_device.hpp"
#include "lbmc/engine/words.hpp"

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

namespace detail {
//! 2m + 1 as a double, exactly, for m < 2^52 (through a signed conversion,
//! which is one instruction on x86-64, unlike the unsigned one).
LBMC_HOST_DEVICE inline double odd_to_double(std::uint64_t m) noexcept {
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
  LBMC_HOST_DEVICE bool inside(const Table& t) const noexcept {
    return m < t.accept[entry];
  }
};
template <class Table>
LBMC_HOST_DEVICE inline ZigguratPoint ziggurat_point(const Table& t, std::uint64_t bits) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  const auto j = static_cast<std::size_t>(bits & t.kEntryMask);
  const std::uint64_t m = bits >> 12;
  return {j, m, odd_to_double(m) * t.scale[j]};
}

//! Whether the height y lies under the curve f(z) = e^{-s(z)} (s(z) = z or
//! z²/2), where top = f(x_{i+1}) and d = s(z) − s(x_{i+1}) >= 0, decided
//! exactly as math.below_exp(y, s(z)) (y < e^{-s}) decides it. For d >= 0 the Taylor remainders
//! of e^{-d} alternate in sign, so
//!   1 − d + d²/2 − d³/6  <=  e^{-d}  <=  1 − d + d²/2,
//! and only points between the two (about 0.1% of wedge tests) call exp.
//! The bounds, evaluated in double from the rounded table, are within
//! 1e-14·top of e^{-s(z)}, and a C library's exp within 2^-52 relative; the
//! slack 2^-36·top exceeds both, so outside it the bounds decide as exp would.
//! Inline, with no branch on the outcome itself: the sampler's accept/reject
//! branch is the only one taken at random.
template <class Math>
LBMC_HOST_DEVICE inline bool under_curve(double y, double top, double d, double s, const Math& math) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  const double upper = 1.0 - d * (1.0 - 0.5 * d);
  const double lower = upper - d * d * d * (1.0 / 6.0);
  const double slack = top * 0x1p-36;
  const bool below = y < top * lower - slack;
  const bool above = y > top * upper + slack;
  if (!below && !above) [[unlikely]]
    return math.below_exp(y, s);
  return below;
}

//! The height of the point drawn in layer i >= 1: uniform (u in [0, 1))
//! between the layer's bottom f(x_i) and its top f(x_{i+1}).
template <class Table>
LBMC_HOST_DEVICE inline double wedge_height(const Table& t, std::size_t i, double u) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  return t.f[i] + u * (t.f[i + 1] - t.f[i]);
}

//! The wedge test of layer i >= 1 at abscissa z (signed, |z| > x_{i+1}: the
//! fast path failed) with u uniform on [0, 1): whether the height
//! f(x_i) + u (f(x_{i+1}) - f(x_i)) lies under f(z) = exp(-z²/2).
template <class Math>
LBMC_HOST_DEVICE inline bool normal_under_curve(const NormalZiggurat& t, std::size_t i, double z, double u,
                                                const Math& math) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  const double edge = t.x[i + 1];
  const double a = z < 0.0 ? -z : z;
  return under_curve(wedge_height(t, i, u), t.f[i + 1], 0.5 * (a - edge) * (a + edge), 0.5 * z * z, math);
}
//! The same wedge test for the exponential shape f(z) = exp(-z), z > x_{i+1}.
template <class Math>
LBMC_HOST_DEVICE inline bool exponential_under_curve(const ExponentialZiggurat& t, std::size_t i, double z, double u,
                                                     const Math& math) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  return under_curve(wedge_height(t, i, u), t.f[i + 1], z - t.x[i + 1], z, math);
}
//! A standard half-normal variate conditioned on X > r (Marsaglia 1964): in
//! (r, inf). Marsaglia & Tsang (2000) §4: x = -log(U1)/r, y = -log(U2) until
//! 2y > x^2; then r + x. Inline, with the caller's generator: through a copy
//! of it on the stack (or an out-of-line call taking it by reference),
//! kernels that keep a double across their draws held the generator's state
//! in memory on the fast path too, and a draw cost 3.5x as much.
template <class Words, class Math>
LBMC_HOST_DEVICE inline double normal_tail(double r, Words& gen, const Math& math) {
  for (;;) {
    const double x = -math.log(engine::uniform_open01(gen)) / r;
    const double y = -math.log(engine::uniform_open01(gen));
    if (y + y > x * x) return r + x;
  }
}
//! The normal's draw past the fast path: in the base strip (layer 0) the
//! tail, with entry j's sign; in layer i >= 1 the wedge test of z, which
//! returns z or, for a rejection, NaN. A function of its own, not a branch
//! of standard_normal's loop: nvcc 13 compiled that loop with this path
//! inline into kernels whose diverged threads lost their later stores.
template <class Words, class Math>
LBMC_HOST_DEVICE LBMC_FORCE_INLINE double normal_past_fast_path(const NormalZiggurat& t, std::size_t j, double z,
                                                                Words& gen, const Math& math) {
  const std::size_t i = j % t.kLayers;
  if (i == 0) {
    const double tail = normal_tail(t.r, gen, math);
    return j == i ? tail : -tail;
  }
  return normal_under_curve(t, i, z, engine::uniform01(gen), math) ? z : std::numeric_limits<double>::quiet_NaN();
}
}  // namespace detail

//! A standard normal variate: the ziggurat's fast path, else the wedge test
//! or the tail (ziggurat.hpp); one output on the fast path.
template <class Words, class Math>
LBMC_HOST_DEVICE LBMC_FORCE_INLINE double standard_normal(const NormalZiggurat& t, Words& gen, const Math& math) {
  LBMC_SAMPLER_NO_FP_CONTRACT
  for (;;) {
    const detail::ZigguratPoint p = detail::ziggurat_point(t, gen());
    const std::size_t j = p.entry;  // layer and sign
    double z = p.z;                 // the signed abscissa
    if (!p.inside(t)) [[unlikely]] {
      z = detail::normal_past_fast_path(t, j, z, gen, math);
      if (z != z) continue;  // rejected in the wedge
    }
    return z;
  }
}

//! A standard exponential variate: the ziggurat's fast path, else the wedge
//! test, or r plus a fresh variate past the base strip (memorylessness);
//! one output on the fast path.
template <class Words, class Math>
LBMC_HOST_DEVICE LBMC_FORCE_INLINE double standard_exponential(const ExponentialZiggurat& t, Words& gen,
                                                               const Math& math) {
  LBMC_SAMPLER_NO_FP_CONTRACT
  double offset = 0.0;  // r per visit to the base strip's tail (X | X > r ~ r + X)
  for (;;) {
    const detail::ZigguratPoint p = detail::ziggurat_point(t, gen());
    if (!p.inside(t)) [[unlikely]] {
      if (p.entry == 0) {
        offset += t.r;
        continue;
      }
      if (!detail::exponential_under_curve(t, p.entry, p.z, engine::uniform01(gen), math)) continue;
    }
    return offset + p.z;
  }
}

//! standard_normal from its first point (entry j, abscissa z) when that lies
//! past the fast path, the generator just past the point's output: the same
//! outputs and the same value.
template <class Words, class Math>
double standard_normal_from(const NormalZiggurat& t, std::size_t j, double z, Words& gen, const Math& math) {
  LBMC_SAMPLER_NO_FP_CONTRACT
  const double past = detail::normal_past_fast_path(t, j, z, gen, math);
  return past == past ? past : standard_normal(t, gen, math);  // rejected in the wedge: afresh
}

//! standard_exponential from its first point when that lies past the fast
//! path, the generator just past the point's output: the same outputs and
//! the same value. For the loops that draw two points at a time
//! (engine::Pcg64Pair) and leave the pair at a point the fast path leaves.
template <class Words, class Math>
double standard_exponential_from(const ExponentialZiggurat& t, detail::ZigguratPoint p, Words& gen,
                                 const Math& math) {
  LBMC_SAMPLER_NO_FP_CONTRACT
  double offset = 0.0;
  for (;;) {
    if (p.entry == 0) {
      offset += t.r;
    } else if (detail::exponential_under_curve(t, p.entry, p.z, engine::uniform01(gen), math)) {
      return offset + p.z;
    }
    p = detail::ziggurat_point(t, gen());
    if (p.inside(t)) return offset + p.z;
  }
}

}  // namespace lbmc::dist
