// The scattered decomposition (Salmon): Salmon's two forms of l_c, the exact
// quantiles and means of l for normal and exponential (Gamma-sum) tasks, and
// the simulation against them.
//
// Known answers were computed independently with mpmath at 40 digits
// (python3-mpmath 1.3.0):
//   K = ln(N/((1-c) sqrt(2 pi))), N = 1000, c = mpf(0.99)
//   printed      = sqrt(2 K)                                   (Salmon, final form)
//   log_kept     = findroot(x^2 + 2 ln x - 2 K)                 (log term kept)
//   normal_limit = findroot(N ln Phi(z) - ln c)                 (Phi^-1(c^(1/N)))
//   conf46       = Phi(4.6)^N
//   gamma_q(n)   = findroot(Q(n, t) - (1 - c^(1/N)))/n - 1,  Q = regularized upper gammainc
//   gamma_mean(n)= med + quad(1 - P(n, n(1+l))^N, [med, inf]) - quad(P^N, [-1, med])
//                  (n = 1 also equals H_N - 1, Renyi)
// Statistical tests: fixed seeds, tolerances of 4 standard errors.
#include <doctest/doctest.h>

#include <algorithm>

#include <cmath>
#include <limits>

#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/analytic/scatter.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/exp/scatter.hpp"

