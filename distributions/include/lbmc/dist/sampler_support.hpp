// What every sampler's hot path shares (part of samplers.hpp; DESIGN §2, §7).
//
// Design note
// - No fused multiply-add in the samplers' arithmetic: a contracted mu + sigma·z
//   rounds differently, and the same seed must give the same bits on every
//   target. LBMC_SAMPLER_NO_FP_CONTRACT (host_device.hpp) turns contraction
//   off for clang, in a function body (the inline operator()s) or at file
//   scope (the sampler sources). For GCC, which contracts in C++ whatever the
//   -std, the build passes -ffp-contract=off (CMakeLists.txt).
// - The cold paths that need the generator (the normal ziggurat's tail, the
//   table samplers' tails) receive it through detail::with_generator_copy.
// - draw_integer: an integer law's variate as an integer, for the kernels
//   that sum or compare integer loads exactly; max_of_integers: the largest
//   of n of them; integer_prefix_sums: their running sums.
// - sampler_for: the form of a sampler a stream draws with.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <span>
#include <utility>

#include "lbmc/engine/host_device.hpp"  // LBMC_SAMPLER_NO_FP_CONTRACT
#include "lbmc/engine/rng.hpp"


namespace lbmc::dist::detail {

//! Calls f(copy of gen) and writes the copy back. Cold paths that need the
//! generator go through this, so that the caller's generator never has its
//! address passed to an out-of-line function and can live in registers;
//! it is always inlined, for an out-of-line copy of it would take that
//! address (GCC leaves it out of line once enough kernels use it).
template <class Gen, class F>
[[gnu::always_inline]] inline auto with_generator_copy(Gen& gen, F&& f) {
  Gen local = gen;
  auto result = std::forward<F>(f)(local);
  gen = local;
  return result;
}

}  // namespace lbmc::dist::detail

namespace lbmc::dist {

//! The form of `sampler` that draws from a Gen: the sampler itself on pcg64,
//! its portable() form (the source a GPU runs) on any other stream.
template <class Gen, class Sampler>
auto sampler_for(const Sampler& sampler) {
  if constexpr (std::same_as<Gen, engine::Generator>) {
    return sampler;
  } else {
    return sampler.portable();
  }
}

//! A variate of an integer-valued law as an integer: the sampler's own
//! integer() where it has one (the table samplers: no round trip through
//! double, which on the critical path of an integer sum cost a conversion,
//! a multiplication and a store-to-load), else its double converted. Either
//! way the same outputs are consumed and the value is
//! static_cast<std::int64_t>(sampler(gen)).
template <class Sampler, class Gen>
std::int64_t draw_integer(const Sampler& sampler, Gen& gen) {
  if constexpr (requires { { sampler.integer(gen) } -> std::same_as<std::int64_t>; }) {
    return sampler.integer(gen);
  } else {
    return static_cast<std::int64_t>(sampler(gen));
  }
}

//! The largest of `count` >= 1 variates of an integer-valued law, drawn
//! one by one (draw_integer).
template <class Sampler, class Gen>
std::int64_t max_by_single_draws(const Sampler& sampler, Gen& gen, std::int64_t count) {
  std::int64_t z = draw_integer(sampler, gen);
  for (std::int64_t i = 1; i < count; ++i) z = std::max(z, draw_integer(sampler, gen));
  return z;
}

//! The running sums of the next y.size() variates of an integer-valued law,
//! drawn one by one (draw_integer), into y; returns the last (0 when y is
//! empty).
template <class Sampler, class Gen>
std::int64_t prefix_sums_by_single_draws(const Sampler& sampler, Gen& gen, std::span<std::int64_t> y) {
  std::int64_t sum = 0;
  for (std::int64_t& v : y) v = sum += draw_integer(sampler, gen);
  return sum;
}

//! The running sums of the next y.size() variates of an integer-valued law
//! drawn in turn, into y; returns the last (0 when y is empty): the
//! sampler's own integer_prefix_sums() where it has one (a loop that keeps
//! the generator in registers), else prefix_sums_by_single_draws. Either way
//! the same outputs and the same sums.
template <class Sampler, class Gen>
std::int64_t integer_prefix_sums(const Sampler& sampler, Gen& gen, std::span<std::int64_t> y) {
  if constexpr (requires { { sampler.integer_prefix_sums(gen, y) } -> std::same_as<std::int64_t>; }) {
    return sampler.integer_prefix_sums(gen, y);
  } else {
    return prefix_sums_by_single_draws(sampler, gen, y);
  }
}

//! The largest of `count` >= 1 variates of an integer-valued law drawn in
//! turn, as an integer: the sampler's own integer_max() where it has one
//! (a monotone function of each draw's output or base variate, so the
//! largest follows from fewer steps; output_range.hpp), else max_by_single_draws.
//! Either way the same outputs and the same value.
template <class Sampler, class Gen>
std::int64_t max_of_integers(const Sampler& sampler, Gen& gen, std::int64_t count) {
  if constexpr (requires { { sampler.integer_max(gen, count) } -> std::same_as<std::int64_t>; }) {
    return sampler.integer_max(gen, count);
  } else {
    return max_by_single_draws(sampler, gen, count);
  }
}

}  // namespace lbmc::dist
