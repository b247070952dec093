// Quantile stores binned early by the rank that filled them
// (engine/early_sketches.hpp): only where the nodes together pass the cap,
// and to a total with the same bytes as binning at the end.
#include <doctest/doctest.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "lbmc/engine/early_sketches.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/rng.hpp"
#include "lbmc/engine/serial.hpp"

namespace early_sketches_test {

namespace {

using lbmc::engine::QuantileStore;

constexpr std::size_t kCap = 1000;

// Two stores with a small cap, and a field that is not a store.
struct TwoStores {
  lbmc::engine::Moments moments;
  QuantileStore wide{kCap, 16};
  QuantileStore narrow{kCap, 16};
  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.moments, s.wide, s.narrow);
  }
  void merge(const TwoStores& other) { lbmc::engine::merge_fields(*this, other); }
};

struct Node {
  TwoStores acc;
};

// Nodes of 600 values each in `wide` (1800 in all, past the cap) and 100
// each in `narrow` (300, below it).
std::vector<Node> three_nodes() {
  lbmc::engine::Generator gen = lbmc::engine::block_generator(5, 0);
  std::vector<Node> nodes(3);
  for (Node& node : nodes) {
    for (int i = 0; i < 600; ++i) node.acc.wide.add(lbmc::engine::uniform_open01(gen) * 3.0);
    for (int i = 0; i < 100; ++i) node.acc.narrow.add(lbmc::engine::uniform_open01(gen) + 0.5);
  }
  return nodes;
}

std::vector<std::byte> total_bytes(const std::vector<Node>& nodes) {
  TwoStores total;
  for (const Node& node : nodes) total.merge(node.acc);
  return lbmc::engine::to_bytes(total);
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("early sketches: the stores visited are the field list's in its order") {
    TwoStores sample;
    std::vector<const QuantileStore*> seen;
    lbmc::engine::for_each_quantile_store(sample, [&](QuantileStore& store) { seen.push_back(&store); });
    REQUIRE(seen.size() == 2);
    CHECK(seen[0] == &sample.wide);
    CHECK(seen[1] == &sample.narrow);
  }

  TEST_CASE("early sketches: only stores past the cap together are binned - to the same total") {
    std::vector<Node> nodes = three_nodes();
    const std::vector<std::byte> late = total_bytes(nodes);
    lbmc::engine::sketch_stores_past_cap(nodes);
    for (const Node& node : nodes) {
      CHECK_FALSE(node.acc.wide.exact());  // 600 < cap each, 1800 together
      CHECK(node.acc.narrow.exact());      // 300 together
      CHECK(node.acc.wide.count() == 600);
    }
    CHECK(total_bytes(nodes) == late);
  }
}

}  // namespace early_sketches_test
