// The winner tree of the list schedules against a linear scan of the
// processors' times, ties included: keep_first keeps the first processor
// first when its new time equals another's, lowest_id puts the lowest id
// first among equal times.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "lbmc/engine/rng.hpp"
#include "compare/first_free.hpp"

namespace first_free_test {

namespace {

using lbmc::exp::FirstFree;
using lbmc::exp::Ties;

// The lowest id among the processors with the least time.
std::uint32_t lowest_first(const std::vector<double>& times) {
  return static_cast<std::uint32_t>(std::min_element(times.begin(), times.end()) - times.begin());
}

// Steps of a schedule on integer increments 0..2, so that ties are common;
// `procs` not a power of two exercises the unused leaves.
template <Ties kTies>
void check_against_scan(std::int64_t procs, std::uint64_t seed) {
  FirstFree tree;
  tree.reset(procs);
  std::vector<double> times(static_cast<std::size_t>(procs), 0.0);
  lbmc::engine::Generator gen = lbmc::engine::block_generator(seed, 0);
  for (int step = 0; step < 5000; ++step) {
    const double least = *std::min_element(times.begin(), times.end());
    REQUIRE(tree.first().time() == least);
    const std::uint32_t first = tree.first().id;
    REQUIRE(times[first] == least);
    if constexpr (kTies == Ties::lowest_id) REQUIRE(first == lowest_first(times));
    times[first] += static_cast<double>(lbmc::engine::uniform_below(gen, 3));
    const FirstFree::First next = tree.advance<kTies>(tree.first(), times[first]);
    REQUIRE(next.id == tree.first().id);
    REQUIRE(next.key == tree.first().key);
    const bool moved = next.id != first;
    const double others = procs == 1 ? std::numeric_limits<double>::infinity() : [&] {
      double m = std::numeric_limits<double>::infinity();
      for (std::size_t p = 0; p < times.size(); ++p) {
        if (p != first) m = std::min(m, times[p]);
      }
      return m;
    }();
    if constexpr (kTies == Ties::keep_first) {
      REQUIRE(moved == (times[first] > others));
    } else {
      REQUIRE(moved == (lowest_first(times) != first));
    }
  }
  REQUIRE(tree.latest() == *std::max_element(times.begin(), times.end()));
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("first_free: the winner tree agrees with a scan of the processors - ties included") {
    for (const std::int64_t p : {1, 2, 3, 5, 8, 13, 64, 100}) {
      CAPTURE(p);
      check_against_scan<Ties::keep_first>(p, 11 + static_cast<std::uint64_t>(p));
      check_against_scan<Ties::lowest_id>(p, 23 + static_cast<std::uint64_t>(p));
    }
  }

  TEST_CASE("first_free: every processor free at 0 - the lowest id first") {
    FirstFree tree;
    tree.reset(6);
    CHECK(tree.first().time() == 0.0);
    CHECK(tree.first().id == 0);
    // Processor 0 busy until 1: processor 1 is first, then processor 2,
    // among the others still at 0.
    CHECK(tree.advance<Ties::lowest_id>(tree.first(), 1.0).id == 1);
    CHECK(tree.advance<Ties::lowest_id>(tree.first(), 1.0).id == 2);
    CHECK(tree.first().id == 2);
    // keep_first: a new time equal to the least keeps its processor first.
    CHECK(tree.advance<Ties::keep_first>(tree.first(), 0.0).id == 2);
    CHECK(tree.first().id == 2);
    CHECK(tree.latest() == 1.0);
  }
}

}  // namespace first_free_test
