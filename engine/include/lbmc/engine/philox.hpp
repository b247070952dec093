// The counter-based stream (`--rng philox`) on the CPU: Philox4x32-10 (Salmon,
// Moraes, Dror, Shaw 2011, SC'11), the function of Random123
// (r123::Philox4x32, which also runs in CUDA device code), so that a
// replication's numbers can be computed anywhere from (key, counter) alone.
// The key, the counter and the order of the outputs are philox_core.hpp's;
// a PhiloxStream computes kLanes consecutive calls at once (philox.cpp: lane
// by lane, vectorised) and hands their outputs out in order, so the outputs
// do not depend on the batching. philox4x32_10 is Random123's own function,
// the reference the lanes and philox_call are tested against.
#pragma once

#include <array>
#include <cstdint>
#include <limits>

#include <Random123/philox.h>

#include "lbmc/engine/philox_core.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::engine {

//! Philox4x32-10 of `counter` under `key`, as Random123 computes it.
inline std::array<std::uint32_t, 4> philox4x32_10(const std::array<std::uint32_t, 4>& counter,
                                                  const std::array<std::uint32_t, 2>& key) noexcept {
  const r123::Philox4x32 philox;
  const r123::Philox4x32::ctr_type c = {{counter[0], counter[1], counter[2], counter[3]}};
  const r123::Philox4x32::key_type k = {{key[0], key[1]}};
  const r123::Philox4x32::ctr_type r = philox(c, k);
  return {r.v[0], r.v[1], r.v[2], r.v[3]};
}

//! The outputs of the Philox calls whose counters' low halves are
//! first_call, first_call + 1, ... (16 of them) and high half `block`: call
//! i's words r0..r3 as words[2i] = r0 + 2^32·r1 and words[2i + 1] =
//! r2 + 2^32·r3 (philox.cpp).
void philox_lanes(const std::array<std::uint32_t, 2>& key, const std::array<std::uint32_t, 2>& block,
                  std::uint64_t first_call, std::array<std::uint64_t, 32>& words) noexcept;
//! The same, lane by lane on any processor (what philox_lanes does without AVX2).
void philox_lanes_reference(const std::array<std::uint32_t, 2>& key, const std::array<std::uint32_t, 2>& block,
                            std::uint64_t first_call, std::array<std::uint64_t, 32>& words) noexcept;

//! The 64-bit outputs of a block's replications, drawn in order: those of
//! replication 0, then, after next_replication(), those of replication 1...
class PhiloxStream {
 public:
  using result_type = std::uint64_t;
  static constexpr int kLanes = 16;  // Philox calls per refill

  PhiloxStream(std::uint64_t key, std::uint64_t block) noexcept
      : key_{static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32)},
        block_{static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32)} {}

  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return std::numeric_limits<result_type>::max(); }

  //! The next output.
  result_type operator()() noexcept {
    if (next_ == words_.size()) [[unlikely]] refill();
    return words_[next_++];
  }

  //! Outputs of the current replication drawn so far.
  std::uint64_t drawn() const noexcept {
    return 2 * (calls_ - philox_replication_base(replication_)) - (words_.size() - next_);
  }

  //! Ends the current replication: the next output is the next
  //! replication's first (the outputs not drawn are dropped).
  void next_replication() noexcept {
    calls_ = philox_replication_base(++replication_);
    next_ = words_.size();
  }

 private:
  // The next kLanes calls' outputs; out of line, so that a sampler drawing
  // from the stream stays small enough to be inlined into its kernel.
  [[gnu::noinline, gnu::cold]] void refill() noexcept {
    philox_lanes(key_, block_, calls_, words_);
    calls_ += kLanes;
    next_ = 0;
  }

  std::array<std::uint32_t, 2> key_;
  std::array<std::uint32_t, 2> block_;
  std::uint64_t replication_ = 0;
  std::uint64_t calls_ = 0;  // the counter's low half for the next refill
  std::array<std::uint64_t, 2 * kLanes> words_{};
  std::size_t next_ = 2 * kLanes;  // the next word of words_ to hand out
};

static_assert(2 * PhiloxStream::kLanes == 32, "philox_lanes fills 32 words");

//! The Philox stream of block `block` under `master_seed`.
inline PhiloxStream block_philox(std::uint64_t master_seed, std::uint64_t block) noexcept {
  return PhiloxStream(philox_block_key(master_seed, block), block);
}

//! Ends a replication of a stream that has replications of its own (the
//! counter-based one); the others draw on.
template <class Words>
void next_replication(Words& words) noexcept {
  if constexpr (requires { words.next_replication(); }) words.next_replication();
}

}  // namespace lbmc::engine
