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
// - The arithmetic is in ziggurat_table.hpp, shared with a GPU: on pcg64 it
//   runs with the C library's exp and log, on the counter-based stream (the
//   samplers' portable() forms) with lbmc's own, which give the same bits
//   everywhere.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/portable_exp_log.hpp"
#include "lbmc/dist/portable_samplers.hpp"
#include "lbmc/dist/sampler_support.hpp"
#include "lbmc/dist/ziggurat_table.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::dist {

//! The normal ziggurat, f(x) = exp(-x^2/2) (r ≈ 3.85204615036839), built on
//! first use (about 6 ms), thread-safe.
const NormalZiggurat& normal_ziggurat();
//! The exponential ziggurat, f(x) = exp(-x) (r ≈ 9.2561645442655), built on
//! first use (about 11 ms), thread-safe.
const ExponentialZiggurat& exponential_ziggurat();

namespace detail {
//! y < exp(-s), with the C library's exp: out of line, for the rare wedge
//! points that the bounds of under_curve leave open.
bool below_exp(double y, double s) noexcept;

//! The C library's log and exp, for the samplers on pcg64.
struct LibraryMath {
  static double log(double x) noexcept { return std::log(x); }
  static bool below_exp(double y, double s) noexcept { return detail::below_exp(y, s); }
};

//! The wedge tests with the C library's exp.
inline bool normal_under_curve(const NormalZiggurat& t, std::size_t i, double z, double u) noexcept {
  return normal_under_curve(t, i, z, u, LibraryMath{});
}
inline bool exponential_under_curve(const ExponentialZiggurat& t, std::size_t i, double z, double u) noexcept {
  return exponential_under_curve(t, i, z, u, LibraryMath{});
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

  //! One variate from pcg64, with the C library's exp and log: the
  //! ziggurat's fast path inlined into the kernel's loop, the rest (0.8% of
  //! the draws) out of line on a copy of the generator
  //! (detail::with_generator_copy), so that no call takes the loop's
  //! generator by address and it stays in registers (where the tail's call
  //! took it, GCC kept the state in memory, and maxshift's draws at n = 1024
  //! took up to 3.8 times as long). The outputs and values of standard_normal.
  [[gnu::always_inline]] double operator()(engine::Generator& gen) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const NormalZiggurat& t = *shared_.tables.normal;
    const detail::ZigguratPoint p = detail::ziggurat_point(t, gen());
    const auto rest = [this, j = p.entry, z = p.z](engine::Generator& g) { return past_fast_path(j, z, g); };
    const double z = p.inside(t) ? p.z : detail::with_generator_copy(gen, rest);
    return shared_.mu + shared_.sigma * z;
  }
  //! One variate from another stream (the counter-based one), as a GPU
  //! draws it, inlined into its kernel whatever the size of the two together.
  template <engine::UniformWords Gen>
    requires(!std::same_as<Gen, engine::Generator>)
  [[gnu::always_inline]] double operator()(Gen& gen) const noexcept {
    return shared_(gen);
  }

  //! The sampler of the counter-based stream, for the host and a GPU.
  const PortableNormal& portable() const noexcept { return shared_; }

 private:
  // The draw past the fast path from its first point's entry j and
  // abscissa z, on pcg64 (cold; scalars, so that the point stays in
  // registers): standard_normal's outputs and value.
  [[gnu::noinline, gnu::cold]] double past_fast_path(std::size_t j, double z, engine::Generator& gen) const noexcept;

  PortableNormal shared_;
};

//! Sampler for Exponential{mean}: mean·e with e a standard exponential.
//! Range: (0, inf); 0 is impossible (e >= 2^-53·x_1023 ≈ 3.5e-18, so as long
//! as mean·3.5e-18 does not underflow), inf impossible. One 64-bit output per
//! variate on the fast path (99.36% of draws).
class ExponentialSampler {
 public:
  //! Throws engine::InputError unless mean > 0 and finite.
  explicit ExponentialSampler(const Exponential& law);

  //! One variate from pcg64, with the C library's exp; inlined, like the
  //! normal's, so that the generator stays in registers.
  [[gnu::always_inline]] double operator()(engine::Generator& gen) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    return shared_.mean * standard_exponential(*shared_.tables.exponential, gen, detail::LibraryMath{});
  }
  //! One variate from another stream, as a GPU draws it.
  template <engine::UniformWords Gen>
    requires(!std::same_as<Gen, engine::Generator>)
  [[gnu::always_inline]] double operator()(Gen& gen) const noexcept {
    return shared_(gen);
  }

  //! The sampler of the counter-based stream, for the host and a GPU.
  const PortableExponential& portable() const noexcept { return shared_; }

 private:
  PortableExponential shared_;
};

}  // namespace lbmc::dist
