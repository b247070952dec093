// Quantile store: order statistics, distribution-free intervals, and the
// histogram fallback past the cap.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <span>
#include <stdexcept>
#include <vector>

#include <boost/math/distributions/binomial.hpp>

#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/rng.hpp"

namespace quantile_store_test {

using lbmc::engine::QuantileStore;

TEST_SUITE("fast") {
  TEST_CASE("quantile store: empirical quantile is X_(ceil(alpha R))") {
    QuantileStore store;
    for (int i = 100; i >= 1; --i) store.add(i);  // 1..100, unsorted
    CHECK(store.finalize().quantile(0.95, 0.95).value == 95.0);
    CHECK(store.finalize().quantile(0.951, 0.95).value == 96.0);
    CHECK(store.finalize().quantile(0.5, 0.95).value == 50.0);
    const auto q = store.finalize().quantile(0.5, 0.95);
    CHECK(q.low < 50.0);
    CHECK(q.high > 50.0);
    CHECK(store.finalize().fraction_at_most(10.0) == doctest::Approx(0.10));
    CHECK(store.finalize().fraction_equal(10.0) == doctest::Approx(0.01));
  }

  TEST_CASE("quantile store: selected order statistics equal those of a full sort") {
    auto gen = lbmc::engine::block_generator(5, 0);
    QuantileStore store;
    std::vector<double> values;
    for (int i = 0; i < 10007; ++i) {
      // Ties as well as distinct values.
      const double x = i % 3 == 0 ? std::floor(10.0 * lbmc::engine::uniform01(gen)) : lbmc::engine::uniform01(gen);
      store.add(x);
      values.push_back(x);
    }
    std::sort(values.begin(), values.end());
    const auto r = static_cast<double>(values.size());
    // Levels read out of order, repeated, and at both ends.
    for (double alpha : {0.5, 0.95, 0.05, 0.5, 1e-5, 0.99999, 0.3, 0.31, 0.7}) {
      CAPTURE(alpha);
      const auto q = store.finalize().quantile(alpha, 0.95);
      const auto rank = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(alpha * r)));
      CHECK(q.value == values[rank - 1]);
      CHECK(q.low <= q.value);
      CHECK(q.high >= q.value);
      // An end beyond the sample is open: (1 − α)^R > 2.5% below, α^R above.
      if ((1.0 - alpha) > std::pow(0.025, 1.0 / r)) {
        CHECK(q.low == -std::numeric_limits<double>::infinity());
      } else {
        CHECK(std::binary_search(values.begin(), values.end(), q.low));
      }
      if (alpha > std::pow(0.025, 1.0 / r)) {
        CHECK(q.high == std::numeric_limits<double>::infinity());
        CHECK(std::isinf(q.se));
      } else {
        CHECK(std::binary_search(values.begin(), values.end(), q.high));
      }
    }
    CHECK(std::ranges::equal(store.finalize().sorted_values(), values));
  }

  TEST_CASE("quantile store: interval ranks have the binomial coverage") {
    // For R = 1000, alpha = 0.9: the ranks bracket 900 and the coverage
    // P(l <= B < u), B ~ Bin(R, alpha), is at least the level.
    QuantileStore store;
    for (int i = 1; i <= 1000; ++i) store.add(i);
    const auto q = store.finalize().quantile(0.9, 0.95);
    const auto l = static_cast<double>(q.low), u = static_cast<double>(q.high);
    CHECK(l < 900.0);
    CHECK(u > 900.0);
    boost::math::binomial_distribution<> b(1000, 0.9);
    const double coverage = boost::math::cdf(b, u - 1) - boost::math::cdf(b, l - 1);
    CHECK(coverage >= 0.95);
    CHECK(coverage < 0.97);
  }

  TEST_CASE("quantile store: integer data past the cap stays exact") {
    QuantileStore exact_store(1u << 30);
    QuantileStore capped(1000);
    auto gen = lbmc::engine::block_generator(3, 0);
    for (int b = 0; b < 20; ++b) {
      QuantileStore block;
      for (int i = 0; i < 500; ++i) block.add(std::floor(100 * lbmc::engine::uniform01(gen)));
      exact_store.merge(block);
      capped.merge(block);
    }
    CHECK_FALSE(capped.exact());
    CHECK(capped.count() == 10000);
    for (double alpha : {0.01, 0.3, 0.5, 0.95, 0.999}) {
      CHECK(capped.finalize().quantile(alpha, 0.95).value == exact_store.finalize().quantile(alpha, 0.95).value);
      CHECK(capped.finalize().quantile(alpha, 0.95).low == exact_store.finalize().quantile(alpha, 0.95).low);
      CHECK(capped.finalize().quantile(alpha, 0.95).high == exact_store.finalize().quantile(alpha, 0.95).high);
    }
    CHECK(capped.finalize().fraction_equal(42.0) == exact_store.finalize().fraction_equal(42.0));
  }

  TEST_CASE("quantile store: continuous data past the cap is within one bucket") {
    QuantileStore exact_store(1u << 30);
    QuantileStore capped(2000, 64);
    auto gen = lbmc::engine::block_generator(4, 0);
    for (int b = 0; b < 40; ++b) {
      QuantileStore block;
      for (int i = 0; i < 500; ++i) block.add(-std::log1p(-lbmc::engine::uniform01(gen)));
      exact_store.merge(block);
      capped.merge(block);
    }
    REQUIRE_FALSE(capped.exact());
    for (double alpha : {0.1, 0.5, 0.9, 0.99}) {
      CAPTURE(alpha);
      const double exact = exact_store.finalize().quantile(alpha, 0.95).value;
      const double bucket = capped.finalize().resolution(exact);
      CHECK(bucket <= 0x1p-19 * exact);  // 2^-20 of a binade, at most 2^-19 relative
      CHECK(std::abs(capped.finalize().quantile(alpha, 0.95).value - exact) <= bucket);
    }
    // The tails hold few values per binade: they stay exact.
    CHECK(capped.finalize().resolution(exact_store.finalize().quantile(0.9999, 0.95).value) == 0.0);
    CHECK(capped.finalize().quantile(0.9999, 0.95).value == exact_store.finalize().quantile(0.9999, 0.95).value);
  }

  TEST_CASE("quantile store: past the cap the content does not depend on how blocks were merged") {
    // The same 60 blocks merged in order, in reverse, and as a tree of
    // partial stores: identical quantiles, intervals and fractions, for
    // integer data, continuous data of both signs, and a mix (integers first).
    for (const int kind : {0, 1, 2}) {
      CAPTURE(kind);
      std::vector<QuantileStore> blocks;
      auto gen = lbmc::engine::block_generator(6, static_cast<std::uint64_t>(kind));
      for (int b = 0; b < 60; ++b) {
        QuantileStore block;
        for (int i = 0; i < 300; ++i) {
          const double u = lbmc::engine::uniform01(gen);
          const double x = kind == 0 ? std::floor(1e6 * u) : 3.0 * std::log(u / (1.0 - u));
          block.add(kind == 2 && b < 30 ? std::floor(x) : x);
        }
        blocks.push_back(std::move(block));
      }
      QuantileStore forward(5000, 50), backward(5000, 50), tree(5000, 50);
      for (const auto& block : blocks) forward.merge(block);
      for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) backward.merge(*it);
      std::vector<QuantileStore> level(blocks.begin(), blocks.end());
      while (level.size() > 1) {
        std::vector<QuantileStore> next;
        for (std::size_t i = 0; i + 1 < level.size(); i += 2) {
          QuantileStore pair(5000, 50);
          pair.merge(level[i]);
          pair.merge(level[i + 1]);
          next.push_back(std::move(pair));
        }
        if (level.size() % 2 == 1) next.push_back(level.back());
        level = std::move(next);
      }
      tree.merge(level.front());
      REQUIRE_FALSE(forward.exact());
      for (QuantileStore* other : {&backward, &tree}) {
        CHECK(other->count() == forward.count());
        for (double alpha : {1e-4, 0.01, 0.3, 0.5, 0.95, 0.999}) {
          CAPTURE(alpha);
          const auto a = forward.finalize().quantile(alpha, 0.95);
          const auto b = other->finalize().quantile(alpha, 0.95);
          CHECK(a.value == b.value);
          CHECK(a.low == b.low);
          CHECK(a.high == b.high);
        }
        CHECK(other->finalize().fraction_at_most(0.5) == forward.finalize().fraction_at_most(0.5));
      }
    }
  }

  TEST_CASE("quantile store: many values binned at once by tasks give the sketch of one by one") {
    // Past kParallelBinValues values a conversion to a sketch bins groups in
    // OpenMP tasks (here three groups, on 3 threads), against the values
    // added one by one: sparse and dense pages, integers and both signs.
    const std::size_t blocks = 100;
    const std::size_t per_block = QuantileStore::kParallelBinValues * 5 / 2 / blocks;
    for (const int kind : {0, 1}) {
      CAPTURE(kind);
      auto gen = lbmc::engine::block_generator(8, static_cast<std::uint64_t>(kind));
      QuantileStore many(1000), one_by_one(1000);
      std::size_t count = 0;
      for (std::size_t b = 0; b < blocks; ++b) {
        for (double& x : many.append(per_block)) {
          const double u = lbmc::engine::uniform01(gen);
          x = kind == 0 ? std::floor(3e6 * u) : std::ldexp(u - 0.5, static_cast<int>(64.0 * u) - 40);
          // A rare value far out: its page stays sparse and takes values
          // from every group, in span order.
          if (++count % 40000 == 0) x = kind == 0 ? 1e12 + std::floor(1e5 * u) : 1e200 * (1.0 + u);
          one_by_one.add(x);
        }
      }
      QuantileStore merged(1000);
      lbmc::engine::with_task_threads(3, [&] { merged.merge(many); });
      REQUIRE_FALSE(merged.exact());
      CHECK(merged.count() == one_by_one.count());
      // The bytes before any read (a read may reorder a sparse page).
      CHECK(lbmc::engine::to_bytes(merged) == lbmc::engine::to_bytes(one_by_one));
      for (double alpha : {1e-6, 0.01, 0.5, 0.95, 0.999999}) {
        CAPTURE(alpha);
        const auto a = merged.finalize().quantile(alpha, 0.95);
        const auto b = one_by_one.finalize().quantile(alpha, 0.95);
        CHECK(a.value == b.value);
        CHECK(a.low == b.low);
        CHECK(a.high == b.high);
      }
      CHECK(merged.finalize().fraction_at_most(0.25) == one_by_one.finalize().fraction_at_most(0.25));
    }
  }

  TEST_CASE("quantile store: widening the 32-bit bucket counts changes no count") {
    // The same data counted with the default limit and with 64-bit counts
    // from the 7th value of a page on (integer and float pages): identical reads.
    for (const bool integers : {true, false}) {
      CAPTURE(integers);
      QuantileStore once(1000, 16);
      QuantileStore often(1000, 16, 7);
      auto gen = lbmc::engine::block_generator(5, 0);
      for (int b = 0; b < 20; ++b) {
        QuantileStore block;
        for (int i = 0; i < 499; ++i) {
          const double u = 50 * lbmc::engine::uniform01(gen);
          block.add(integers ? std::floor(u) : u);
        }
        once.merge(block);
        often.merge(block);
      }
      REQUIRE_FALSE(often.exact());
      CHECK(often.count() == once.count());
      for (double alpha : {0.01, 0.3, 0.5, 0.95, 0.999}) {
        CHECK(often.finalize().quantile(alpha, 0.95).value == once.finalize().quantile(alpha, 0.95).value);
        CHECK(often.finalize().quantile(alpha, 0.95).low == once.finalize().quantile(alpha, 0.95).low);
        CHECK(often.finalize().quantile(alpha, 0.95).high == once.finalize().quantile(alpha, 0.95).high);
      }
      CHECK(often.finalize().fraction_at_most(17.0) == once.finalize().fraction_at_most(17.0));
      if (integers) CHECK(often.finalize().fraction_equal(17.0) == once.finalize().fraction_equal(17.0));
    }
  }

  TEST_CASE("quantile store: merged stores share blocks and copies are independent") {
    QuantileStore a, b;
    std::span<double> xs = a.append(3);
    xs[0] = 3.0;
    xs[1] = 1.0;
    xs[2] = 2.0;
    b.merge(a);
    b.add(0.5);
    QuantileStore c = b;
    c.add(10.0);
    CHECK(a.count() == 3);
    CHECK(b.count() == 4);
    CHECK(c.count() == 5);
    CHECK(std::ranges::equal(b.finalize().sorted_values(), std::vector<double>{0.5, 1.0, 2.0, 3.0}));
    CHECK(std::ranges::equal(c.finalize().sorted_values(), std::vector<double>{0.5, 1.0, 2.0, 3.0, 10.0}));
    CHECK(std::ranges::equal(a.finalize().sorted_values(), std::vector<double>{1.0, 2.0, 3.0}));
  }
}

