// draw_integer: an integer law's variates as integers, equal to the
// sampler's doubles and drawn from the same generator outputs, on every
// path of the table samplers (the table, both tails, rejection, a point
// mass), of the geometric and negative binomial samplers, and through the
// fallback of the samplers without an integer(). max_of_integers and the
// counter-based samplers' max_of: the largest of n draws, equal to the
// loop's and from the same outputs, on the same paths; integer_prefix_sums:
// the running sums of n draws, likewise.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/philox.hpp"
#include "lbmc/engine/rng.hpp"

namespace integer_draws_test {

using namespace lbmc;

namespace {

template <class Sampler>
void check_same_draws(const Sampler& sampler, std::uint64_t seed) {
  engine::Generator for_double = engine::block_generator(seed, 3);
  engine::Generator for_integer = for_double;
  for (int i = 0; i < 20000; ++i) {
    const double x = sampler(for_double);
    const std::int64_t k = dist::draw_integer(sampler, for_integer);
    REQUIRE(static_cast<double>(k) == x);
    const bool same_outputs_used = for_integer == for_double;
    REQUIRE(same_outputs_used);
  }
}

// largest(stream, count) against max(one(stream), ...) over `count` draws,
// for counts from 1 to 1000: the same value, and the streams end in the
// same place (a replication a stream on the counter-based one).
template <class Stream, class One, class Largest>
void check_same_maxima(Stream looped, const One& one, const Largest& largest) {
  Stream ranged = looped;
  for (const std::int64_t count : {1, 2, 3, 17, 64, 1000}) {
    CAPTURE(count);
    for (int r = 0; r < 400; ++r) {
      auto z = one(looped);
      for (std::int64_t i = 1; i < count; ++i) z = std::max(z, one(looped));
      REQUIRE(largest(ranged, count) == z);
      if constexpr (requires { looped.drawn(); }) {
        REQUIRE(ranged.drawn() == looped.drawn());
      } else {
        const bool same_outputs_used = ranged == looped;
        REQUIRE(same_outputs_used);
      }
      engine::next_replication(looped);
      engine::next_replication(ranged);
    }
  }
}

// max_of_integers against the loop over draw_integer.
template <class Sampler>
void check_same_maxima(const Sampler& sampler, std::uint64_t seed) {
  check_same_maxima(
      engine::block_generator(seed, 5), [&](engine::Generator& g) { return dist::draw_integer(sampler, g); },
      [&](engine::Generator& g, std::int64_t count) { return dist::max_of_integers(sampler, g, count); });
}

// A counter-based sampler's max_of against its draws.
template <class Portable>
void check_same_philox_maxima(const Portable& draw, std::uint64_t seed) {
  check_same_maxima(engine::block_philox(seed, 2), draw,
                    [&](engine::PhiloxStream& g, std::int64_t count) { return draw.max_of(g, count); });
}

// integer_prefix_sums against the running sums of draw_integer, for
// counts from 0 to 5000: the same sums, and the generators end in the
// same place.
template <class Sampler>
void check_same_prefix_sums(const Sampler& sampler, std::uint64_t seed) {
  engine::Generator looped = engine::block_generator(seed, 7);
  engine::Generator guided = looped;
  for (const std::size_t count : {0, 1, 2, 17, 1000, 5000}) {
    CAPTURE(count);
    std::vector<std::int64_t> expected(count), sums(count, -7);
    for (int r = 0; r < 20; ++r) {
      std::int64_t sum = 0;
      for (std::int64_t& y : expected) y = sum += dist::draw_integer(sampler, looped);
      REQUIRE(dist::integer_prefix_sums(sampler, guided, sums) == sum);
      REQUIRE(sums == expected);
      const bool same_outputs_used = guided == looped;
      REQUIRE(same_outputs_used);
    }
  }
}

// A sampler of integer values without an integer().
struct WholeOutputs {
  double operator()(engine::Generator& gen) const { return static_cast<double>(gen() >> 20); }
};

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("draw_integer: the same variates as the samplers' doubles - from the same outputs - on every path") {
    const dist::DiscreteOptions wide_tails{0.25, std::size_t{1} << 16};  // the tail search on ~half the draws
    const dist::DiscreteOptions rejection{0x1p-32, 0};                  // PTRS and BTRS
    check_same_draws(dist::PoissonSampler({10.0}), 1);
    check_same_draws(dist::PoissonSampler({3.0}, wide_tails), 2);
    check_same_draws(dist::PoissonSampler({12.0}, rejection), 3);
    check_same_draws(dist::PoissonSampler({0.0}), 4);
    check_same_draws(dist::BinomialSampler({4096, 0.5}), 5);
    // p > 1/2: the table of 1 - p, read from the top.
    check_same_draws(dist::BinomialSampler({30, 0.8}, wide_tails), 6);
    check_same_draws(dist::BinomialSampler({300, 0.3}, rejection), 7);
    check_same_draws(dist::BinomialSampler({10, 1.0}), 8);
    check_same_draws(dist::BinomialSampler({std::int64_t{1} << 40, 0.999}), 9);
    check_same_draws(dist::GeometricSampler({0.3}), 10);    // the table
    check_same_draws(dist::GeometricSampler({0.02}), 17);   // the ziggurat
    check_same_draws(dist::GeometricSampler({1e-10}), 11);  // values near 1e10
    check_same_draws(dist::GeometricSampler({1.0}), 12);    // the point 1
    check_same_draws(dist::NegBinomialSampler({3.0, 0.4}), 13);
    check_same_draws(dist::NegBinomialSampler({0.05, 0.02}), 14);  // a long upper tail
    check_same_draws(dist::NegBinomialSampler({1e3, 0.01}), 18);   // the cubic guide
    check_same_draws(dist::NegBinomialSampler({1e4, 0.01}), 19);   // a table from a lower quantile
    check_same_draws(dist::NegBinomialSampler({1e5, 0.01}), 20);   // a wide table from a lower quantile
    check_same_draws(dist::NegBinomialSampler({0.3, 3e-5}), 21);   // a wide table from 0
    check_same_draws(dist::NegBinomialSampler({1e6, 0.01}), 15);   // a table past 2^20 cells
    check_same_draws(dist::NegBinomialSampler({1e7, 0.01}), 23);   // block rejection
    check_same_draws(dist::NegBinomialSampler({2.0, 1.0}), 16);    // the point 0
    // No integer() of its own: the double, converted.
    check_same_draws(WholeOutputs{}, 17);
  }

