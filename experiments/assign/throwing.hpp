// Throwing N tasks into P bins, uniformly and independently, and the largest
// count: the multinomial maximum of `lbmc assign` by simulation.
//
// Incrementing P counters at random costs a cache miss per task once the
// counters outgrow the core's caches (P = 10^6: 4 MB), and a miss to a last-
// level cache shared with other work is slow and unsteady. ThrowCounter
// therefore counts in two passes over chunks of the draws, as a radix sort's
// first pass does (a counting pass, then a scatter by key):
//  1. draw a chunk of bin indices in order, counting how many fall in each
//     block of 2^kBlockShift bins (256 KiB of counters);
//  2. scatter the chunk's indices into groups by block, then increment the
//     counters group by group: each group's counters stay in the core's own
//     L2 while it is counted, and the draws are read and written in streams.
// (Blocks of 2^12, 2^15 and 2^16 bins were timed at P = 10^6, alone and on a
// core shared with a process that thrashes the caches: 2^16 was the fastest
// in both.)
// With at most one block of bins, or more than 2^24 bins (where a chunk of
// as many draws as bins would double the counters' memory), the counters
// are incremented directly.
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
  static constexpr unsigned kBlockShift = 16;  // 4096 counters of 4 bytes a block
  //! Whether (tasks, bins) are counted in two passes.
  static bool blocked(std::int64_t bins);

  std::int64_t tasks_;
  std::uint64_t bins_;
  std::int64_t chunk_;                 // draws a chunk
  // Not zeroed on allocation: max_count zeroes the counters, and writes the
  // draws before it reads them.
  engine::ScratchVector<std::uint32_t> counts_;   // one a bin
  engine::ScratchVector<std::uint32_t> drawn_;    // a chunk's draws, in order (blocked counting only)
  engine::ScratchVector<std::uint32_t> grouped_;  // the same, grouped by block
  std::vector<std::int64_t> starts_;   // per block: its draws in the chunk, then where its group starts
};

}  // namespace lbmc::exp
