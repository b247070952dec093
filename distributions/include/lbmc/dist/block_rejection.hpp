// Rejection from a hat that is constant on blocks of consecutive integers,
// for unimodal integer laws too wide for a table of their cells: the
// negative binomial past 2^21 cells (task_time_samplers.hpp). Part of
// samplers.hpp, which is the header to include.
//
// Design note
// - The law f on k = 0, 1, ...: either log-concave with mode m (f(k+1)/f(k)
//   non-increasing), or log-convex and non-increasing (mode 0). Either way f
//   is monotone on each side of m, so on a block [a, b] beside m its largest
//   mass is at an end, and log f lies between two lines through (a, log f(a)):
//     concave: slope s = (log f(b) - log f(a))/(b - a) (the chord) below,
//              slope t = log(f(a+1)/f(a)) (the first ratio) above;
//     convex:  the other way round;
//   and since exp is convex, e^x >= 1 + x and, for 0 <= i <= b - a,
//   e^(i·t) <= 1 + i/(b - a)·(e^((b-a)t) - 1): a squeeze f(a)(1 + i·s) and
//   a ceiling, both linear in the offset i.
// - The hat: on block j of 2^s_j values, h_j = (1 + 2^-32)·max(f(a), f(b));
//   beyond the blocks on either side a geometric hat f(edge)(1 + 2^-32)·
//   e^(-lambda·|k - edge|), lambda a lower bound on -log of the largest
//   ratio f(k±1)/f(k) out there (the law supplies it; for the negative
//   binomial the ratio (k + R)(1 - P)/(k + 1) is monotone). The blocks grow
//   out from m, each the widest power of two (up to 2^40) over which log f
//   drops by at most epsilon = 2^-5, until the hat beyond holds at most
//   2^-40: ~2300 blocks at negbinomial:1e6,0.01 (sd 1e5), about as many for
//   any sd, as their number follows the drop of log f, not the width.
// - Drawing: rejection (Devroye 1986, "Non-Uniform Random Variate
//   Generation", §II.3) from that hat. Its masses H_j (blocks: 2^s_j·h_j;
//   tails: the geometric sums) are rounded UP to integer widths
//   W_j = ceil(2^63·H_j/T'), T' = (1 + 2^-30)·sum H_j, of an InversionTable
//   (Chen & Asau 1974) whose last cell, what the ceilings leave (~2^-30),
//   means "draw again"; h'_j = W_j·T'/(2^63·2^s_j) >= h_j is the hat the
//   rounded widths really draw from. The top 16 bits of one output pick one
//   of 2^16 equal buckets of the table's range; 99% of them lie inside one
//   block, which they fix (the others, and the tails, take the table's
//   search with the output's top 63 bits and a fresh output for the offset
//   and v). In a fixed block the output's low s_j bits are the offset i,
//   k = a + i, and the other 48 - s_j bits the top bits W of
//   v = (W + 2^s_j·U)/2^48, U uniform on [0, 1): W alone decides the
//   squeeze v < A_j + B_j·i, A_j = (1 - 2^-32) f(a)/h'_j, B_j = A_j·s,
//   unless the squeeze line falls inside W's interval (U then drawn). Past
//   the squeeze, v above the ceiling rejects; between the two the exact test
//   log f(k) >= log v + log h'_j decides. A rejection starts again. A tail
//   piece draws its geometric variate by inversion, floor(-log U/lambda),
//   and accepts by the exact test against its hat.
// - Exactness: a proposal k of block j has probability W_j/2^63·2^-s_j and
//   is accepted with probability f(k)/h'_j, so every accepted k has
//   probability f(k)/T' whatever the rounding of W_j (the tails likewise,
//   to the rounding of their sums, ~1e-15 relative on 2^-40). The squeeze
//   and the ceiling hold with 2^-32 to spare over the error of the computed
//   log f (below 1e-13 where it matters; log_pmf.hpp) and of the ratios
//   (double-double); tested against 50-digit log-gamma. What remains is that
//   error in the exact test, which decides ~0.2% of the draws.
// - Cost, at negbinomial:1e6,0.01: 1.03 outputs a draw (0.9% of the
//   buckets mixed, 1.1% of the draws past the squeeze, 0.2% to the exact
//   test); the fixed path (settled) is a bucket load, a block load (32
//   bytes) and a multiply-add. prefix_sums (the running sums of n draws)
//   runs the fixed path two outputs at a time in one loop that calls
//   nothing (for_each_draw). Setup ~3 ms (~3 log f evaluations a block);
//   ~0.45 MB per law, 256 KB of it the buckets.
// - The largest of n draws (max_of) needs the value of few of them. An
//   output is quiet when its bucket fixes a block that ends at or below the
//   largest so far, and its payload lies below the least squeeze of every
//   quiet bucket's block (less one, for rounding): it is then settled, with
//   one output, at a value that cannot raise the largest, and is passed
//   over on three compares and a load from an 8 KB bitmap of the quiet
//   buckets (blocks ascend in u, so "ends at or below" is u below one
//   threshold, moved at each new largest). The payload bound is the one
//   that passes over the most outputs: 0.969·2^48 with 99.1% of the buckets
//   quiet at negbinomial:1e6,0.01, so 96% of the outputs past the first
//   draws. Every other output takes the fixed path or the cold ones as
//   above: the same outputs and value as n calls.
// - Range: the integers from 0 up, as doubles (below 2^53); any value of
//   positive mass. Reproducibility: the setup and the exact tests use only
//   portable_log, portable_exp, double-double arithmetic (double_double.hpp)
//   and IEEE operations; the fast path integer operations and one
//   multiply-add (never fused): the same bits with every C library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "lbmc/dist/inversion_table.hpp"
#include "lbmc/dist/paired_draws.hpp"
#include "lbmc/dist/portable_exp_log.hpp"
#include "lbmc/dist/sampler_support.hpp"
#include "lbmc/engine/pcg64_pair.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::dist {

