// Quantile stores binned by the rank that filled them.
//
// Under MPI every rank sends rank 0 the nodes of its share of the blocks
// (driver.hpp). A quantile store keeps its values exactly up to its cap and
// is a sketch past it, a function of the multiset of values alone
// (quantile_store.hpp). When the stores at one place of the accumulator hold
// more values than the cap over a rank's nodes, the total there will be a
// sketch whatever the other ranks hold, so the rank bins those stores itself,
// on its own threads while the other ranks bin theirs, and sends sketches of
// a few MiB instead of 8 bytes a value for rank 0 to bin alone. The total is
// the same, bit for bit: a sketch does not depend on when its values were
// binned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/quantile_store.hpp"

namespace lbmc::engine {

namespace detail {

template <class T, class F>
void visit_stores(T& field, F& visit) {
  if constexpr (std::is_same_v<T, QuantileStore>) {
    visit(field);
  } else if constexpr (std::is_array_v<T>) {
    for (auto& element : field) visit_stores(element, visit);
  } else if constexpr (HasFields<T>) {
    for_each_field(field, [&](auto& member) { visit_stores(member, visit); });
  }
}

}  // namespace detail

//! Calls visit(store) for every QuantileStore of `acc`, in the order its
//! field list gives them (members, nested samples, arrays; an optional's
//! content is not visited: its presence may differ between accumulators).
template <class Accumulator, class F>
void for_each_quantile_store(Accumulator& acc, F visit) {
  detail::visit_stores(acc, visit);
}

//! Bins the quantile stores of `nodes` (each with an `acc` member) at every
//! place of the accumulator where the nodes together hold more values than
//! the store's cap (top of this file). A store's binning runs in OpenMP tasks
//! (QuantileStore::to_sketch_early), which the idle threads of an enclosing
//! parallel region take.
template <class Node>
void sketch_stores_past_cap(std::vector<Node>& nodes) {
  std::vector<std::vector<QuantileStore*>> stores_at;  // by place in the accumulator
  for (Node& node : nodes) {
    std::size_t place = 0;
    for_each_quantile_store(node.acc, [&](QuantileStore& store) {
      if (place == stores_at.size()) stores_at.emplace_back();
      stores_at[place++].push_back(&store);
    });
  }
  for (const std::vector<QuantileStore*>& stores : stores_at) {
    std::int64_t values = 0;
    for (const QuantileStore* store : stores) values += store->count();
    if (static_cast<std::size_t>(values) <= stores.front()->cap()) continue;
    for (QuantileStore* store : stores) {
      if (store->count() > 0) store->to_sketch_early();
    }
  }
}

}  // namespace lbmc::engine
