// Reproducible random streams: the one home of every generator and derived
// seed of lbmc (DESIGN §2), with the seed derivation and the conversions to
// double that a GPU shares in words.hpp.
//
// Every block of replications owns one pcg64 generator, built with the
// two-argument constructor from a 128-bit state and a 128-bit stream selector,
// both derived from (master seed, block index) by SplitMix64. A block's numbers
// therefore depend only on the seed and the block index, never on which thread
// runs the block or in what order, which is what makes output independent of
// --threads. Conversions from 64-bit words to doubles are ours so that a seed
// means the same numbers on every platform.
//
// The counter-based stream of `--rng philox` (philox.hpp) is keyed by the
// same derivation (block_seed_words).
//
// Beside the block streams, two kinds of derived randomness, both defined
// here and nowhere else:
//  - derived_seed(seed, tag): the master seed of a sub-run (a claim of
//    `reproduce`, the held-out replications of a search), seed XOR a 64-bit
//    tag, the tag given as a number or as a name (its FNV-1a hash), so that
//    each sub-run's numbers depend on the run's seed and its own tag only;
//  - keyed_generator(key): the generator of one replication's common random
//    numbers, keyed by a 64-bit word drawn from the block's own stream, so
//    that several models simulated on that key see the same variates.
//
// Beside the generator, the primitives every sampler builds on, each with
// its range and the number of generator outputs it consumes, so that a
// seed means the same draws in every caller (pcg-cpp keeps its bounded_rand
// beside its engines likewise; its rule, a threshold and a modulo of every
// output, gives other values than ours):
//  - uniform01(gen): [0, 1), 0 possible, 1 not; one output.
//  - uniform_open01(gen): (0, 1), smallest value 2^-54; one output.
//  - uniform_below(gen, bound): an integer in [0, bound), 1 <= bound < 2^64,
//    exactly uniform (Lemire 2019, "Fast random integer generation in an
//    interval", ACM TOMACS 29(1)): the high word of the 128-bit
//    product x·bound of one output x, unless the product's low word falls
//    below 2^64 mod bound (the values of x that would over-represent some
//    results), when x is replaced by the next output. One output, plus one
//    per rejection; a rejection has probability (2^64 mod bound)/2^64 <
//    bound/2^64, and none is possible when bound divides 2^64 (a power of
//    two, 1 included). The modulo is computed only when the low word is
//    below bound, a 1 - bound/2^64 chance of skipping it.
//  - HalfWordDraws: integers in [0, bound), 1 <= bound < 2^32, two from
//    each output: the same rule on 32-bit halves, its low half first, then
//    its high half (a rejection has probability (2^32 mod bound)/2^32 and
//    takes the next half). A draw consumes one half plus one per rejection;
//    an output is taken when no half is left, and a high half left unused
//    when the object is destroyed is lost.
// Both take any generator whose call returns uniform 64-bit words (a test
// can script the words to pin each rejection).
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <string_view>
#include <utility>

#include <pcg_random.hpp>

#include "lbmc/engine/words.hpp"