//! A unimodal law on 0, 1, ... as BlockRejection needs it.
struct UnimodalLaw {
  //! log P(X = k) for an integer k >= 0.
  std::function<double(double)> log_pmf;
  //! log(P(X = k + 1)/P(X = k)), to its own rounding (not a difference of
  //! log_pmf values, whose errors would swamp it over wide blocks).
  std::function<double(double)> log_ratio;
  //! A mode; 0 when !log_concave.
  double mode = 0.0;
  //! True: log-concave. False: log-convex and non-increasing (mode 0).
  bool log_concave = true;
  //! For an integer x >= mode: a lower bound on -log sup_{k >= x} f(k+1)/f(k), > 0.
  std::function<double(double)> upper_decay;
  //! For an integer 1 <= x <= mode: a lower bound on -log sup_{1 <= k <= x} f(k-1)/f(k), > 0.
  std::function<double(double)> lower_decay;
  //! The blocks stop where the geometric hat beyond holds at most this (in (0, 0.25]).
  double tail_mass = 0x1.0p-40;
};

//! Rejection from a hat constant on blocks (design note).
class BlockRejection {
 public:
  //! Builds the blocks and the piece table (milliseconds: ~3 log_pmf calls a block).
  explicit BlockRejection(const UnimodalLaw& law);

  //! One variate; one generator output while the bucket fixes the block
  //! and the squeeze accepts.
  double operator()(engine::Generator& gen) const {
    const std::uint64_t x = gen();
    double value = 0.0;
    if (settled(x, value)) [[likely]] return value;
    return detail::with_generator_copy(gen, [this, x](engine::Generator& g) { return unsettled(x, g); });
  }
  //! The largest of the next `count` >= 1 variates drawn in turn: the same
  //! outputs and value as `count` calls, the quiet outputs (design note)
  //! passed over, two outputs at a time (engine::Pcg64Pair). Out of line, in
  //! a frame of its own: inlined into a kernel's body, the largest so far
  //! lived on the stack.
  [[gnu::noinline]] double max_of(engine::Generator& gen, std::int64_t count) const {
    double largest = 0.0;     // every variate is >= 0
    // Outputs x below this (u = x >> 1 below blocks_up_to(largest)): a cell
    // that ends at or below `largest`. Twice a threshold of at most 2^63,
    // which wraps to 0 (no output quiet) only past the last block.
    std::uint64_t below = 0;
    const std::uint64_t* quiet_buckets = quiet_buckets_.data();
    const std::uint64_t quiet_payload = quiet_payload_;
    const std::uint64_t* thresholds = table_.thresholds().data();
    // x drawn, with no more outputs: passed over, or kept when settled.
    const auto one_output = [&](std::uint64_t x) {
      const auto bucket = static_cast<std::size_t>(x >> kPayloadBits);
      if ((x & kPayloadMask) < quiet_payload && x < below &&
          ((quiet_buckets[bucket >> 6] >> (bucket & 63)) & 1) != 0) [[likely]] {
        return true;
      }
      double value = 0.0;
      std::uint32_t j = 0;
      if (!settled(x, value, j)) return false;
      if (value > largest) {
        largest = value;
        // The first block that holds a larger value: j or the next.
        below = thresholds[value < blocks_[j].last() ? j : j + 1] << 1;
      }
      return true;
    };
    const auto keep_unsettled = [&](std::uint64_t x) {
      const double value = detail::with_generator_copy(gen, [this, x](engine::Generator& g) { return unsettled(x, g); });
      if (value > largest) {
        largest = value;
        below = blocks_up_to(value) << 1;
      }
    };
    while (count >= 2) {
      engine::Pcg64Pair pair(gen);
      for (;;) {
        if (!one_output(pair.first())) [[unlikely]] {
          pair.leave_after_first(gen);
          keep_unsettled(pair.first());
          count -= 1;
          break;
        }
        if (!one_output(pair.second())) [[unlikely]] {
          pair.leave_after_second(gen);
          keep_unsettled(pair.second());
          count -= 2;
          break;
        }
        count -= 2;
        if (count < 2) {
          pair.leave_after_second(gen);
          break;
        }
        pair.advance();
      }
    }
    if (count == 1) {
      const double value = (*this)(gen);
      largest = value > largest ? value : largest;
    }
    return largest;
  }
  //! The running sums of the next y.size() variates drawn in turn, as
  //! integers, into y; returns the last (0 when y is empty): the same
  //! outputs and values as y.size() calls (for_each_draw). Out of line, as
  //! max_of.
  [[gnu::noinline]] std::int64_t prefix_sums(engine::Generator& gen, std::span<std::int64_t> y) const {
    std::int64_t sum = 0;
    std::int64_t* next = y.data();
    for_each_draw(gen, static_cast<std::int64_t>(y.size()),
                  [&sum, &next](double value) { *next++ = sum += static_cast<std::int64_t>(value); });
    return sum;
  }