namespace scatter_test {

using namespace lbmc;

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

bool close(double actual, double expected, double ulps) {
  return std::abs(actual - expected) <= ulps * kEps * std::abs(expected);
}

exp::ScatterSample simulate(const std::string& spec, std::int64_t tasks, std::int64_t procs, std::int64_t reps,
                            std::uint64_t seed, int threads = 2) {
  const engine::RunPlan plan = engine::RunPlan::fixed(seed, reps, threads);
  return exp::simulate_scatter(dist::parse_load_law(spec), tasks, procs, plan).sample;
}

void check_against_exact(const std::string& spec, std::int64_t tasks, std::int64_t procs, std::int64_t reps,
                         std::uint64_t seed) {
  CAPTURE(spec);
  CAPTURE(tasks);
  CAPTURE(procs);
  const auto law = dist::parse_load_law(spec);
  const auto sample = simulate(spec, tasks, procs, reps, seed);
  REQUIRE(sample.l.count() == reps);
  const double mean = *analytic::scatter_exact_mean(law, tasks, procs);
  CHECK(std::abs(sample.l.mean() - mean) <= 4 * sample.l.mean_se());
  for (double c : {0.5, 0.99}) {
    CAPTURE(c);
    const auto q = sample.l_values.result().quantile(c, 0.95);
    const double ref = *analytic::scatter_exact_quantile(law, tasks, procs, c);
    CHECK(std::abs(q.value - ref) <= 4 * q.se);
  }
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("scatter: Salmon's two forms at the printed case") {
    CHECK(close(*analytic::salmon_constant_printed(1000, 0.99), 4.6030396330610829947, 4));
    CHECK(close(analytic::salmon_constant_log_kept(1000, 0.99), 4.2757518571194645489, 4));
    // The printed form has no value where its logarithm is not positive.
    CHECK_FALSE(analytic::salmon_constant_printed(1, 0.5).has_value());
    CHECK(analytic::salmon_constant_log_kept(1, 0.5) > 0.0);
    CHECK_THROWS_AS(analytic::salmon_constant_log_kept(0, 0.99), engine::InputError);
    CHECK_THROWS_AS(analytic::salmon_constant_printed(10, 1.0), engine::InputError);
  }

  TEST_CASE("scatter: the exact normal quantile and the confidence of 4.6") {
    CHECK(close(analytic::normal_limit_constant(1000, 0.99), 4.2637707149081051699, 4));
    CHECK(close(analytic::normal_limit_confidence(1000, 4.6), 0.99788977273310861018, 64));
    // normal:5,1 tasks, n = 10: l_c = (1/(sqrt(10)·5))·Phi^-1(0.99^(1/1000)).
    const double expected = 4.2637707149081051699 / (std::sqrt(10.0) * 5.0);
    CHECK(close(*analytic::scatter_exact_quantile(dist::Normal{5.0, 1.0}, 10, 1000, 0.99), expected, 8));
  }

  TEST_CASE("scatter: exact Gamma quantiles for exponential tasks") {
    // The mean of the task law cancels in l.
    CHECK(close(*analytic::scatter_exact_quantile(dist::Exponential{1.0}, 1, 1000, 0.99), 10.507909530922434189, 16));
    CHECK(close(*analytic::scatter_exact_quantile(dist::Exponential{2.5}, 10, 1000, 0.99), 1.9515193324347420085,
                64));
    CHECK(close(*analytic::scatter_exact_quantile(dist::Exponential{1.0}, 100, 1000, 0.99), 0.4848385676087422839,
                256));
  }

  TEST_CASE("scatter: exact means for exponential tasks") {
    CHECK(close(*analytic::scatter_exact_mean(dist::Exponential{1.0}, 1, 1000), 6.4854708605503449127, 1e4));
    CHECK(close(*analytic::scatter_exact_mean(dist::Exponential{3.0}, 10, 1000), 1.3528062047023063466, 1e5));
  }

  TEST_CASE("scatter: exponential tasks with thousands a processor - where Boost's incomplete gamma overflows") {
    // P(Gamma(2048) <= 1e-10) underflows; Boost overflows computing it.
    const dist::LoadLaw sum = dist::Gamma{2048.0, 1.0};
    CHECK(dist::cdf(sum, 1e-10) == 0.0);
    CHECK(dist::ccdf(sum, 1e-10) == 1.0);
    CHECK(dist::cdf(sum, 2048.0) == doctest::Approx(0.5029).epsilon(1e-3));
    // Two processors: E max(X, Y) = n + E|X − Y|/2 = n + Γ(n + 1/2)/(√π Γ(n))
    // for iid Gamma(n, 1), so E l = Γ(n + 1/2)/(√π Γ(n) n).
    for (const std::int64_t n : {2048, 4096, 100000}) {
      CAPTURE(n);
      const double a = static_cast<double>(n);
      const double exact = std::exp(std::lgamma(a + 0.5) - std::lgamma(a)) / (std::sqrt(M_PI) * a);
      const auto l = analytic::scatter_exact_mean(dist::Exponential{1.0}, n, 2);
      REQUIRE(l.has_value());
      CHECK(*l == doctest::Approx(exact).epsilon(1e-9));
    }
  }

  TEST_CASE("scatter: constant tasks have no imbalance and laws without a known sum only asymptotic forms") {
    CHECK(*analytic::scatter_exact_quantile(dist::Constant{2.0}, 10, 100, 0.99) == 0.0);
    CHECK(*analytic::scatter_exact_mean(dist::Constant{2.0}, 10, 100) == 0.0);
    CHECK_FALSE(analytic::scatter_exact_quantile(dist::Uniform{0.0, 1.0}, 10, 100, 0.99).has_value());
    CHECK_FALSE(analytic::scatter_exact_mean(dist::Lognormal{0.0, 1.0}, 10, 100).has_value());
    // Poisson tasks: processor sums Poisson(30); l = (max of 100 sums)/30 - 1.
    CHECK(*analytic::scatter_exact_mean(dist::Poisson{3.0}, 10, 100) ==
          doctest::Approx(analytic::mean(analytic::MaxOfIid{dist::Poisson{30.0}, 100}) / 30.0 - 1.0).epsilon(1e-15));
    CHECK_THROWS_AS(analytic::scatter_exact_mean(dist::Normal{0.0, 1.0}, 10, 100), engine::InputError);
    CHECK_THROWS_AS(analytic::scatter_scale(dist::Uniform{-2.0, 1.0}, 10), engine::InputError);
    const auto sample = simulate("constant:2", 10, 100, 1000, 1);
    CHECK(sample.l.mean() == 0.0);
    CHECK(sample.l_obs_values.result().quantile(0.99, 0.95).value == 0.0);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("scatter: l_obs leaves out the replications where every task time is 0") {
    // Poisson(3) tasks, n = 1, N_proc = 2: every time is 0 with probability
    // e^-6 = 0.25%, and then l = -1 and l_obs = 0/0. On pcg64 and on the
    // counter-based stream, l_obs's count is R less the replications with
    // l = -1, and every l_obs is finite.
    for (const auto stream : {engine::Stream::pcg64, engine::Stream::philox}) {
      engine::RunPlan plan = engine::RunPlan::fixed(207, 40'000, 2);
      plan.stream = stream;
      const auto sample = exp::simulate_scatter(dist::Poisson{3.0}, 1, 2, plan).sample;
      const engine::QuantileResult l = sample.l_values.result();
      const engine::QuantileResult l_obs = sample.l_obs_values.result();
      const auto idle = std::ranges::count(l.sorted_values(), -1.0);
      CHECK(sample.l.count() == 40'000);
      CHECK(sample.l_obs.count() == 40'000 - idle);
      CHECK(l_obs.count() == 40'000 - idle);
      CHECK(std::ranges::all_of(l_obs.sorted_values(), [](double x) { return std::isfinite(x); }));
      CHECK(std::isfinite(sample.l_obs.mean()));
      const double p = std::exp(-6.0);
      CHECK(std::abs(static_cast<double>(idle) - 40'000 * p) <= 4 * std::sqrt(40'000 * p * (1 - p)));
    }
  }

  TEST_CASE("scatter: Monte Carlo agrees with exact values for exponential and normal tasks") {
    check_against_exact("exponential:1", 10, 1000, 20'000, 201);
    check_against_exact("exponential:1", 1, 1000, 50'000, 202);
    check_against_exact("normal:5,1", 10, 1000, 20'000, 203);
    check_against_exact("normal:5,1", 100, 100, 20'000, 204);
  }

  TEST_CASE("scatter: same seed gives identical results for 1 and 2 threads") {
    const auto one = simulate("exponential:1", 7, 50, 5000, 205, 1);
    const auto two = simulate("exponential:1", 7, 50, 5000, 205, 2);
    CHECK(one.l.mean() == two.l.mean());
    CHECK(one.l.mean_se() == two.l.mean_se());
    CHECK(one.l_obs.mean() == two.l_obs.mean());
    CHECK(std::ranges::equal(one.l_values.result().sorted_values(), two.l_values.result().sorted_values()));
    CHECK(std::ranges::equal(one.l_obs_values.result().sorted_values(), two.l_obs_values.result().sorted_values()));
  }

  TEST_CASE("scatter: a wrong law is detected") {
    // Power check: the normal-limit mean (the CLT) is far from exponential
    // tasks at n = 10.
    const auto sample = simulate("exponential:1", 10, 1000, 20'000, 206);
    const double wrong = *analytic::scatter_exact_mean(dist::Normal{1.0, 1.0}, 10, 1000);
    CHECK(std::abs(sample.l.mean() - wrong) > 4 * sample.l.mean_se());
  }
}

}  // namespace scatter_test
