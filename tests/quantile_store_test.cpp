// Quantile store: order statistics, distribution-free intervals, and the
// histogram fallback past the cap.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <boost/math/distributions/binomial.hpp>

#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/rng.hpp"

using lbmc::engine::QuantileStore;

TEST_SUITE("fast") {
  TEST_CASE("quantile store: empirical quantile is X_(ceil(alpha R))") {
    QuantileStore store;
    for (int i = 100; i >= 1; --i) store.add(i);  // 1..100, unsorted
    CHECK(store.quantile(0.95, 0.95).value == 95.0);
    CHECK(store.quantile(0.951, 0.95).value == 96.0);
    CHECK(store.quantile(0.5, 0.95).value == 50.0);
    const auto q = store.quantile(0.5, 0.95);
    CHECK(q.low < 50.0);
    CHECK(q.high > 50.0);
    CHECK(store.fraction_at_most(10.0) == doctest::Approx(0.10));
    CHECK(store.fraction_equal(10.0) == doctest::Approx(0.01));
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
      const auto q = store.quantile(alpha, 0.95);
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
    CHECK(store.sorted_values() == values);
  }

  TEST_CASE("quantile store: interval ranks have the binomial coverage") {
    // For R = 1000, alpha = 0.9: the ranks bracket 900 and the coverage
    // P(l <= B < u), B ~ Bin(R, alpha), is at least the level.
    QuantileStore store;
    for (int i = 1; i <= 1000; ++i) store.add(i);
    const auto q = store.quantile(0.9, 0.95);
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
      CHECK(capped.quantile(alpha, 0.95).value == exact_store.quantile(alpha, 0.95).value);
      CHECK(capped.quantile(alpha, 0.95).low == exact_store.quantile(alpha, 0.95).low);
      CHECK(capped.quantile(alpha, 0.95).high == exact_store.quantile(alpha, 0.95).high);
    }
    CHECK(capped.fraction_equal(42.0) == exact_store.fraction_equal(42.0));
  }

  TEST_CASE("quantile store: continuous data past the cap is within one bin") {
    QuantileStore exact_store(1u << 30);
    QuantileStore capped(2000);
    auto gen = lbmc::engine::block_generator(4, 0);
    for (int b = 0; b < 40; ++b) {
      QuantileStore block;
      for (int i = 0; i < 500; ++i) block.add(-std::log1p(-lbmc::engine::uniform01(gen)));
      exact_store.merge(block);
      capped.merge(block);
    }
    REQUIRE_FALSE(capped.exact());
    const double bin = capped.resolution();
    CHECK(bin > 0.0);
    for (double alpha : {0.1, 0.5, 0.9, 0.99}) {
      CHECK(std::abs(capped.quantile(alpha, 0.95).value - exact_store.quantile(alpha, 0.95).value) <= bin);
    }
  }

  TEST_CASE("quantile store: spilling the 32-bit bin counts changes no count") {
    // The same data binned with the default spill and with a spill every 7
    // values (unit bins and equal-width bins): identical reads.
    for (const bool integers : {true, false}) {
      CAPTURE(integers);
      QuantileStore once(1000);
      QuantileStore often(1000, 7);
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
        CHECK(often.quantile(alpha, 0.95).value == once.quantile(alpha, 0.95).value);
        CHECK(often.quantile(alpha, 0.95).low == once.quantile(alpha, 0.95).low);
        CHECK(often.quantile(alpha, 0.95).high == once.quantile(alpha, 0.95).high);
      }
      CHECK(often.fraction_at_most(17.0) == once.fraction_at_most(17.0));
      if (integers) CHECK(often.fraction_equal(17.0) == once.fraction_equal(17.0));
    }
  }
}