TEST_SUITE("fast") {
  // Appended blocks are carved from chunks a thread shares between stores:
  // each block keeps its own values through other stores' blocks written
  // beside it, adds, a new chunk, and the end of the other store.
  TEST_CASE("quantile store: appended blocks keep their values in shared chunks") {
    std::vector<double> expected;  // kept's values, ascending
    double next_value = 0.0;
    const auto fill = [&](std::span<double> block) {
      for (double& x : block) expected.push_back(x = next_value++);
    };
    QuantileStore kept;
    {
      QuantileStore dropped;
      // 1, 7 and 4096 values; 40000 is past an eighth of a chunk (storage of
      // its own); then 70 blocks of 4096, more than one 2 MiB chunk.
      for (const std::size_t size : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, std::size_t{40000}}) {
        fill(kept.append(size));
        for (double& x : dropped.append(size)) x = -1.0;
        kept.add(next_value);
        expected.push_back(next_value++);
      }
      for (int i = 0; i < 70; ++i) fill(kept.append(4096));
      const auto dropped_values = dropped.finalize().sorted_values();
      CHECK((dropped_values.front() == -1.0 && dropped_values.back() == -1.0));
    }
    kept.add(next_value);
    expected.push_back(next_value++);
    REQUIRE(kept.count() == static_cast<std::int64_t>(expected.size()));
    CHECK(std::ranges::equal(kept.finalize().sorted_values(), expected));
  }

  // One-value blocks carved back to back, each in a store of its own (as a
  // GPU run's blocks are folded), merged pairwise up a tree, where each
  // merge joins the blocks; then merges out of the chunk's order, of one
  // store twice, and of a store appended to since: every value counts as
  // often as it was merged, no more.
  TEST_CASE("quantile store: blocks that follow each other in a chunk join - values counted as merged") {
    std::vector<QuantileStore> stores(64);
    for (std::size_t i = 0; i < stores.size(); ++i) stores[i].append(1)[0] = static_cast<double>(i);
    for (std::size_t width = 1; width < stores.size(); width *= 2) {
      for (std::size_t i = 0; i + width < stores.size(); i += 2 * width) stores[i].merge(stores[i + width]);
    }
    std::vector<double> expected(64);
    std::iota(expected.begin(), expected.end(), 0.0);
    CHECK(std::ranges::equal(stores[0].finalize().sorted_values(), expected));

    QuantileStore a, b, c;
    a.append(1)[0] = 1.0;
    b.append(1)[0] = 2.0;
    c.append(1)[0] = 3.0;
    a.merge(c);  // c does not start where a ends: b lies between
    a.merge(b);
    const std::span<double> more = b.append(2);  // after c's block
    more[0] = 4.0;
    more[1] = 5.0;
    b.merge(c);
    a.merge(b);
    a.merge(b);
    CHECK(std::ranges::equal(b.finalize().sorted_values(), std::vector<double>{2.0, 3.0, 4.0, 5.0}));
    CHECK(std::ranges::equal(a.finalize().sorted_values(),
                             std::vector<double>{1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0, 4.0, 4.0, 5.0, 5.0}));
  }

  // Two stores a block, appended in turn in two lanes (maxshift's W' and D'
  // as a GPU run's blocks are folded), each merged up its own tree: every
  // store holds its own values, each once.
  TEST_CASE("quantile store: two stores a block in two lanes - each tree merges to its own values") {
    constexpr std::size_t kBlocks = 64;
    std::vector<QuantileStore> w(kBlocks), d(kBlocks);
    for (std::size_t i = 0; i < kBlocks; ++i) {
      w[i].append(1)[0] = static_cast<double>(i);
      const std::span<double> two = d[i].append(2, 1);
      two[0] = 1000.0 + static_cast<double>(i);
      two[1] = 2000.0 + static_cast<double>(i);
    }
    for (std::size_t width = 1; width < kBlocks; width *= 2) {
      for (std::size_t i = 0; i + width < kBlocks; i += 2 * width) {
        w[i].merge(w[i + width]);
        d[i].merge(d[i + width]);
      }
    }
    std::vector<double> expected_w(kBlocks), expected_d;
    std::iota(expected_w.begin(), expected_w.end(), 0.0);
    for (const double base : {1000.0, 2000.0}) {
      for (std::size_t i = 0; i < kBlocks; ++i) expected_d.push_back(base + static_cast<double>(i));
    }
    CHECK(std::ranges::equal(w[0].finalize().sorted_values(), expected_w));
    CHECK(std::ranges::equal(d[0].finalize().sorted_values(), expected_d));
    CHECK_THROWS(w[0].append(1, QuantileStore::kAppendLanes));
  }
}

TEST_SUITE("fast") {
  TEST_CASE("quantile store: reads come from finalize - a store changed since refuses them") {
    QuantileStore store;
    for (const double x : {3.0, 1.0, 2.0}) store.add(x);
    CHECK_THROWS_AS(store.result(), std::logic_error);
    CHECK(store.finalize().quantile(0.5, 0.95).value == 2.0);
    CHECK(store.result().sorted_values().size() == 3);
    store.add(0.0);
    CHECK_THROWS_AS(store.result(), std::logic_error);
    CHECK(store.finalize().quantile(0.25, 0.95).value == 0.0);
    QuantileStore copy = store;  // a finalized copy reads as the original
    CHECK(copy.result().fraction_at_most(1.0) == 0.5);
  }
}

}  // namespace quantile_store_test