namespace lbmc::engine {

using Generator = pcg64;

//! The stream a run draws from: pcg64 (the default) or the counter-based
//! Philox4x32-10 stream (philox.hpp, `--rng philox`).
enum class Stream { pcg64, philox };

//! A source of uniform 64-bit words: a block's pcg64, or its counter-based
//! stream (philox.hpp). The samplers that take any of them are those the
//! counter-based stream covers.
template <class G>
concept UniformWords = requires(G& g) {
  { g() } -> std::same_as<std::uint64_t>;
};

//! The generator of block `block` under `master_seed`: its state is the
//! first two seed words, its stream the last two.
inline Generator block_generator(std::uint64_t master_seed, std::uint64_t block) noexcept {
  const std::array<std::uint64_t, 4> w = block_seed_words(master_seed, block);
  const pcg_extras::pcg128_t state = (pcg_extras::pcg128_t(w[0]) << 64) | w[1];
  const pcg_extras::pcg128_t stream = (pcg_extras::pcg128_t(w[2]) << 64) | w[3];
  return Generator(state, stream);
}

//! FNV-1a (64-bit) of `name`: a stable numeric tag for derived_seed.
constexpr std::uint64_t name_tag(std::string_view name) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

//! The master seed of a sub-run tagged `tag`: seed XOR tag.
constexpr std::uint64_t derived_seed(std::uint64_t seed, std::uint64_t tag) noexcept { return seed ^ tag; }
//! The master seed of a sub-run named `name`: seed XOR name_tag(name).
constexpr std::uint64_t derived_seed(std::uint64_t seed, std::string_view name) noexcept {
  return derived_seed(seed, name_tag(name));
}

//! The generator of the common random numbers keyed by `key` (one 64-bit
//! output of a block's generator): block 0 of the master seed `key`.
inline Generator keyed_generator(std::uint64_t key) noexcept { return block_generator(key, 0); }

//! Uniform integer in [0, bound), 1 <= bound < 2^64, without bias
//! (Lemire 2019): one output of `gen`, plus one per rejection (see above).
template <class Words>
std::uint64_t uniform_below(Words& gen, std::uint64_t bound) {
  __extension__ using Wide = unsigned __int128;
  Wide product = Wide{gen()} * bound;
  auto low = static_cast<std::uint64_t>(product);
  if (low < bound) {
    const std::uint64_t rejected = (0 - bound) % bound;  // 2^64 mod bound
    while (low < rejected) {
      product = Wide{gen()} * bound;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return static_cast<std::uint64_t>(product >> 64);
}

//! Uniform integers in [0, bound), 1 <= bound < 2^32, two from each output
//! of a generator: its low 32 bits, then its high 32 bits, each by Lemire's
//! rule on 32 bits; a rejected half (probability (2^32 mod bound)/2^32) is
//! replaced by the next half (see above).
template <class Words = Generator>
class HalfWordDraws {
 public:
  explicit HalfWordDraws(Words& gen) : gen_(&gen) {}

  //! One draw: one half, plus one per rejection.
  std::uint32_t below(std::uint32_t bound) { return accept(std::uint64_t{next_half()} * bound, bound); }

  //! Two draws, the values of below() twice: at a word boundary both come
  //! from one output, and only a product's low word under `bound` (where a
  //! rejection is possible) takes the half-by-half way.
  std::pair<std::uint32_t, std::uint32_t> pair_below(std::uint32_t bound) {
    if (!has_high_) {
      const std::uint64_t word = (*gen_)();
      const std::uint64_t first = (word & 0xFFFF'FFFFu) * bound;
      const std::uint64_t second = (word >> 32) * bound;
      if (static_cast<std::uint32_t>(first) >= bound && static_cast<std::uint32_t>(second) >= bound) {
        return {static_cast<std::uint32_t>(first >> 32), static_cast<std::uint32_t>(second >> 32)};
      }
      word_ = word;
      has_high_ = true;
      const std::uint32_t accepted = accept(first, bound);
      return {accepted, below(bound)};
    }
    const std::uint32_t accepted = below(bound);
    return {accepted, below(bound)};
  }

 private:
  // Lemire's test of half·bound, drawing further halves while rejected.
  std::uint32_t accept(std::uint64_t product, std::uint32_t bound) {
    auto low = static_cast<std::uint32_t>(product);
    if (low < bound) {
      const std::uint32_t rejected = (0u - bound) % bound;  // 2^32 mod bound
      while (low < rejected) {
        product = std::uint64_t{next_half()} * bound;
        low = static_cast<std::uint32_t>(product);
      }
    }
    return static_cast<std::uint32_t>(product >> 32);
  }
  std::uint32_t next_half() {
    if (has_high_) {
      has_high_ = false;
      return static_cast<std::uint32_t>(word_ >> 32);
    }
    word_ = (*gen_)();
    has_high_ = true;
    return static_cast<std::uint32_t>(word_);
  }
  Words* gen_;
  std::uint64_t word_ = 0;
  bool has_high_ = false;
};

}  // namespace lbmc::engine
