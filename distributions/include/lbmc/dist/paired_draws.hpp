// Many draws in turn from pcg64 two outputs at a time, for the samplers
// whose draw is settled by one output nearly always.
//
// Design note
// - A sampler of that kind has a fast path, a function of one output x
//   alone (fast(x, value): true when it settles the draw), and a cold path
//   that draws on from the generator just past x (cold(x, gen)). A loop of
//   single draws keeps the generator in memory, for the cold path's calls;
//   here the outputs come two at a time (engine::Pcg64Pair: two chains of
//   the generator's state, half the dependent steps) and the loop over
//   pairs that the fast path settles calls nothing, so that both chains
//   stay in registers. A pair with a draw the fast path leaves leaves the
//   loop: the cold path runs on a copy of the generator
//   (detail::with_generator_copy) and the pair restarts from it.
// - The same outputs and the same values, in the same order, as `count`
//   draws one by one.
#pragma once

#include <cstdint>

#include "lbmc/dist/sampler_support.hpp"
#include "lbmc/engine/pcg64_pair.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::dist::detail {

//! keep(v) for each of the next `count` >= 0 draws v in turn (design note).
template <class Fast, class Cold, class Keep>
[[gnu::always_inline]] inline void for_each_paired_draw(engine::Generator& gen, std::int64_t count, const Fast& fast,
                                                        const Cold& cold, const Keep& keep) {
  using Value = decltype(cold(std::uint64_t{}, gen));
  const auto cold_from = [&cold](std::uint64_t x, engine::Generator& g) {
    return with_generator_copy(g, [&cold, x](engine::Generator& local) { return cold(x, local); });
  };
  while (count >= 2) {
    engine::Pcg64Pair pair(gen);
    Value first{}, second{};
    bool both = false;
    for (;;) {  // calls nothing
      both = fast(pair.first(), first) && fast(pair.second(), second);
      if (!both) [[unlikely]] break;
      keep(first);
      keep(second);
      count -= 2;
      if (count < 2) break;
      pair.advance();
    }
    if (both) {
      pair.leave_after_second(gen);
      break;
    }
    // The first draw the fast path leaves: the cold path, from the
    // generator just past its output.
    std::uint64_t x = pair.first();
    if (fast(x, first)) {
      keep(first);
      --count;
      x = pair.second();
      pair.leave_after_second(gen);
    } else {
      pair.leave_after_first(gen);
    }
    keep(cold_from(x, gen));
    --count;
  }
  if (count == 1) {
    const std::uint64_t x = gen();
    Value value{};
    keep(fast(x, value) ? value : cold_from(x, gen));
  }
}

}  // namespace lbmc::dist::detail