  //! The number of blocks.
  std::size_t blocks() const noexcept { return blocks_.size(); }
  //! The widest block, as log2 of its width.
  unsigned widest_shift() const noexcept { return widest_shift_; }
  //! The first value the blocks cover.
  double first() const noexcept { return first_; }
  //! The last value the blocks cover.
  double last() const noexcept { return last_; }
  //! The share of the 2^16 buckets that fix a block.
  double fixed_share() const noexcept;
  //! The share of the 2^16 buckets whose outputs may be quiet (max_of).
  double quiet_share() const noexcept;
  //! The payloads (an output's low 48 bits) below which an output of a
  //! quiet bucket is settled by the squeeze at any offset.
  std::uint64_t quiet_payload() const noexcept { return quiet_payload_; }

  // For tests: what the fast path and the exact test compare with.
  //! Block j's first value.
  double block_start(std::size_t j) const { return blocks_.at(j).start; }
  //! Block j's width, as log2.
  unsigned block_shift(std::size_t j) const { return shifts_.at(j); }
  //! h'_j: the hat block j draws from (the exact test accepts v < f(k)/h'_j).
  double block_height(std::size_t j) const;
  //! The largest v that the squeeze may accept at once at this offset of block j.
  double squeeze(std::size_t j, double offset) const;
  //! Above this v the proposal at this offset of block j is rejected without the exact test.
  double ceiling(std::size_t j, double offset) const;
  //! log of the rescaled tail hat at k beyond the blocks (upper: k > last(),
  //! else k < first()); -inf where that tail has no mass.
  double log_tail_hat(bool upper, double k) const;

 private:
  // One output x: its top 16 bits pick one of 2^16 equally likely buckets.
  // A bucket that lies in one block of 2^s values fixes it; then the low s
  // bits of the 48-bit payload are the offset and the others, as they stand
  // (a multiple W of 2^s), the top bits of v = (W + 2^s·U)/2^48, U uniform
  // on [0, 1) drawn only when W alone does not decide the squeeze.
  static constexpr unsigned kPayloadBits = 48;
  static constexpr std::uint64_t kPayloadMask = (std::uint64_t{1} << kPayloadBits) - 1;
  static constexpr std::uint32_t kMixed = 0xffffffff;  // a bucket that fixes no block

  // 2^s values from `start`. W < base + slope·offset implies v < A + B·offset,
  // the squeeze, with base = A·2^48 - 2^s, slope = B·2^48.
  struct Block {
    double start;
    double base;
    double slope;
    std::uint64_t mask;  // 2^s - 1
    double last() const noexcept { return start + static_cast<double>(static_cast<std::int64_t>(mask)); }
  };
  // Above the line a + c·offset (>= f/h'_j on the block) a proposal is
  // rejected without the exact test (unscaled).
  struct Ceiling {
    double a;
    double c;
  };
  // A geometric tail beyond `edge`: k = edge ± (1 + floor(E/lambda)).
  struct Tail {
    double edge = 0.0;
    double lambda = 1.0;
    double log_hat_edge = 0.0;  // log of the rescaled hat at the edge
  };

