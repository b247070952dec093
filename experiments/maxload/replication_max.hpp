// One replication of `maxload --method brute` on the counter-based stream:
// the maximum of n draws of a portable sampler (portable_samplers.hpp), as
// the host and a GPU both compile it (host_device.hpp), so that
// `--device cuda` and `--device cpu --rng philox` give the same maxima.
#pragma once

#include <cstdint>

#include "lbmc/engine/host_device.hpp"
#include "lbmc/engine/words.hpp"

namespace lbmc::exp {

//! max(z, the next `count` draws), in draw order; a sampler with max_of (the
//! table samplers: the largest from the outputs' range, output_range.hpp)
//! finds it with that, from the same outputs.
template <class Sampler, class Words>
LBMC_HOST_DEVICE inline double max_of_draws(const Sampler& draw, Words& words, double z, std::int64_t count) {
  if constexpr (requires { draw.max_of(words, count); }) {
    if (count < 1) return z;
    const double x = draw.max_of(words, count);
    return z < x ? x : z;
  } else {
    for (std::int64_t i = 0; i < count; ++i) {
      const double x = engine::stepped_draw(draw, words);
      z = z < x ? x : z;
    }
    return z;
  }
}

//! The maximum of n >= 1 draws.
template <class Sampler, class Words>
LBMC_HOST_DEVICE inline double replication_max(const Sampler& draw, Words& words, std::int64_t n) {
  if constexpr (requires { draw.max_of(words, n); }) {
    return draw.max_of(words, n);
  } else {
    const double first = engine::stepped_draw(draw, words);
    return max_of_draws(draw, words, first, n - 1);
  }
}

}  // namespace lbmc::exp
