// draw_integer: an integer law's variates as integers, equal to the
// sampler's doubles and drawn from the same generator outputs, on every
// path of the table samplers (the table, both tails, rejection, a point
// mass), of the geometric and negative binomial samplers, and through the
// fallback of the samplers without an integer().
#include <doctest/doctest.h>

#include <cstdint>

#include "lbmc/dist/samplers.hpp"
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
    check_same_draws(dist::GeometricSampler({0.3}), 10);
    check_same_draws(dist::GeometricSampler({1e-10}), 11);  // values near 1e10
    check_same_draws(dist::GeometricSampler({1.0}), 12);    // the point 1
    check_same_draws(dist::NegBinomialSampler({3.0, 0.4}), 13);
    check_same_draws(dist::NegBinomialSampler({0.05, 0.02}), 14);  // a long upper tail
    check_same_draws(dist::NegBinomialSampler({1e4, 0.01}), 15);   // block rejection
    check_same_draws(dist::NegBinomialSampler({2.0, 1.0}), 16);    // the point 0
    // No integer() of its own: the double, converted.
    check_same_draws(WholeOutputs{}, 17);
  }
}

}  // namespace integer_draws_test
