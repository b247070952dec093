// The part of the streams that the host and a GPU share (host_device.hpp):
// the derivation of a block's seed words from the master seed, and the
// conversions of 64-bit words into doubles. rng.hpp holds the rest of the
// streams and documents these functions' place among them.
#pragma once

#include <array>
#include <cstdint>

#include "lbmc/engine/host_device.hpp"

namespace lbmc::engine {

//! SplitMix64 (Steele, Lea, Flood 2014): advances `state` and returns a
//! well-mixed 64-bit word. Used only to derive generator seeds.
LBMC_HOST_DEVICE constexpr std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  state += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

//! The four words that seed block `block` under `master_seed`: SplitMix64
//! outputs seeded by a mix of both arguments.
LBMC_HOST_DEVICE constexpr std::array<std::uint64_t, 4> block_seed_words(std::uint64_t master_seed,
                                                                         std::uint64_t block) noexcept {
  std::uint64_t mix = master_seed;
  std::uint64_t seed_state = splitmix64(mix) ^ (block * 0xd1b54a32d192ed03ULL);
  std::array<std::uint64_t, 4> words{};
  for (std::uint64_t& word : words) word = splitmix64(seed_state);
  return words;
}

//! Uniform on [0, 1): the top 53 bits of one output times 2^-53.
//! 0 is possible (probability 2^-53); 1 is not.
template <class Words>
LBMC_HOST_DEVICE inline double uniform01(Words& gen) noexcept {
  return static_cast<double>(gen() >> 11) * 0x1.0p-53;
}

//! Uniform on (0, 1): the top 53 bits plus one half, times 2^-53.
//! Neither 0 nor 1 is possible; the smallest value is 2^-54.
template <class Words>
LBMC_HOST_DEVICE inline double uniform_open01(Words& gen) noexcept {
  return (static_cast<double>(gen() >> 11) + 0.5) * 0x1.0p-53;
}

//! Called by a replication's loop before each draw of `sampler`: the
//! stream's step(), where it has one (PhiloxWords, philox_core.hpp), unless
//! the sampler takes the same number of outputs every draw (it declares
//! kFixedOutputs), whose threads never fall out of step; otherwise nothing.
template <class Sampler, class Words>
LBMC_HOST_DEVICE LBMC_FORCE_INLINE void before_draw(const Sampler& /*sampler*/, Words& words) noexcept {
  if constexpr (requires { words.step(); } && !requires { requires Sampler::kFixedOutputs; }) words.step();
}

//! One draw of `sampler` from `words`, its step before it (before_draw):
//! what a replication's loop calls for each draw.
template <class Sampler, class Words>
LBMC_HOST_DEVICE LBMC_FORCE_INLINE auto stepped_draw(const Sampler& sampler, Words& words) {
  before_draw(sampler, words);
  return sampler(words);
}

}  // namespace lbmc::engine
