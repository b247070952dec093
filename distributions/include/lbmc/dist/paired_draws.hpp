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
// - guided_prefix_sums is the same loop for the table samplers' guides,
//   whose unsettled draws are mostly settled again by a search that draws
//   nothing: the pair goes on from where it was, and only a tail's draw
//   restarts it.
#pragma once

#include <cstdint>
#include <span>

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

//! The running sums of the next y.size() draws into y; returns the last (0
//! when y is empty), for the table samplers' guides: a draw's value is
//! value(u) of its output u = gen() >> 1 (the guide's one-bucket answer);
//! where that is negative, search(u), which draws nothing; where that is
//! negative too (a tail cell), tail(u, g), which draws on from a copy g of
//! the generator. settle_pair(x0, x1, v0, v1) is value() of the draws of
//! two outputs at once (whether both are settled; -1 for one that is not),
//! for a guide that evaluates two draws faster together. The same outputs
//! and sums as one draw at a time. The outputs come two at a time and the
//! loop over settled pairs calls nothing, so that the generator's two
//! chains, the sum and the guide stay in registers (a call in the loop
//! would leave GCC only the callee-saved ones, and the rest on the stack).
//! For a function out of line of its own.
template <class SettlePair, class Value, class Search, class Tail>
[[gnu::always_inline]] inline std::int64_t guided_prefix_sums(engine::Generator& gen, std::span<std::int64_t> y,
                                                              const SettlePair& settle_pair, const Value& value,
                                                              const Search& search, const Tail& tail) {
  const auto tail_draw = [&tail](engine::Generator& g, std::uint64_t u) {
    return detail::with_generator_copy(g, [&tail, u](engine::Generator& copy) { return tail(u, copy); });
  };
  std::int64_t sum = 0;
  std::int64_t* next = y.data();
  std::int64_t* const end = next + y.size();
  if (end - next >= 2) {
    engine::Pcg64Pair pair(gen);  // two draws a step, from two chains of the generator's state
    for (;;) {
      std::int64_t running = sum;  // the loop's own (GCC keeps sum, live across the calls, in memory)
      std::int64_t v0 = 0, v1 = 0;
      for (;;) {  // calls nothing
        if (!settle_pair(pair.first(), pair.second(), v0, v1)) [[unlikely]] break;
        next[0] = running += v0;
        next[1] = running += v1;
        next += 2;
        if (end - next < 2) break;
        pair.advance();
      }
      sum = running;
      if ((v0 | v1) >= 0) {  // the loop's end
        pair.leave_after_second(gen);
        break;
      }
      // A pair with an unsettled draw: the table's search, which draws
      // nothing; a tail cell (past the table: rare) draws on from gen.
      if (v0 < 0) v0 = search(pair.first() >> 1);
      if (v0 >= 0 && v1 < 0) v1 = search(pair.second() >> 1);
      if (v0 >= 0 && v1 >= 0) {
        next[0] = sum += v0;
        next[1] = sum += v1;
        next += 2;
        if (end - next < 2) {
          pair.leave_after_second(gen);
          break;
        }
        pair.advance();
        continue;
      }
      if (v0 < 0) {
        pair.leave_after_first(gen);
        *next++ = sum += tail_draw(gen, pair.first() >> 1);
      } else {
        *next++ = sum += v0;
        pair.leave_after_second(gen);
        *next++ = sum += tail_draw(gen, pair.second() >> 1);
      }
      if (end - next < 2) break;
      pair.restart(gen);  // gen drew on
    }
  }
  if (next != end) {  // the last draw, alone
    const std::uint64_t u = gen() >> 1;
    std::int64_t last = value(u);
    if (last < 0) last = search(u);
    if (last < 0) last = tail_draw(gen, u);
    *next = sum += last;
  }
  return sum;
}

//! The same, the pair's draws by value() one at a time.
template <class Value, class Search, class Tail>
[[gnu::always_inline]] inline std::int64_t guided_prefix_sums(engine::Generator& gen, std::span<std::int64_t> y,
                                                              const Value& value, const Search& search,
                                                              const Tail& tail) {
  const auto settle_pair = [&value](std::uint64_t x0, std::uint64_t x1, std::int64_t& v0, std::int64_t& v1) {
    v0 = value(x0 >> 1);
    v1 = value(x1 >> 1);
    return (v0 | v1) >= 0;
  };
  return guided_prefix_sums(gen, y, settle_pair, value, search, tail);
}

}  // namespace lbmc::dist::detail
