// Direct draws of the maximum (inversion of F^n) against brute force and
// the exact law: two-sample KS distance and moments within standard errors.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <span>

#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/engine/errors.hpp"
#include "maxload/direct_max.hpp"
#include "lbmc/exp/maxload.hpp"

namespace direct_max_test {

using namespace lbmc;

namespace {

exp::MaxLoadSample simulate(const dist::LoadLaw& law, std::int64_t n, std::int64_t reps, std::uint64_t seed,
                            exp::MaxMethod method) {
  const engine::RunPlan plan = engine::RunPlan::fixed(seed, reps, 2);
  return exp::simulate_max_load(law, n, plan, method).sample;
}

// Two-sample Kolmogorov–Smirnov distance of sorted samples a and b.
double two_sample_ks(std::span<const double> a, std::span<const double> b) {
  std::size_t i = 0, j = 0;
  double d = 0.0;
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= x) ++i;
    while (j < b.size() && b[j] <= x) ++j;
    d = std::max(d, std::abs(static_cast<double>(i) / static_cast<double>(a.size()) -
                             static_cast<double>(j) / static_cast<double>(b.size())));
  }
  return d;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("direct max: auto picks the direct method for integer laws and large n") {
    CHECK(exp::choose_max_method(dist::Poisson{10}, 2) == exp::MaxMethod::direct);
    CHECK(exp::choose_max_method(dist::Poisson{10}, 1) == exp::MaxMethod::brute);
    CHECK(exp::choose_max_method(dist::Normal{0, 1}, 16) == exp::MaxMethod::brute);
    CHECK(exp::choose_max_method(dist::Normal{0, 1}, 64) == exp::MaxMethod::direct);
    // Wide integer maxima: a table of ~45000 cells is worth building for
    // n = 1e15 (not for n = 1000); past 2^24 cells only a huge n searches.
    CHECK(exp::choose_max_method(dist::Poisson{1e8}, 1000) == exp::MaxMethod::brute);
    CHECK(exp::choose_max_method(dist::Poisson{1e8}, 1'000'000'000'000'000) == exp::MaxMethod::direct);
    CHECK(exp::choose_max_method(dist::Binomial{std::int64_t{1} << 53, 0.5}, 1'000'000) == exp::MaxMethod::brute);
    CHECK(exp::choose_max_method(dist::Binomial{std::int64_t{1} << 53, 0.5}, std::int64_t{1} << 26) ==
          exp::MaxMethod::direct);
  }

  TEST_CASE("direct max: the anchored mass run of a wide table matches the law's cdf cell by cell") {
    // Poisson(1e6), n = 7: 600 cells around the median, anchors every 256.
    const dist::LoadLaw law = dist::Poisson{1e6};
    const analytic::MaxOfIid max{law, 7};
    const double centre = analytic::quantile(max, 0.5);
    const std::vector<double> run = analytic::mass_run(max, centre - 300, centre + 299);
    REQUIRE(run.size() == 600);
    for (std::size_t i = 0; i < run.size(); ++i) {
      const double k = centre - 300 + static_cast<double>(i);
      CAPTURE(k);
      CHECK(std::abs(run[i] - analytic::pdf(max, k)) <= 1e-12 * analytic::pdf(max, k));
    }
    CHECK_THROWS_AS(analytic::mass_run(analytic::MaxOfIid{dist::Normal{0, 1}, 7}, 0, 1), engine::InputError);
  }

  TEST_CASE("direct max: integer draws stay inside the support and point masses are exact") {
    const exp::DirectMaxSampler poisson(dist::Poisson{3}, 1000);
    const exp::DirectMaxSampler constant(dist::Constant{2.5}, 1000);
    auto gen = engine::block_generator(1, 0);
    for (int i = 0; i < 100000; ++i) {
      const double z = poisson(gen);
      CHECK(z == std::floor(z));
      CHECK(z >= 0.0);
    }
    CHECK(constant(gen) == 2.5);
  }
}

TEST_SUITE("fast") {
  TEST_CASE("direct max: ln(1 - exp(-x)) to a few ulp on both sides of the series switch") {
    for (double x = 1e-15; x < 30.0; x *= 1.37) {
      CAPTURE(x);
      // Reference in long double: 1 − e^{−x} from expm1l, then logl.
      const long double ref = std::log(-std::expm1(-static_cast<long double>(x)));
      const double got = exp::log_one_minus_exp_neg(x);
      CHECK(std::abs(got - static_cast<double>(ref)) <= 4.0 * std::numeric_limits<double>::epsilon() *
                                                            std::max(1.0, std::abs(static_cast<double>(ref))));
    }
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("direct max: same law as brute force and as the exact values") {
    const dist::LoadLaw laws[] = {dist::Normal{0, 1}, dist::Exponential{2}, dist::Uniform{0, 1},
                                  dist::Poisson{10}, dist::Binomial{4096, 0.5}};
    for (const auto& law : laws) {
      CAPTURE(dist::to_spec(law));
      constexpr std::int64_t n = 500;
      const auto brute = simulate(law, n, 20'000, 301, exp::MaxMethod::brute);
      const auto direct = simulate(law, n, 200'000, 302, exp::MaxMethod::direct);
      const auto exact = analytic::moments(analytic::MaxOfIid{law, n});
      CHECK(std::abs(direct.moments.mean() - exact.mean) <= 4 * direct.moments.mean_se());
      CHECK(std::abs(direct.moments.variance() - exact.variance) <= 4 * direct.moments.variance_se());
      const double se_diff = std::hypot(brute.moments.mean_se(), direct.moments.mean_se());
      CHECK(std::abs(brute.moments.mean() - direct.moments.mean()) <= 4 * se_diff);
      // KS critical value at level 1e-3: 1.95·√((m + n)/(m n)). Integer
      // laws make the test conservative (ties), which keeps it valid.
      const double m = 20'000, r = 200'000;
      const double ks = two_sample_ks(brute.quantiles.result().sorted_values(), direct.quantiles.result().sorted_values());
      CHECK(ks <= 1.95 * std::sqrt((m + r) / (m * r)));
    }
  }

  TEST_CASE("direct max: the vectorised path at n = 65536 has the exact mean - variance and 0.95 quantile") {
    // At this n nearly every draw goes through direct_batch's loops.
    const dist::LoadLaw laws[] = {dist::Normal{0, 1}, dist::Exponential{2}};
    for (const auto& law : laws) {
      CAPTURE(dist::to_spec(law));
      constexpr std::int64_t n = 65536;
      const auto direct = simulate(law, n, 400'000, 304, exp::MaxMethod::direct);
      const auto exact = analytic::moments(analytic::MaxOfIid{law, n});
      CHECK(std::abs(direct.moments.mean() - exact.mean) <= 4 * direct.moments.mean_se());
      CHECK(std::abs(direct.moments.variance() - exact.variance) <= 4 * direct.moments.variance_se());
      // The 0.95 quantile: P(Z <= q̂) against 0.95, in binomial standard errors.
      const double q = direct.quantiles.result().quantile(0.95, 0.95).value;
      const double p = analytic::cdf(analytic::MaxOfIid{law, n}, q);
      CHECK(std::abs(p - 0.95) <= 4 * std::sqrt(0.95 * 0.05 / 400'000.0));
    }
  }

  TEST_CASE("direct max: wide tables and cdf searches draw the exact law of the maximum") {
    // Poisson(1e8), n = 1000: a table of ~1.6e5 cells from the anchored mass
    // run. Binomial(2^53, 1/2), n = 2^26: ~1e9 integers, no table; each draw
    // searches the cdf.
    struct Case {
      dist::LoadLaw law;
      std::int64_t n;
      std::int64_t reps;
    };
    const Case cases[] = {{dist::Poisson{1e8}, 1000, 100'000},
                          {dist::Binomial{std::int64_t{1} << 53, 0.5}, std::int64_t{1} << 26, 4'000}};
    for (const auto& c : cases) {
      CAPTURE(dist::to_spec(c.law));
      const auto direct = simulate(c.law, c.n, c.reps, 305, exp::MaxMethod::direct);
      const auto exact = analytic::moments(analytic::MaxOfIid{c.law, c.n});
      CHECK(std::abs(direct.moments.mean() - exact.mean) <= 4 * direct.moments.mean_se());
      CHECK(std::abs(direct.moments.variance() - exact.variance) <= 4 * direct.moments.variance_se());
      // A shift of one sd of Z in the law's location would be seen.
      const auto shifted = analytic::moments(analytic::MaxOfIid{c.law, c.n * 4});
      CHECK(std::abs(direct.moments.mean() - shifted.mean) > 4 * direct.moments.mean_se());
    }
  }

  TEST_CASE("direct max: a wrong n is detected") {
    const auto direct = simulate(dist::Normal{0, 1}, 400, 200'000, 303, exp::MaxMethod::direct);
    const auto wrong = analytic::moments(analytic::MaxOfIid{dist::Normal{0, 1}, 500});
    CHECK(std::abs(direct.moments.mean() - wrong.mean) > 4 * direct.moments.mean_se());
  }
}

}  // namespace direct_max_test
