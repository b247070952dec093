// Philox4x32-10 and the counter-based stream's layout, as the host and a GPU
// both compile them (host_device.hpp).
//
// Design note
// - Philox4x32-10 (Salmon, Moraes, Dror, Shaw 2011, "Parallel random numbers:
//   as easy as 1, 2, 3", SC'11, §5): ten rounds of two 32x32->64-bit
//   multiplications on a 128-bit counter under a 64-bit key bumped by the
//   Weyl increments, the function of Random123's r123::Philox4x32
//   (tests/philox_test.cpp checks philox_call against it).
// - Each replication has a stream of its own, so that a GPU can run one
//   replication per thread and a CPU the replications of a block in turn,
//   with the same numbers. Replication r of block b under master seed s:
//     key      = the first 64-bit word of block_seed_words(s, b) (the same
//                SplitMix64 derivation that seeds the block's pcg64),
//     counter  = (i | r·2^52, b) as two 64-bit halves, low half first,
//   for its Philox call i = 0, 1, 2, ... (i < 2^52; r < 2^12, for a block
//   holds at most kMaxBlockReplications); two blocks never share a counter
//   even if their keys met. Call i gives four 32-bit words r0..r3, which are
//   the replication's 64-bit outputs 2i (r0 + 2^32·r1) and 2i + 1
//   (r2 + 2^32·r3). Outputs are used in order and none is skipped; those
//   left when a replication ends are dropped.
#pragma once

#include <array>
#include <cstdint>

#include "lbmc/engine/host_device.hpp"
#include "lbmc/engine/words.hpp"

namespace lbmc::engine {

//! Random123's multipliers and Weyl key increments for Philox4x32.
inline constexpr std::uint32_t kPhiloxMultiplier0 = 0xD2511F53;
inline constexpr std::uint32_t kPhiloxMultiplier1 = 0xCD9E8D57;
inline constexpr std::uint32_t kPhiloxWeyl0 = 0x9E3779B9;
inline constexpr std::uint32_t kPhiloxWeyl1 = 0xBB67AE85;
inline constexpr int kPhiloxRounds = 10;

//! The replication's place in the counter's low half (see above).
inline constexpr int kReplicationShift = 52;
//! The most replications a block may hold under the counter-based stream.
inline constexpr std::int64_t kMaxBlockReplications = std::int64_t{1} << (64 - kReplicationShift);

//! Philox4x32-10 of the counter (low, high) under `key`: the words r0..r3.
LBMC_HOST_DEVICE inline std::array<std::uint32_t, 4> philox_call(std::uint64_t key, std::uint64_t low,
                                                                 std::uint64_t high) noexcept {
  auto k0 = static_cast<std::uint32_t>(key);
  auto k1 = static_cast<std::uint32_t>(key >> 32);
  auto c0 = static_cast<std::uint32_t>(low);
  auto c1 = static_cast<std::uint32_t>(low >> 32);
  auto c2 = static_cast<std::uint32_t>(high);
  auto c3 = static_cast<std::uint32_t>(high >> 32);
  for (int round = 0; round < kPhiloxRounds; ++round) {
    const std::uint64_t p0 = std::uint64_t{kPhiloxMultiplier0} * c0;
    const std::uint64_t p1 = std::uint64_t{kPhiloxMultiplier1} * c2;
    c0 = static_cast<std::uint32_t>(p1 >> 32) ^ c1 ^ k0;
    c1 = static_cast<std::uint32_t>(p1);
    c2 = static_cast<std::uint32_t>(p0 >> 32) ^ c3 ^ k1;
    c3 = static_cast<std::uint32_t>(p0);
    k0 += kPhiloxWeyl0;
    k1 += kPhiloxWeyl1;
  }
  return {c0, c1, c2, c3};
}

//! The key of every replication of block `block` under `master_seed`.
LBMC_HOST_DEVICE constexpr std::uint64_t philox_block_key(std::uint64_t master_seed, std::uint64_t block) noexcept {
  return block_seed_words(master_seed, block)[0];
}

//! The counter's low half for call 0 of replication `replication`.
LBMC_HOST_DEVICE constexpr std::uint64_t philox_replication_base(std::uint64_t replication) noexcept {
  return replication << kReplicationShift;
}

//! The outputs of one replication, one Philox call at a time: what a GPU
//! thread draws from. PhiloxStream (philox.hpp) hands out the same outputs
//! from 16 calls at a time.
//!
//! A replication's loop calls step() before each draw (before_draw): every
//! other step makes a Philox call for the outputs of the next two draws,
//! whatever the thread's state, so that the threads of a GPU warp, which a
//! rejection (a draw of more than one output) puts out of step, still make
//! their calls together; a draw that finds no output left makes a call of
//! its own. The outputs and their order are the stream's either way; a
//! GPU kernel of a rejection sampler runs faster so than with a call
//! whenever a thread runs out (bench/device_parts.cu, bench/RESULTS.md).
class PhiloxWords {
 public:
  LBMC_HOST_DEVICE PhiloxWords(std::uint64_t key, std::uint64_t block, std::uint64_t replication) noexcept
      : key_(key), block_(block), next_call_(philox_replication_base(replication)) {}

  //! Every other call, a Philox call for the next draws, unless two or
  //! more outputs are still waiting (a sampler that drew none).
  LBMC_HOST_DEVICE void step() noexcept {
    step_parity_ ^= 1U;
    if (step_parity_ != 0 && waiting_ < 2) push_call();
  }

  //! The next output.
  LBMC_HOST_DEVICE std::uint64_t operator()() noexcept {
    if (waiting_ == 0) push_call();
    const std::uint64_t out = queue_[0];
    queue_[0] = queue_[1];
    queue_[1] = queue_[2];
    --waiting_;
    return out;
  }

 private:
  // Appends the next call's two outputs to the 0 or 1 waiting (three
  // registers; no index into them but constants).
  LBMC_HOST_DEVICE void push_call() noexcept {
    const std::array<std::uint32_t, 4> r = philox_call(key_, next_call_++, block_);
    const std::uint64_t first = r[0] | (std::uint64_t{r[1]} << 32);
    const std::uint64_t second = r[2] | (std::uint64_t{r[3]} << 32);
    if (waiting_ == 0) {
      queue_[0] = first;
      queue_[1] = second;
    } else {
      queue_[1] = first;
      queue_[2] = second;
    }
    waiting_ += 2;
  }

  std::uint64_t key_;
  std::uint64_t block_;
  std::uint64_t next_call_;
  std::uint64_t queue_[3] = {0, 0, 0};
  unsigned waiting_ = 0;
  unsigned step_parity_ = 0;
};

}  // namespace lbmc::engine