  TEST_CASE("max_of_integers: the largest of n draws is the loop's - from the same outputs - on every path") {
    // Wide tails put draws in both tails (lo > 0) at every count past 2: the
    // draws are then made again one by one.
    const dist::DiscreteOptions wide_tails{0.25, std::size_t{1} << 16};
    const dist::DiscreteOptions rejection{0x1p-32, 0};
    check_same_maxima(dist::PoissonSampler({10.0}), 1);
    check_same_maxima(dist::PoissonSampler({3.0}, wide_tails), 2);
    check_same_maxima(dist::PoissonSampler({12.0}, rejection), 3);
    check_same_maxima(dist::PoissonSampler({0.0}), 4);
    check_same_maxima(dist::BinomialSampler({4096, 0.5}), 5);
    check_same_maxima(dist::BinomialSampler({4096, 0.5}, wide_tails), 6);
    // p > 1/2: read from the top, so the largest value is the smallest output's.
    check_same_maxima(dist::BinomialSampler({40, 0.9}), 7);
    check_same_maxima(dist::BinomialSampler({30, 0.8}, wide_tails), 8);
    check_same_maxima(dist::BinomialSampler({300, 0.3}, rejection), 9);
    check_same_maxima(dist::BinomialSampler({10, 1.0}), 10);
    check_same_maxima(dist::GeometricSampler({0.3}), 11);   // the table
    check_same_maxima(dist::GeometricSampler({0.02}), 19);  // the ziggurat
    check_same_maxima(dist::GeometricSampler({1e-10}), 12);
    check_same_maxima(dist::GeometricSampler({1.0}), 13);
    check_same_maxima(dist::NegBinomialSampler({3.0, 0.4}), 14);
    check_same_maxima(dist::NegBinomialSampler({0.05, 0.02}), 15);  // the upper tail's search
    check_same_maxima(dist::NegBinomialSampler({1e4, 0.01}), 20);   // a table from a lower quantile
    check_same_maxima(dist::NegBinomialSampler({1e5, 0.01}), 21);   // a wide table from a lower quantile
    check_same_maxima(dist::NegBinomialSampler({1e7, 0.01}), 16);   // block rejection
    check_same_maxima(WholeOutputs{}, 17);
    check_same_maxima(dist::NegBinomialSampler({0.5, 1e-6}), 18);  // block rejection, log-convex
  }

