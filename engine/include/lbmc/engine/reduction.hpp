// A reduction over block indices whose shape is fixed by the indices alone.
//
// Blocks 0, 1, 2, ... are the leaves of a binary tree: the node (level j,
// index i) covers the blocks [i·2^j, (i+1)·2^j), and it is the merge of its
// two children, the left one (lower blocks) merged with the right one. A node
// joins its sibling as soon as both are present, whoever computed them: the
// thread that finished a block, another process (a rank, a file of blocks)
// that sends its nodes. Nodes whose sibling never comes (it would extend past
// the last block, or lie outside this process's range) remain; the total is
// those nodes folded left to right, which for blocks [0, N) are the aligned
// pieces of the binary decomposition of N. Every merge is therefore the same
// pair of subtrees merged in the same direction for any thread count, any
// split of the blocks into ranges, and any arrival order, so the total has
// the same bits (floating-point merges are not associative; this fixes their
// order). Merges run in parallel wherever subtrees complete, and no merge
// sits between a block and the next on the critical path.
//
// Accumulator: copyable, merged by merge_field (fields.hpp): its own
// merge(const Accumulator&), or field by field.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace lbmc::engine {

//! An aligned subtree: blocks [index·2^level, (index + 1)·2^level).
struct NodeId {
  int level = 0;
  std::int64_t index = 0;
  std::int64_t first() const noexcept { return index << level; }
  std::int64_t end() const noexcept { return (index + 1) << level; }
  //! The node it merges with: the other child of its parent.
  NodeId sibling() const noexcept { return {level, index ^ 1}; }
  //! The node that covers it and its sibling.
  NodeId parent() const noexcept { return {level + 1, index >> 1}; }
  //! Whether it covers the lower half of its parent's blocks.
  bool is_left() const noexcept { return (index & 1) == 0; }
  friend bool operator<(const NodeId& a, const NodeId& b) noexcept { return a.first() < b.first(); }
  friend bool operator==(const NodeId& a, const NodeId& b) noexcept = default;
};

//! The parent's accumulator from its two children's: the left child (lower
//! blocks) absorbs the right one, whichever of them came first.
template <class Accumulator>
Accumulator join_children(Accumulator left, const Accumulator& right) {
  merge_field(left, right);
  return left;
}

template <class Accumulator>
class BlockReduction {
 public:
  struct Node {
    NodeId id;
    Accumulator acc;
  };

  //! Adds the accumulator of node `id` and carries it up the tree while its
  //! siblings are present. Safe to call from several threads at once; the
  //! merges run outside the lock.
  void add(NodeId id, Accumulator acc) {
    for (;;) {
      std::optional<Accumulator> other;
      {
        const std::lock_guard lock(mutex_);
        const auto it = pending_.find(key(id.sibling()));
        if (it == pending_.end()) {
          if (!pending_.emplace(key(id), std::move(acc)).second) throw std::logic_error("block reduction: node twice");
          return;
        }
        other.emplace(std::move(it->second));
        pending_.erase(it);
      }
      acc = id.is_left() ? join_children(std::move(acc), *other) : join_children(std::move(*other), acc);
      id = id.parent();
    }
  }
  //! Adds every node of `nodes` (from another reduction of other blocks).
  void add(std::vector<Node> nodes) {
    for (Node& node : nodes) add(node.id, std::move(node.acc));
  }

  //! The nodes not merged yet, in block order (moved out).
  std::vector<Node> take_nodes() {
    const std::lock_guard lock(mutex_);
    std::vector<Node> nodes;
    for (auto& [k, acc] : pending_) nodes.push_back({id_of(k), std::move(acc)});
    pending_.clear();
    return nodes;
  }

  //! The blocks covered so far, [0, end): throws std::logic_error when the
  //! nodes do not cover such a range without gap.
  std::int64_t covered() const {
    const std::lock_guard lock(mutex_);
    std::int64_t end = 0;
    for (const auto& [k, acc] : pending_) {
      const NodeId id = id_of(k);
      if (id.first() != end) throw std::logic_error("block reduction: the blocks are not contiguous from 0");
      end = id.end();
    }
    return end;
  }

  //! True when a node holds block `block` (it ran, here or elsewhere).
  bool holds(std::int64_t block) const {
    const std::lock_guard lock(mutex_);
    auto it = pending_.upper_bound(Key{block, std::numeric_limits<int>::max()});
    if (it == pending_.begin()) return false;
    --it;
    return id_of(it->first).end() > block;
  }

  //! Calls f(id, acc) for every node in block order, without changing them.
  template <class F>
  void for_each_node(F f) const {
    const std::lock_guard lock(mutex_);
    for (const auto& [k, acc] : pending_) f(id_of(k), acc);
  }

  //! `into` merged with every node left to right, without changing the nodes
  //! (a preview of the total while blocks are still to come).
  void fold_into(Accumulator& into) const {
    const std::lock_guard lock(mutex_);
    for (const auto& [k, acc] : pending_) merge_field(into, acc);
  }

 private:
  // Keyed by first block, then level (a node and its first descendant share
  // a first block; both are never present at once).
  using Key = std::pair<std::int64_t, int>;
  static Key key(NodeId id) { return {id.first(), id.level}; }
  static NodeId id_of(Key k) { return {k.second, k.first >> k.second}; }

  mutable std::mutex mutex_;
  std::map<Key, Accumulator> pending_;
};

//! The same merges as BlockReduction for one thread that adds its blocks
//! in increasing order (a gap allowed): a node's left sibling, when
//! present, is the node just added before it, so the nodes wait on a stack
//! instead of in a map under a lock.
template <class Accumulator>
class AscendingReduction {
 public:
  using Node = typename BlockReduction<Accumulator>::Node;

  //! Adds block `block`'s accumulator; throws std::logic_error for a block
  //! not past the last one added.
  void add(std::int64_t block, Accumulator acc) {
    if (!nodes_.empty() && nodes_.back().id.end() > block) {
      throw std::logic_error("ascending reduction: blocks out of order");
    }
    NodeId id{0, block};
    while (!id.is_left() && !nodes_.empty() && nodes_.back().id == id.sibling()) {
      acc = join_children(std::move(nodes_.back().acc), acc);
      nodes_.pop_back();
      id = id.parent();
    }
    nodes_.push_back({id, std::move(acc)});
  }
  //! The nodes not merged, in block order (moved out).
  std::vector<Node> take_nodes() { return std::exchange(nodes_, {}); }

 private:
  std::vector<Node> nodes_;
};

}  // namespace lbmc::engine
