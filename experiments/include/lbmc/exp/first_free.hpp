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
// integer compare-and-selects: finish times are >= 0, and non-negative
// doubles order as their bit patterns do. Measured at P = 1024 and N = 1e6
// exponential tasks, a replacement costs about a quarter of a binary
// heap's sift-down, whose chain runs through a dependent load per level and
// whose exit branch the predictor cannot learn.
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

class FirstFree {
 public:
  //! Every one of `procs` processors free at time 0.
  void reset(std::int64_t procs) {
    leaves_ = std::bit_ceil(static_cast<std::size_t>(procs));
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

  //! The earliest finish time and its processor.
  [[nodiscard]] double first_time() const { return std::bit_cast<double>(keys_[1]); }
  [[nodiscard]] std::uint32_t first() const { return ids_[1]; }

  //! The first processor's finish time becomes `time` (>= first_time(), not
  //! NaN); returns whether another processor is now first.
  template <Ties kTies>
  bool advance_first(double time) {
    std::uint64_t* keys = keys_.data();
    std::uint32_t* ids = ids_.data();
    const std::uint32_t previous = ids[1];
    std::uint64_t key = std::bit_cast<std::uint64_t>(time + 0.0);  // -0 read as +0
    std::uint32_t id = previous;
    std::size_t node = leaves_ + previous;
    keys[node] = key;
    while (node > 1) {
      const std::uint64_t other_key = keys[node ^ 1];
      const std::uint32_t other_id = ids[node ^ 1];
      // With lowest_id a left sibling (lower ids) wins an equal time too:
      // every node then holds the least (time, id) of its subtree.
      std::uint64_t bar = key;
      if constexpr (kTies == Ties::lowest_id) bar += node & 1;
      const bool other_wins = other_key < bar;
      // Masks, not ?: which the compiler may turn into a branch that the
      // predictor cannot learn (which side wins is a coin flip).
      const std::uint64_t take = 0 - static_cast<std::uint64_t>(other_wins);
      key ^= (key ^ other_key) & take;
      id ^= (id ^ other_id) & static_cast<std::uint32_t>(take);
      node >>= 1;
      keys[node] = key;
      ids[node] = id;
    }
    return id != previous;
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
  static constexpr std::uint64_t kUnused = ~std::uint64_t{0};
  std::size_t leaves_ = 1;
  std::vector<std::uint64_t> keys_;  // [1, leaves_): internal nodes; [leaves_, 2·leaves_): processors
  std::vector<std::uint32_t> ids_;
};

}  // namespace lbmc::exp
