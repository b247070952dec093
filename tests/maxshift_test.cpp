// The max-shift kernel: bridge extremes and processor shifts on known load
// vectors, and the simulation against exact finite-n values.
#include <doctest/doctest.h>

#include "test_plan.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include "lbmc/analytic/bridge.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/exp/maxshift.hpp"

using namespace lbmc;

namespace {

exp::MaxShiftSample simulate(const std::string& spec, std::int64_t n, std::int64_t reps, std::uint64_t seed,
                             bool covariance = false, int threads = 2) {
  const engine::RunPlan plan = testing::fixed_plan(seed, reps, threads);
  return exp::simulate_max_shift(dist::parse_load_law(spec), n, covariance, plan);
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("maxshift: bridge extremes of a known load vector") {
    // loads 3 0 5 0 (prefix sums 3 3 8 8), mean 2: V = 1, −1, 2, 0.
    const std::vector<double> prefix{3, 3, 8, 8};
    double v[4];
    const auto e = exp::bridge_extremes(prefix, exp::bridge_indices(4), 2.0, v);
    CHECK(e.max == 2.0);
    CHECK(e.max_abs == 2.0);
    CHECK(v[0] == 1.0);
    CHECK(v[1] == -1.0);
    CHECK(v[2] == 2.0);
    CHECK(v[3] == 0.0);
    // loads 0 1 2: all shifts negative, so W = V_n = 0.
    const auto below = exp::bridge_extremes({0, 1, 3}, exp::bridge_indices(3), 1.0);
    CHECK(below.max == 0.0);
    CHECK(below.max_abs == 1.0);
  }

  TEST_CASE("maxshift: processor shifts of Figure 1 with an integer mean") {
    // loads 6 0 2 0 (X̄ = 2): elements 0-5 on P0 go to P0 P0 P1 P1 P2 P2,
    // elements 6-7 on P2 go to P3. Rshift_0 = 2, Lshift_0 = 0;
    // Rshift_2 = 3 − 2 = 1, Lshift_2 = 2 − 3 = −1.
    const auto s = exp::processor_shifts({6, 0, 2, 0});
    CHECK(s.max_right == 2);
    CHECK(s.max_left == 0);
    // loads 0 0 0 8: all move left, P3's first element goes to P0.
    const auto left = exp::processor_shifts({0, 0, 0, 8});
    CHECK(left.max_left == 3);
    CHECK(left.max_right == 0);
    // Balanced loads move nothing.
    const auto still = exp::processor_shifts({5, 5, 5});
    CHECK(still.max_left == 0);
    CHECK(still.max_right == 0);
  }

  TEST_CASE("maxshift: processor shifts when the mean is not an integer") {
    // 10 elements on 4 processors, X̄ = 2.5: dest(g) = ⌊g/2.5⌋ sends
    // elements 0-2 -> P0, 3-4 -> P1, 5-7 -> P2, 8-9 -> P3.
    // loads 0 10 0 0: Lshift_1 = 1 − dest(0) = 1, Rshift_1 = dest(9) − 1 = 2.
    const auto s = exp::processor_shifts({0, 10, 0, 0});
    CHECK(s.max_left == 1);
    CHECK(s.max_right == 2);
    // loads 0 0 5 0 0 5 0 (X̄ = 10/7): P2's elements 0-4 go to P0..P3, so
    // Lshift_2 = 2 and Rshift_2 = ⌊4·7/10⌋ − 2 = 0; P5's elements 5-9 go to
    // P3..P6, so Lshift_5 = 5 − 3 = 2 and Rshift_5 = 6 − 5 = 1.
    const auto split = exp::processor_shifts({0, 0, 5, 0, 0, 5, 0});
    CHECK(split.max_left == 2);
    CHECK(split.max_right == 1);
    const auto none = exp::processor_shifts({0, 0, 0});
    CHECK(none.max_left == 0);
    CHECK(none.max_right == 0);
    // n·T >= 2^53, past exact double numerators: the processor-by-processor
    // path. loads 0 2^52 0 0: P1's elements go to P0..P3.
    const auto huge = exp::processor_shifts({0, 0x1p52, 0, 0});
    CHECK(huge.max_left == 1);
    CHECK(huge.max_right == 2);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("maxshift: E W' and P(W' = 0) against exact values for normal loads") {
    for (const std::int64_t n : {2, 16, 64}) {
      CAPTURE(n);
      const auto s = simulate("normal:3,2", n, 200'000, 201 + static_cast<std::uint64_t>(n));
      const double mean = analytic::spitzer_bridge_mean_normal(n);
      CHECK(std::abs(s.w_prime.mean() - mean) <= 4 * s.w_prime.mean_se());
      const double p0 = analytic::bridge_p_max_zero(n);
      CHECK(std::abs(s.w_zero.mean() - p0) <= 4 * s.w_zero.mean_se());
    }
  }

  TEST_CASE("maxshift: P(W' = 0) = 1/n for other continuous laws") {
    for (const char* spec : {"exponential:1", "uniform:0,1"}) {
      CAPTURE(spec);
      const auto s = simulate(spec, 10, 200'000, 211);
      CHECK(std::abs(s.w_zero.mean() - 0.1) <= 4 * s.w_zero.mean_se());
    }
  }

  TEST_CASE("maxshift: the covariance of the bridge is k(n-l) sigma^2/n") {
    constexpr std::int64_t n = 8;
    const double sigma = 1.5;
    const auto s = simulate("normal:0,1.5", n, 100'000, 221, true);
    const Eigen::MatrixXd c = s.covariance->covariance();
    const auto r = static_cast<double>(s.covariance->count);
    for (std::int64_t k = 1; k < n; ++k) {
      for (std::int64_t l = k; l < n; ++l) {
        CAPTURE(k);
        CAPTURE(l);
        const double exact = analytic::bridge_covariance(k, l, n, sigma);
        // Normal theory: Var(sample cov) = (σ_kk σ_ll + σ_kl²)/(R − 1).
        const double se = std::sqrt((analytic::bridge_variance(k, n, sigma) * analytic::bridge_variance(l, n, sigma) +
                                     exact * exact) /
                                    (r - 1));
        // 28 entries: 4.5 standard errors keeps the family-wise false alarm
        // rate below 2e-4 (Bonferroni).
        CHECK(std::abs(c(k - 1, l - 1) - exact) <= 4.5 * se);
        CHECK(c(k - 1, l - 1) == c(l - 1, k - 1));
      }
      CHECK(std::abs(c(k - 1, n - 1)) < 1e-9);  // V_n = 0
    }
  }

  TEST_CASE("maxshift: thread count does not change the sample") {
    const auto one = simulate("poisson:10", 64, 20'000, 231, true, 1);
    const auto two = simulate("poisson:10", 64, 20'000, 231, true, 2);
    CHECK(one.w_prime.mean() == two.w_prime.mean());
    CHECK(one.d_prime_sq.mean() == two.d_prime_sq.mean());
    CHECK(one.max_r_shift.mean() == two.max_r_shift.mean());
    CHECK(one.d_ge_1.mean() == two.d_ge_1.mean());
    CHECK(one.covariance->covariance() == two.covariance->covariance());
    CHECK(one.w_prime_values.sorted_values() == two.w_prime_values.sorted_values());
  }
}