  // keep(v) for each of the next `count` >= 0 variates v drawn in turn:
  // the same outputs and values as `count` calls, two outputs at a time in
  // a loop that calls nothing while the fast path settles them
  // (paired_draws.hpp; with the cold paths' calls in the loop GCC kept the
  // generator's state on the stack, a store and a load on every draw).
  template <class Keep>
  [[gnu::always_inline]] void for_each_draw(engine::Generator& gen, std::int64_t count, const Keep& keep) const {
    detail::for_each_paired_draw(
        gen, count, [this](std::uint64_t x, double& value) { return settled(x, value); },
        [this](std::uint64_t x, engine::Generator& g) { return unsettled(x, g); }, keep);
  }

  // The variate of the output x when its bucket fixes a block and W alone
  // accepts by the squeeze (true); the fast path, which draws nothing more.
  bool settled(std::uint64_t x, double& value) const noexcept {
    std::uint32_t block = 0;
    return settled(x, value, block);
  }
  // The same, with the bucket's block (kMixed when it fixes none).
  bool settled(std::uint64_t x, double& value, std::uint32_t& block) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const std::uint32_t j = buckets_[static_cast<std::size_t>(x >> kPayloadBits)];
    block = j;
    if (j == kMixed) [[unlikely]] return false;
    const Block& b = blocks_[j];
    double offset = 0.0;
    double v_high = 0.0;
    if (!squeezed(x, b, offset, v_high)) [[unlikely]] return false;
    value = b.start + offset;
    return true;
  }
  // The u below which every cell is a block ending at or below `value`, or
  // the lower tail: the start of the first block holding a larger value.
  std::uint64_t blocks_up_to(double value) const noexcept {
    std::size_t lo = 0, hi = blocks_.size();  // inline: no call in the loop
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      const Block& b = blocks_[mid];
      if (b.last() <= value) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return table_.thresholds()[lo];
  }
  // The variate of the output x that settled() leaves (cold): past the
  // squeeze, or from a bucket that fixes no block.
  double unsettled(std::uint64_t x, engine::Generator& gen) const {
    const std::uint32_t j = buckets_[static_cast<std::size_t>(x >> kPayloadBits)];
    if (j == kMixed) return draw_slowly(x, gen);
    double offset = 0.0;
    double v_high = 0.0;
    squeezed(x, blocks_[j], offset, v_high);
    return past_squeeze(j, offset, v_high, gen);
  }
  // The offset and W of the output x in block b (a bucket fixed it); true
  // when W alone accepts by the squeeze.
  static bool squeezed(std::uint64_t x, const Block& b, double& offset, double& v_high) noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const std::uint64_t payload = x & kPayloadMask;
    const std::uint64_t low = payload & b.mask;
    // Signed conversions: both are below 2^48.
    offset = static_cast<double>(static_cast<std::int64_t>(low));
    v_high = static_cast<double>(static_cast<std::int64_t>(payload - low));
    return v_high < b.base + b.slope * offset;
  }
  // quiet_buckets_ and quiet_payload_, from the blocks and buckets.
  void choose_quiet_buckets();
  // v = (W + 2^s·U)/2^48 for block j, U a fresh uniform.
  double completed(std::size_t j, double v_high, engine::Generator& gen) const;
  // The proposal (j, offset, W) failed the squeeze: U completes v, then the
  // ceiling and the exact test; draws again until one is accepted (cold).
  double past_squeeze(std::uint32_t j, double offset, double v_high, engine::Generator& gen) const;
  // Proposals from the output x on, any bucket, until one is accepted (cold).
  double draw_slowly(std::uint64_t x, engine::Generator& gen) const;
  // v < the ceiling and the exact test, for block j.
  bool accepts(std::size_t j, double offset, double v) const;
  // A tail proposal accepted, or NaN.
  double tail(const Tail& t, double direction, engine::Generator& gen) const;

  InversionTable table_;  // lower tail, blocks, upper tail; "above": draw again
  std::vector<std::uint32_t> buckets_;  // 2^16: the block the bucket fixes, or kMixed
  std::vector<std::uint64_t> quiet_buckets_;  // 2^16 bits: the bucket may be quiet
  std::uint64_t quiet_payload_ = 0;
  std::vector<Block> blocks_;
  std::vector<Ceiling> ceilings_;
  std::vector<double> log_heights_;  // log h'_j, for the exact test
  std::vector<unsigned> shifts_;     // s of each block
  Tail lower_, upper_;
  std::function<double(double)> log_pmf_;
  const ExpLogTables* math_ = &exp_log_tables();
  unsigned widest_shift_ = 0;
  double first_ = 0.0;
  double last_ = 0.0;
};

}  // namespace lbmc::dist
