// The processor free first, for the list schedules of `lbmc compare`
// (self, chunk:K, guided, lpt): a winner tree over the processors' finish
// times (or loads).
//
// Leaf p holds processor p's finish time; each internal node holds the
// smaller of its two children with that child's processor, so the root is
// the processor free first. Giving that processor a later finish time
// replays one leaf-to-root path: at each level the candidate meets its
// sibling subtree's winner. The path's addresses follow from the processor
// alone, so its loads issue together, and the comparisons form a chain of
// one integer compare and one conditional move per level (finish times are
// >= 0, and non-negative doubles order as their bit patterns do; the tie
// rule is added to the sibling's key, off the chain). Measured at P = 1024
// and N = 1e6 exponential tasks, a replacement costs about a quarter of a
// binary heap's sift-down, whose chain runs through a dependent load per
// level and whose exit branch the predictor cannot learn. The conditional
// move is forced on x86-64 (GCC made a branch of ?:), and made lpt there
// 1.25x faster than selects by masks, four dependent operations a level.
//
// Ties: `Ties::keep_first` lets the processor that was first stay first
// when its new time equals another's, so it takes the next task too (the
// queue schedules count a split pair exactly when the next task goes
// elsewhere); `Ties::lowest_id` gives the first place to the lowest
// processor id among equal times (lpt: Graham's rule with a fixed tie
// order). Unused leaves, up to the next power of two, hold an all-ones key
// that no time reaches.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lbmc::exp {

enum class Ties { keep_first, lowest_id };

//! key, id = other_key, other_id when bar <= key, without a branch: which
//! side wins is a coin flip, and compilers turn a select written as ?: (or
//! even as masks, in some contexts) into a branch the predictor cannot learn.
inline void take_if_at_most(std::uint64_t bar, std::uint64_t other_key, std::uint32_t other_id, std::uint64_t& key,
                            std::uint32_t& id) {
#if defined(__x86_64__)
  // cmp computes key - bar; no borrow (ae) means bar <= key.
  asm("cmp %[bar], %[key]\n\t"
      "cmovae %[other_key], %[key]\n\t"
      "cmovae %[other_id], %[id]"
      : [key] "+r"(key), [id] "+r"(id)
      : [bar] "r"(bar), [other_key] "r"(other_key), [other_id] "r"(other_id)
      : "cc");
#else
  const std::uint64_t take = 0 - static_cast<std::uint64_t>(bar <= key);
  key ^= (key ^ other_key) & take;
  id ^= (id ^ other_id) & static_cast<std::uint32_t>(take);
#endif
}

class FirstFree {
 public:
  //! Every one of `procs` processors free at time 0.
  void reset(std::int64_t procs) {
    leaves_ = std::bit_ceil(static_cast<std::size_t>(procs));
    odd_depth_ = std::countr_zero(leaves_) % 2 == 1;
    keys_.assign(2 * leaves_, kUnused);
    ids_.assign(2 * leaves_, 0);
    for (std::size_t p = 0; p < leaves_; ++p) {
      if (p < static_cast<std::size_t>(procs)) keys_[leaves_ + p] = 0;
      ids_[leaves_ + p] = static_cast<std::uint32_t>(p);
    }
    for (std::size_t node = leaves_ - 1; node >= 1; --node) {
      const std::size_t right = 2 * node + 1;
      const std::size_t winner = keys_[right] < keys_[2 * node] ? right : 2 * node;
      keys_[node] = keys_[winner];
      ids_[node] = ids_[winner];
    }
  }

  //! The processor free first, and its finish time.
  struct First {
    std::uint64_t key;  // the time's bits
    std::uint32_t id;
    [[nodiscard]] double time() const { return std::bit_cast<double>(key); }
  };
  [[nodiscard]] First first() const { return {keys_[1], ids_[1]}; }

  //! The first processor, `first` as first() or the last advance returned
  //! it, finishes at `time` (>= first.time(), not NaN) instead; returns the
  //! new first. Kept by the caller, the first stays in registers, where
  //! first() would read back what the replay has just stored (2% of lpt).
  template <Ties kTies>
  First advance(First first, double time) {
    std::uint64_t* keys = keys_.data();
    std::uint32_t* ids = ids_.data();
    const std::uint32_t previous = first.id;
    std::uint64_t key = std::bit_cast<std::uint64_t>(time + 0.0);  // -0 read as +0
    std::uint32_t id = previous;
    std::size_t node = leaves_ + previous;
    keys[node] = key;
    // One level: the candidate meets its sibling subtree's winner, which
    // wins when other_key + tie <= key: tie = 1 when it must be strictly
    // earlier (keep_first; lowest_id when it is the right sibling, of
    // higher ids), 0 when it wins equal times too (lowest_id, a left
    // sibling). The sum is off the chain that runs from leaf to root, which
    // is then one compare and one conditional move a level.
    const auto climb = [&] {
      const std::size_t sibling = node ^ 1;
      const std::uint64_t other_key = keys[sibling];
      const std::uint32_t other_id = ids[sibling];
      std::uint64_t tie = 1;
      if constexpr (kTies == Ties::lowest_id) tie = sibling & 1;
      take_if_at_most(other_key + tie, other_key, other_id, key, id);
      node >>= 1;
      keys[node] = key;
      ids[node] = id;
    };
    // Two levels a turn, after one when the depth is odd: the loop's own
    // instructions weigh on a level's dozen (lpt 1.04x faster at P = 1024).
    if (odd_depth_) climb();
    while (node > 1) {
      climb();
      climb();
    }
    return {key, id};
  }

  //! The largest finish time (the makespan once every task is placed).
  [[nodiscard]] double latest() const {
    std::uint64_t most = 0;
    for (std::size_t p = leaves_; p < keys_.size(); ++p) {
      if (keys_[p] != kUnused && keys_[p] > most) most = keys_[p];
    }
    return std::bit_cast<double>(most);
  }

 private:
  // Above every time's bits (+inf's included), and one below the top, so
  // that kUnused + tie does not wrap.
  static constexpr std::uint64_t kUnused = ~std::uint64_t{0} - 1;
  std::size_t leaves_ = 1;
  bool odd_depth_ = false;  // log2(leaves_) odd, kept off the replay's path
  std::vector<std::uint64_t> keys_;  // [1, leaves_): internal nodes; [leaves_, 2·leaves_): processors
  std::vector<std::uint32_t> ids_;
};

}  // namespace lbmc::exp
