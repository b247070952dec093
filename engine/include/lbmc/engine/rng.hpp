// Reproducible random streams: the one home of every generator and derived
// seed of lbmc (DESIGN §2).
//
// Every block of replications owns one pcg64 generator, built with the
// two-argument constructor from a 128-bit state and a 128-bit stream selector,
// both derived from (master seed, block index) by SplitMix64. A block's numbers
// therefore depend only on the seed and the block index, never on which thread
// runs the block or in what order, which is what makes output independent of
// --threads. Conversions from 64-bit words to doubles are ours so that a seed
// means the same numbers on every platform.
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
#pragma once

#include <cstdint>
#include <string_view>

#include <pcg_random.hpp>

namespace lbmc::engine {

using Generator = pcg64;

//! SplitMix64 (Steele, Lea, Flood 2014): advances `state` and returns a
//! well-mixed 64-bit word. Used only to derive generator seeds.
constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  state += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

//! The generator of block `block` under `master_seed`: state and stream are
//! four SplitMix64 outputs seeded by a mix of both arguments.
inline Generator block_generator(std::uint64_t master_seed, std::uint64_t block) noexcept {
  std::uint64_t mix = master_seed;
  std::uint64_t seed_state = splitmix64(mix) ^ (block * 0xd1b54a32d192ed03ULL);
  const std::uint64_t s_hi = splitmix64(seed_state);
  const std::uint64_t s_lo = splitmix64(seed_state);
  const std::uint64_t t_hi = splitmix64(seed_state);
  const std::uint64_t t_lo = splitmix64(seed_state);
  const pcg_extras::pcg128_t state = (pcg_extras::pcg128_t(s_hi) << 64) | s_lo;
  const pcg_extras::pcg128_t stream = (pcg_extras::pcg128_t(t_hi) << 64) | t_lo;
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

//! Uniform on [0, 1): the top 53 bits of one output times 2^-53.
//! 0 is possible (probability 2^-53); 1 is not.
inline double uniform01(Generator& gen) noexcept {
  return static_cast<double>(gen() >> 11) * 0x1.0p-53;
}

//! Uniform on (0, 1): the top 53 bits plus one half, times 2^-53.
//! Neither 0 nor 1 is possible; the smallest value is 2^-54.
inline double uniform_open01(Generator& gen) noexcept {
  return (static_cast<double>(gen() >> 11) + 0.5) * 0x1.0p-53;
}

}  // namespace lbmc::engine
