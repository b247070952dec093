// The max-load simulation against exact finite-n values, for every law.
// Fixed seeds; tolerances are 4 standard errors computed from each run.
#include <doctest/doctest.h>

#include <cmath>

#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/exp/maxload.hpp"

namespace maxload_test {

using namespace lbmc;

namespace {

exp::MaxLoadSample simulate(const std::string& spec, std::int64_t n, std::int64_t reps, std::uint64_t seed) {
  const engine::RunPlan plan = engine::RunPlan::fixed(seed, reps, 2);
  return exp::simulate_max_load(dist::parse_load_law(spec), n, plan).sample;
}

void check_against_exact(const std::string& spec, std::int64_t n, std::int64_t reps, std::uint64_t seed) {
  CAPTURE(spec);
  CAPTURE(n);
  const auto law = dist::parse_load_law(spec);
  const auto sample = simulate(spec, n, reps, seed);
  const auto exact = analytic::moments(analytic::MaxOfIid{law, n});
  const auto& m = sample.moments;
  REQUIRE(m.count() == reps);
  CHECK(std::abs(m.mean() - exact.mean) <= 4 * m.mean_se());
  CHECK(std::abs(m.variance() - exact.variance) <= 4 * m.variance_se());
  for (double alpha : {0.05, 0.5, 0.95}) {
    CAPTURE(alpha);
    const auto q = sample.quantiles.result().quantile(alpha, 0.95);
    const double ref = analytic::quantile(analytic::MaxOfIid{law, n}, alpha);
    // The reference lies inside a 4-sigma-equivalent widening of the
    // distribution-free 95% interval.
    CHECK(ref >= q.low - 2 * q.se);
    CHECK(ref <= q.high + 2 * q.se);
  }
}

}  // namespace

TEST_SUITE("statistical") {
  TEST_CASE("maxload: Monte Carlo agrees with exact values for every law") {
    check_against_exact("normal:0,1", 16, 200'000, 101);
    check_against_exact("normal:5,2", 1024, 20'000, 102);
    check_against_exact("binomial:4096,0.5", 256, 20'000, 103);
    check_against_exact("binomial:20,0.1", 50, 100'000, 104);
    check_against_exact("poisson:10", 100, 50'000, 105);
    check_against_exact("poisson:0.5", 7, 100'000, 106);
    check_against_exact("exponential:1", 64, 100'000, 107);
    check_against_exact("uniform:0,1", 1000, 20'000, 108);
    check_against_exact("normal:0,1", 1, 100'000, 109);
  }

  TEST_CASE("maxload: the constant law is exact with zero spread") {
    const auto sample = simulate("constant:3", 10, 1000, 1);
    CHECK(sample.moments.mean() == 3.0);
    CHECK(sample.moments.variance() == 0.0);
    CHECK(sample.quantiles.result().quantile(0.95, 0.95).value == 3.0);
  }

  TEST_CASE("maxload: a wrong law is detected") {
    // Power check: the same test against the exact values of a slightly
    // different law must fail (here sigma off by 2%).
    const auto sample = simulate("normal:0,1", 64, 200'000, 110);
    const auto wrong = analytic::moments(analytic::MaxOfIid{dist::parse_load_law("normal:0,1.02"), 64});
    CHECK(std::abs(sample.moments.mean() - wrong.mean) > 4 * sample.moments.mean_se());
  }
}

}  // namespace maxload_test
