// Random assignment: both multinomial methods and the Poisson model against
// exact values, with fixed seeds and 4-standard-error tolerances.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "lbmc/analytic/reference_unavailable.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/rng.hpp"
#include "assign/throwing.hpp"
#include "lbmc/exp/assign.hpp"

namespace assign_test {

using namespace lbmc;

namespace {

exp::AssignSample simulate(exp::AssignModel model, std::int64_t n, std::int64_t p, std::int64_t group,
                           std::int64_t reps, std::uint64_t seed,
                           std::optional<exp::MultinomialMethod> method = std::nullopt, int threads = 2) {
  const engine::RunPlan plan = engine::RunPlan::fixed(seed, reps, threads);
  return exp::simulate_assign(model, n, p, group, plan, method).sample;
}

void check_mean_and_variance(const exp::AssignSample& s, const exp::AssignExact& exact) {
  CHECK(std::abs(s.max_load.mean() - exact.mean) <= 4 * s.max_load.mean_se());
  CHECK(std::abs(s.max_load.variance() - exact.variance) <= 4 * s.max_load.variance_se());
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("assign: the multinomial method switches at N = 64 P") {
    CHECK(exp::choose_multinomial_method(6400, 100) == exp::MultinomialMethod::throwing);
    CHECK(exp::choose_multinomial_method(6401, 100) == exp::MultinomialMethod::conditional);
  }

  TEST_CASE("assign: a point past the Poisson law's range has no Poisson-model reference - the multinomial's stays") {
    // N/P = 4.5e15: the multinomial runs (binomial draws to 2^53), the
    // Poisson model's cdf does not converge there.
    CHECK_THROWS_AS(exp::assign_exact(exp::AssignModel::poisson, 9'000'000'000'000'000, 2, 1),
                    analytic::ReferenceUnavailable);
    CHECK_THROWS_AS(exp::require_within_laws(exp::AssignModel::poisson, 9'000'000'000'000'000, 2, 1),
                    engine::InputError);
    CHECK_NOTHROW(exp::require_within_laws(exp::AssignModel::poisson, 20'000'000'000, 2, 1));  // mean 1e10
    CHECK_NOTHROW(exp::require_within_laws(exp::AssignModel::multinomial, std::int64_t{1} << 53, 2, 1));
    CHECK_THROWS_AS(exp::require_within_laws(exp::AssignModel::multinomial, (std::int64_t{1} << 53) + 1, 2, 1),
                    engine::InputError);
    const auto exact = exp::assign_exact(exp::AssignModel::multinomial, 9'000'000'000'000'000, 2, 1);
    CHECK(exact.mean > 4.5e15);
  }

  TEST_CASE("assign: load counters only where tasks are thrown") {
    using exp::AssignModel;
    using exp::MultinomialMethod;
    CHECK(exp::load_counters(AssignModel::multinomial, MultinomialMethod::throwing, 1000, 100) == 100);
    CHECK(exp::load_counters(AssignModel::multinomial, MultinomialMethod::throwing, 10, 1000) == 10);
    CHECK(exp::load_counters(AssignModel::multinomial, MultinomialMethod::conditional, 1000, 100) == 0);
    CHECK(exp::load_counters(AssignModel::poisson, MultinomialMethod::throwing, 1000, 100) == 0);
  }

  TEST_CASE("assign: the throwing by block counts as the plain loop does") {
    // Direct counting (few bins), buckets counted only at the end, buckets
    // filled and counted several times, a block boundary just passed, fewer
    // tasks than a bucket holds: the same maximum as incrementing the
    // counters draw by draw, from the same draws (the generators end equal).
    const std::pair<std::int64_t, std::int64_t> cases[] = {
        {1000, 100}, {70'000, 70'000}, {250'000, 100'000}, {300'000, 65'537}, {5, 200'000}};
    for (const auto& [tasks, bins] : cases) {
      CAPTURE(tasks);
      CAPTURE(bins);
      REQUIRE(exp::ThrowCounter::fits(tasks, bins));
      exp::ThrowCounter counter(tasks, bins);
      engine::Generator gen = engine::block_generator(17, 3);
      engine::Generator plain = gen;
      for (int rep = 0; rep < 3; ++rep) {
        std::vector<std::int64_t> counts(static_cast<std::size_t>(bins), 0);
        for (std::int64_t t = 0; t < tasks; ++t)
          ++counts[engine::uniform_below(plain, static_cast<std::uint64_t>(bins))];
        CHECK(counter.max_count(gen) == *std::max_element(counts.begin(), counts.end()));
        CHECK(gen() == plain());
      }
    }
    CHECK_FALSE(exp::ThrowCounter::fits(std::int64_t{1} << 32, 10));
    CHECK(exp::ThrowCounter::fits((std::int64_t{1} << 32) - 1, std::int64_t{1} << 32));
    CHECK(exp::ThrowCounter::scratch_bytes(1000, 100) == 400.0);
  }

  TEST_CASE("assign: a single processor takes every task") {
    const auto s = simulate(exp::AssignModel::multinomial, 37, 1, 1, 100, 1);
    CHECK(s.max_load.mean() == 37.0);
    CHECK(s.max_load.variance() == 0.0);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("assign: throwing and conditional binomials both match the exact multinomial") {
    const auto exact = exp::assign_exact(exp::AssignModel::multinomial, 1000, 100, 1);
    check_mean_and_variance(simulate(exp::AssignModel::multinomial, 1000, 100, 1, 100'000, 401,
                                     exp::MultinomialMethod::throwing),
                            exact);
    check_mean_and_variance(simulate(exp::AssignModel::multinomial, 1000, 100, 1, 100'000, 402,
                                     exp::MultinomialMethod::conditional),
                            exact);
  }

  TEST_CASE("assign: few tasks in many bins - counted from the sorted bins hit - match the exact multinomial") {
    // N <= P/8 takes the sorted-indices path: at its edge and well inside.
    for (const auto& [n, p] : {std::pair<std::int64_t, std::int64_t>{125, 1000}, {20, 1000}}) {
      CAPTURE(n);
      check_mean_and_variance(simulate(exp::AssignModel::multinomial, n, p, 1, 100'000, 404,
                                       exp::MultinomialMethod::throwing),
                              exp::assign_exact(exp::AssignModel::multinomial, n, p, 1));
    }
    // A billion bins need no billion counters: two tasks collide with
    // probability 1e-9, so 2000 replications all see a maximum of 1.
    const auto huge = simulate(exp::AssignModel::multinomial, 2, 1'000'000'000, 1, 2000, 405);
    CHECK(huge.max_load.mean() == 1.0);
  }

  TEST_CASE("assign: the Poisson model matches its exact values") {
    check_mean_and_variance(simulate(exp::AssignModel::poisson, 1000, 250, 1, 100'000, 403),
                            exp::assign_exact(exp::AssignModel::poisson, 1000, 250, 1));
  }

  TEST_CASE("assign: groups of L under both models and both finishing rules") {
    for (const auto model : {exp::AssignModel::multinomial, exp::AssignModel::poisson}) {
      CAPTURE(exp::to_string(model));
      const auto s = simulate(model, 300, 300, 3, 100'000, 404);
      const auto exact = exp::assign_exact(model, 300, 300, 3);
      check_mean_and_variance(s, exact);
      CHECK(std::abs(s.unit_time.mean() - exact.unit_time) <= 4 * s.unit_time.mean_se());
    }
  }

  TEST_CASE("assign: the models differ where the paper's approximation matters") {
    // N = P = 30: the multinomial max is stochastically smaller than the
    // Poisson max; the simulation must tell them apart.
    const auto s = simulate(exp::AssignModel::multinomial, 30, 30, 1, 200'000, 405);
    const auto poisson = exp::assign_exact(exp::AssignModel::poisson, 30, 30, 1);
    CHECK(std::abs(s.max_load.mean() - poisson.mean) > 4 * s.max_load.mean_se());
  }

  TEST_CASE("assign: thread count does not change the sample") {
    const auto one = simulate(exp::AssignModel::multinomial, 5000, 50, 1, 5'000, 406, std::nullopt, 1);
    const auto two = simulate(exp::AssignModel::multinomial, 5000, 50, 1, 5'000, 406, std::nullopt, 2);
    CHECK(one.max_load.mean() == two.max_load.mean());
    CHECK(one.max_load.variance() == two.max_load.variance());
  }
}

}  // namespace assign_test