  TEST_CASE("max_of_integers: block rejection passes over quiet outputs - the loop's maxima at large n") {
    // Past the first draws nearly every output is quiet (settled, and in a
    // block that ends at or below the largest so far): skipping one that is
    // not would change the value or the generator's place.
    for (const dist::NegBinomial law : {dist::NegBinomial{1e7, 0.01}, dist::NegBinomial{0.5, 1e-6}}) {
      CAPTURE(law.r);
      const dist::NegBinomialSampler sampler(law);
      REQUIRE(sampler.blocks() != nullptr);
      CHECK(sampler.blocks()->quiet_share() > 0.95);
      CHECK(static_cast<double>(sampler.blocks()->quiet_payload()) > 0.95 * 0x1p48);
      engine::Generator looped = engine::block_generator(19, 5);
      engine::Generator ranged = looped;
      for (const std::int64_t count : {4096, 65536}) {
        for (int r = 0; r < 10; ++r) {
          std::int64_t z = dist::draw_integer(sampler, looped);
          for (std::int64_t i = 1; i < count; ++i) z = std::max(z, dist::draw_integer(sampler, looped));
          REQUIRE(dist::max_of_integers(sampler, ranged, count) == z);
          const bool same_outputs_used = ranged == looped;
          REQUIRE(same_outputs_used);
        }
      }
    }
  }

  TEST_CASE("integer_prefix_sums: the running sums are the loop's - from the same outputs - on every path") {
    // Wide tails send about half the draws to the tail search: the settled
    // loop stops and resumes at every one of them.
    const dist::DiscreteOptions wide_tails{0.25, std::size_t{1} << 16};
    const dist::DiscreteOptions rejection{0x1p-32, 0};
    const dist::DiscreteOptions unguided{0x1p-32, dist::kDefaultMaxTable, false};
    check_same_prefix_sums(dist::PoissonSampler({10.0}), 1);
    check_same_prefix_sums(dist::PoissonSampler({3.0}, wide_tails), 2);
    check_same_prefix_sums(dist::PoissonSampler({12.0}, rejection), 3);
    check_same_prefix_sums(dist::PoissonSampler({10.0}, unguided), 4);
    check_same_prefix_sums(dist::PoissonSampler({0.0}), 5);
    // 2^-6 of the draws in buckets the value guide leaves to the search.
    check_same_prefix_sums(dist::BinomialSampler({4096, 0.5}), 6);
    check_same_prefix_sums(dist::BinomialSampler({30, 0.8}, wide_tails), 7);
    check_same_prefix_sums(dist::BinomialSampler({300, 0.3}, rejection), 8);
    // Values past 2^31 - 1: no value guide, the table's search.
    check_same_prefix_sums(dist::BinomialSampler({std::int64_t{1} << 40, 0.999}), 9);
    check_same_prefix_sums(dist::NegBinomialSampler({3.0, 0.4}), 10);
    check_same_prefix_sums(dist::NegBinomialSampler({0.05, 0.02}), 11);  // the upper tail's search
    check_same_prefix_sums(dist::NegBinomialSampler({1e3, 0.01}), 18);   // the cubic guide
    check_same_prefix_sums(dist::NegBinomialSampler({1e4, 0.01}), 19);   // a table from a lower quantile
    check_same_prefix_sums(dist::NegBinomialSampler({1e5, 0.01}), 20);   // a wide table from a lower quantile
    check_same_prefix_sums(dist::NegBinomialSampler({0.3, 3e-5}), 21);   // a wide table from 0
    check_same_prefix_sums(dist::NegBinomialSampler({1e6, 0.01}), 12);   // a table past 2^20 cells
    check_same_prefix_sums(dist::NegBinomialSampler({1e7, 0.01}), 24);   // block rejection
    check_same_prefix_sums(dist::GeometricSampler({0.3}), 13);   // the table
    check_same_prefix_sums(dist::GeometricSampler({0.02}), 17);  // the ziggurat
    check_same_prefix_sums(WholeOutputs{}, 14);
    check_same_prefix_sums(dist::GeometricSampler({1e-10}), 15);  // values near 1e10
    check_same_prefix_sums(dist::GeometricSampler({1.0}), 16);    // the point 1
  }

  TEST_CASE("max_of: the counter-based samplers' largest of n draws is the loop's - from the same outputs") {
    const dist::DiscreteOptions wide_tails{0.25, std::size_t{1} << 16};
    const dist::DiscreteOptions rejection{0x1p-32, 0};
    check_same_philox_maxima(dist::PoissonSampler({10.0}).portable(), 1);
    check_same_philox_maxima(dist::PoissonSampler({3.0}, wide_tails).portable(), 2);
    check_same_philox_maxima(dist::PoissonSampler({12.0}, rejection).portable(), 3);
    check_same_philox_maxima(dist::BinomialSampler({4096, 0.5}, wide_tails).portable(), 4);
    check_same_philox_maxima(dist::BinomialSampler({40, 0.9}).portable(), 5);
    check_same_philox_maxima(dist::BinomialSampler({30, 0.8}, wide_tails).portable(), 6);
    check_same_philox_maxima(dist::BinomialSampler({300, 0.3}, rejection).portable(), 7);
  }
}

}  // namespace integer_draws_test
