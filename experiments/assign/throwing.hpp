// Throwing N tasks into P bins, uniformly and independently, and the largest
// count: the multinomial maximum of `lbmc assign` by simulation.
//
// Incrementing P counters at random costs a cache miss per task once the
// counters outgrow the core's caches (P = 10^6: 4 MB), and a miss to a last-
// level cache shared with other work is slow and unsteady. ThrowCounter
// therefore sorts the draws by block of 2^kBlockShift bins (256 KiB of
// counters) as they are drawn, as a radix sort's scatter does, and counts
// them block by block:
//  - each drawn bin's index within its block (16 bits) is written to its
//    block's bucket (one stream of writes per block);
//  - a full bucket, and every bucket after the last draw, is counted into
//    its block's counters, which then stay in the core's own L2 for the
//    bucket's 2^16 increments (16 a cache line);
//  - a block's counters are zeroed when its first bucket is counted, and
//    the largest count is kept as the counts grow, so that no pass over
//    all the counters reads or writes them from a farther cache.
// (Blocks of 2^12, 2^15 and 2^16 bins were timed at P = 10^6, alone and on a
// core shared with a process that thrashes the caches: 2^16 was the fastest
// in both.)
// With at most one block of bins, or more than 2^24 bins (where the buckets
// would outgrow the counters' memory), the counters are incremented
// directly.
// The draws are those of the plain loop, one engine::uniform_below(gen, P)
// per task in task order, and a count depends only on which bins were drawn,
// so the maximum is the same, bit for bit, as the plain loop's.
#pragma once

#include <cstdint>
#include <vector>

#include "lbmc/engine/rng.hpp"
#include "lbmc/engine/scratch_vector.hpp"

namespace lbmc::exp {

class ThrowCounter {
 public:
  //! Scratch for throwing `tasks` tasks into `bins` bins; requires
  //! fits(tasks, bins).
  ThrowCounter(std::int64_t tasks, std::int64_t bins);

  //! Whether 32-bit counters and bin indices hold the counts and the bins:
  //! 1 <= tasks < 2^32 and 1 <= bins <= 2^32.
  static bool fits(std::int64_t tasks, std::int64_t bins);
  //! The bytes of scratch a ThrowCounter(tasks, bins) holds.
  static double scratch_bytes(std::int64_t tasks, std::int64_t bins);

  //! Throws the tasks and returns the largest count (polls for interrupts
  //! between spans of engine::kInterruptPollSpan draws).
  std::int64_t max_count(engine::Generator& gen);

 private:
  static constexpr unsigned kBlockShift = 16;  // 2^16 counters of 4 bytes a block
  static constexpr std::uint32_t kBlockMask = (std::uint32_t{1} << kBlockShift) - 1;
  static_assert(kBlockShift <= 16, "a bucket holds a bin within its block in 16 bits");
  //! Whether (tasks, bins) are counted block by block.
  static bool blocked(std::int64_t bins);
  // Counts block b's bucket into its counters (zeroed first, if this is the
  // block's first bucket of the replication) and empties it.
  void count_bucket(std::size_t block);

  std::int64_t tasks_;
  std::uint64_t bins_;
  std::size_t bucket_capacity_ = 0;  // draws a bucket holds (blocked counting only)
  // Not zeroed on allocation: max_count zeroes the counters and the fills,
  // and writes the draws before it reads them.
  engine::ScratchVector<std::uint32_t> counts_;   // one a bin
  engine::ScratchVector<std::uint16_t> buckets_;  // bucket_capacity_ draws a block (their bins within it)
  engine::ScratchVector<std::uint32_t> fills_;    // draws in each block's bucket
  std::vector<std::uint8_t> counted_;             // whether a block's counters count this replication
  std::uint32_t largest_ = 0;                     // the largest count so far
};

}  // namespace lbmc::exp
