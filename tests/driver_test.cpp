// Replication driver: block streams, thread-count invariance, stopping rule.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <set>

#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/reduction.hpp"
#include "lbmc/engine/rng.hpp"

namespace driver_test {

namespace {

using namespace lbmc::engine;

// Mean of uniforms; also records the first draw of every block.
struct UniformKernel {
  struct Accumulator {
    Moments moments;
    std::vector<double> firsts;
    template <class Self>
    static auto fields(Self& s) {
      return std::tie(s.moments, s.firsts);
    }
    void merge(const Accumulator& other) {
      moments.merge(other.moments);
      firsts.insert(firsts.end(), other.firsts.begin(), other.firsts.end());
    }
    static constexpr auto statistics() {
      return std::array{stat::mean("u.mean", &Accumulator::moments, "E U").watched()};
    }
  };
  Accumulator make_accumulator() const { return {}; }
  void run(Generator& gen, std::int64_t count, Accumulator& acc) const {
    for (std::int64_t i = 0; i < count; ++i) {
      const double u = uniform01(gen);
      if (i == 0) acc.firsts.push_back(u);
      acc.moments.add(u);
    }
  }
};

// Means of U and of U^4 (U uniform): relative se 0.577/√R and 1.333/√R.
struct TwoMeansKernel {
  struct Accumulator {
    Moments u, u4;
    template <class Self>
    static auto fields(Self& s) {
      return std::tie(s.u, s.u4);
    }
    static constexpr auto statistics() {
      return std::array{stat::mean("u.mean", &Accumulator::u, "E U").watched(),
                        stat::mean("u4.mean", &Accumulator::u4, "E U^4").watched()};
    }
  };
  Accumulator make_accumulator() const { return {}; }
  void run(Generator& gen, std::int64_t count, Accumulator& acc) const {
    for (std::int64_t i = 0; i < count; ++i) {
      const double u = uniform01(gen);
      acc.u.add(u);
      acc.u4.add(u * u * u * u);
    }
  }
};

RunPlan plan_with(int threads, std::int64_t reps) {
  RunPlan plan = RunPlan::fixed(12345, reps, threads);
  plan.block_reps = 1000;
  return plan;
}

// `count` blocks' moments of 1 to most_values varied values each, from
// `seed` (merges of Moments are not associative in floating point: only a
// fixed shape of the reduction gives the same bits).
std::vector<Moments> varied_blocks(std::size_t count, std::uint64_t seed, double most_values) {
  std::vector<Moments> blocks(count);
  auto gen = block_generator(seed, 0);
  for (auto& m : blocks) {
    const int n = 1 + static_cast<int>(uniform01(gen) * most_values);
    for (int i = 0; i < n; ++i) m.add(std::exp(10.0 * uniform01(gen)));
  }
  return blocks;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("driver: identical totals for 1 or 2 or 3 threads") {
    const UniformKernel kernel;
    UniformKernel::Accumulator one, two, three;
    const auto r1 = run_replications(plan_with(1, 100'500), kernel, one);
    run_replications(plan_with(2, 100'500), kernel, two);
    run_replications(plan_with(3, 100'500), kernel, three);
    CHECK(r1.reps == 100'500);
    CHECK(r1.blocks == 101);
    CHECK(one.moments.count() == 100'500);
    // Bitwise equality, not approximate: merges happen in block order.
    CHECK(std::memcmp(&one.moments, &two.moments, sizeof(Moments)) == 0);
    CHECK(std::memcmp(&one.moments, &three.moments, sizeof(Moments)) == 0);
    CHECK(one.firsts == two.firsts);
    CHECK(one.firsts == three.firsts);
  }

  TEST_CASE("driver: block streams are distinct and reproducible") {
    std::set<std::uint64_t> firsts;
    for (std::uint64_t b = 0; b < 1000; ++b) {
      auto g = block_generator(99, b);
      firsts.insert(g());
    }
    CHECK(firsts.size() == 1000);
    auto a = block_generator(99, 5);
    auto b = block_generator(99, 5);
    for (int i = 0; i < 10; ++i) CHECK(a() == b());
    auto c = block_generator(100, 5);
    CHECK(block_generator(99, 5)() != c());
  }

  TEST_CASE("driver: uniform01 and uniform_open01 ranges") {
    auto g = block_generator(1, 0);
    for (int i = 0; i < 100000; ++i) {
      const double u = uniform01(g);
      const double v = uniform_open01(g);
      CHECK((u >= 0.0 && u < 1.0));
      CHECK((v > 0.0 && v < 1.0));
    }
  }

  TEST_CASE("driver: target rse stops at a wave boundary whatever the thread count") {
    const UniformKernel kernel;
    auto plan = plan_with(1, 1000);
    plan.target_rse = 1e-3;  // se of a uniform mean: 0.2887/√R/0.5 <= 1e-3 needs R >= 333,333
    plan.max_reps = 10'000'000;
    UniformKernel::Accumulator a, b;
    const auto ra = run_replications(plan, kernel, a);
    plan.threads = 2;
    const auto rb = run_replications(plan, kernel, b);
    CHECK(ra.target_reached);
    CHECK(ra.reps == rb.reps);
    CHECK(ra.reps >= 333'333);
    CHECK(ra.reps < 333'333 * 9 / 8 + kWaveBlocks * 1000);  // waves of max(32, done/8) blocks
    CHECK(a.moments.mean() == b.moments.mean());
  }

  TEST_CASE("driver: max reps caps an unreachable target") {
    const UniformKernel kernel;
    auto plan = plan_with(2, 10);
    plan.target_rse = 1e-9;
    plan.max_reps = 50'000;
    UniformKernel::Accumulator acc;
    const auto r = run_replications(plan, kernel, acc);
    CHECK_FALSE(r.target_reached);
    CHECK(r.reps == 50'000);
    CHECK(acc.moments.count() == 50'000);
  }

  TEST_CASE("driver: target rse waits for every reported mean") {
    // U's mean alone meets 1e-3 at R = 333,333; U^4's needs R = 1,777,778.
    auto plan = plan_with(2, 1000);
    plan.target_rse = 1e-3;
    plan.max_reps = 10'000'000;
    TwoMeansKernel::Accumulator acc;
    const auto r = run_replications(plan, TwoMeansKernel{}, acc);
    CHECK(r.target_reached);
    CHECK(r.reps >= 1'777'000);
    CHECK(r.reps < 1'777'778 * 9 / 8 + kWaveBlocks * 1000);
    CHECK(acc.u4.mean_se() <= 1e-3 * acc.u4.mean());
  }

  TEST_CASE("driver: the relative se rule on edge values") {
    CHECK(relative_se_met({}, 0.01));
    CHECK(relative_se_met({{0.0, 0.0}}, 0.01));     // nothing varies: met
    CHECK_FALSE(relative_se_met({{0.0, 1e-9}}, 0.01));
    CHECK(relative_se_met({{-2.0, 0.02}}, 0.01));   // the sign of the mean does not matter
    CHECK_FALSE(relative_se_met({{-2.0, 0.021}}, 0.01));
    CHECK_FALSE(relative_se_met({{1.0, 0.0}, {1.0, 0.5}}, 0.01));
  }
}

TEST_SUITE("fast") {
  TEST_CASE("reduction: the same bits for any arrival order and any split of the blocks") {
    const std::vector<Moments> blocks = varied_blocks(1000, 77, 50);
    const auto total_of = [](BlockReduction<Moments>& r) {
      Moments total;
      r.fold_into(total);
      return total;
    };
    BlockReduction<Moments> in_order;
    for (std::int64_t b = 0; b < 1000; ++b) in_order.add({0, b}, blocks[static_cast<std::size_t>(b)]);
    const Moments reference = total_of(in_order);
    CHECK(in_order.covered() == 1000);
    CHECK(reference.count() > 0);
    std::mt19937 shuffle(3);
    for (int trial = 0; trial < 20; ++trial) {
      // Blocks in a random order, split at random points into "ranks" whose
      // remaining nodes are then sent to the first one.
      std::vector<std::int64_t> cuts{0, 1000};
      for (int c = 0; c < trial % 5; ++c) cuts.push_back(std::uniform_int_distribution<std::int64_t>(1, 999)(shuffle));
      std::sort(cuts.begin(), cuts.end());
      std::vector<BlockReduction<Moments>> ranks(cuts.size() - 1);
      for (std::size_t r = 0; r + 1 < cuts.size(); ++r) {
        std::vector<std::int64_t> order;
        for (std::int64_t b = cuts[r]; b < cuts[r + 1]; ++b) order.push_back(b);
        std::shuffle(order.begin(), order.end(), shuffle);
        for (const std::int64_t b : order) ranks[r].add({0, b}, blocks[static_cast<std::size_t>(b)]);
      }
      for (std::size_t r = ranks.size(); r-- > 1;) ranks[0].add(ranks[r].take_nodes());
      const Moments total = total_of(ranks[0]);
      CHECK(std::memcmp(&total, &reference, sizeof(Moments)) == 0);
    }
  }

  TEST_CASE("reduction: threads adding their shares in order give the same bits - gaps and all") {
    // Shares of consecutive blocks, each added in increasing order with some
    // blocks left out (held from a checkpoint), then the shares' nodes
    // handed to the shared reduction, against every block added to one.
    const std::vector<Moments> blocks = varied_blocks(777, 78, 20);
    std::mt19937 pick(5);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<char> held(blocks.size(), 0);
      for (int h = 0; h < trial; ++h) held[std::uniform_int_distribution<std::size_t>(0, 776)(pick)] = 1;
      BlockReduction<Moments> one, shared;
      for (std::int64_t b = 0; b < 777; ++b) {
        if (held[static_cast<std::size_t>(b)] == 0) one.add({0, b}, blocks[static_cast<std::size_t>(b)]);
      }
      const std::int64_t threads = 1 + trial % 7;
      for (std::int64_t t = 0; t < threads; ++t) {
        AscendingReduction<Moments> share;
        for (std::int64_t b = 777 * t / threads; b < 777 * (t + 1) / threads; ++b) {
          if (held[static_cast<std::size_t>(b)] == 0) share.add(b, blocks[static_cast<std::size_t>(b)]);
        }
        shared.add(share.take_nodes());
      }
      std::vector<std::pair<NodeId, Moments>> expected, got;
      one.for_each_node([&](NodeId id, const Moments& m) { expected.emplace_back(id, m); });
      shared.for_each_node([&](NodeId id, const Moments& m) { got.emplace_back(id, m); });
      REQUIRE(got.size() == expected.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].first.level == expected[i].first.level);
        CHECK(got[i].first.index == expected[i].first.index);
        CHECK(std::memcmp(&got[i].second, &expected[i].second, sizeof(Moments)) == 0);
      }
    }
    AscendingReduction<Moments> backwards;
    backwards.add(5, Moments{});
    CHECK_THROWS_AS(backwards.add(5, Moments{}), std::logic_error);
    CHECK_THROWS_AS(backwards.add(3, Moments{}), std::logic_error);
  }

  TEST_CASE("reduction: a gap in the blocks is reported") {
    BlockReduction<Moments> r;
    r.add({0, 0}, Moments{});
    r.add({0, 2}, Moments{});
    CHECK_THROWS_AS(static_cast<void>(r.covered()), std::logic_error);
  }
}

}  // namespace driver_test
