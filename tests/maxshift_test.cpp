// The max-shift kernel: bridge extremes and processor shifts on known load
// vectors, and the simulation against exact finite-n values.
#include <doctest/doctest.h>

#include <algorithm>

#include <cmath>
#include <functional>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "lbmc/analytic/bridge.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/exp/maxshift.hpp"

namespace maxshift_test {

using namespace lbmc;

namespace {

exp::MaxShiftSample simulate(const std::string& spec, std::int64_t n, std::int64_t reps, std::uint64_t seed,
                             bool covariance = false, int threads = 2) {
  const engine::RunPlan plan = engine::RunPlan::fixed(seed, reps, threads);
  return exp::simulate_max_shift(dist::parse_load_law(spec), n, covariance, plan).sample;
}

// P(D >= 1) and P(W' = 0) for n iid integer loads with P(X = j) = pmf[j],
// by enumerating every load vector, with the definitions written out on the
// integers u_k = n·Y_k − k·T: D >= 1 iff T > 0 and some |u_k| >= T; W' = 0
// iff every u_k <= 0.
struct ExactShiftEvents {
  double d_ge_1 = 0.0;
  double w_zero = 0.0;
};

// Adds `weight` to the events that the loads (their sum `total`) make
// happen, decided on the integers u_k = n·Y_k − k·T.
void add_events(const std::vector<std::int64_t>& loads, std::int64_t total, double weight, ExactShiftEvents& e) {
  const auto n = static_cast<std::int64_t>(loads.size());
  bool reaches = false;
  bool nonpositive = true;
  std::int64_t y = 0;
  for (std::int64_t k = 1; k <= n; ++k) {
    y += loads[static_cast<std::size_t>(k - 1)];
    const std::int64_t u = n * y - k * total;
    reaches = reaches || (total > 0 && std::llabs(u) >= total);
    nonpositive = nonpositive && u <= 0;
  }
  e.d_ge_1 += reaches ? weight : 0.0;
  e.w_zero += nonpositive ? weight : 0.0;
}

ExactShiftEvents enumerate_shift_events(const std::vector<double>& pmf, std::int64_t n) {
  ExactShiftEvents exact;
  std::vector<std::int64_t> loads(static_cast<std::size_t>(n));
  std::function<void(std::size_t, double)> visit = [&](std::size_t i, double weight) {
    if (i == loads.size()) {
      add_events(loads, std::accumulate(loads.begin(), loads.end(), std::int64_t{0}), weight, exact);
      return;
    }
    for (std::size_t j = 0; j < pmf.size(); ++j) {
      loads[i] = static_cast<std::int64_t>(j);
      visit(i + 1, weight * pmf[j]);
    }
  };
  visit(0, 1.0);
  return exact;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("maxshift: bridge extremes of a known load vector") {
    // loads 3 0 5 0 (prefix sums 3 3 8 8), mean 2: V = 1, −1, 2, 0.
    const std::vector<double> prefix{3, 3, 8, 8};
    double v[4];
    const auto e = exp::bridge_extremes(prefix, exp::bridge_indices(4), 2.0, v);
    CHECK(e.max == 2.0);
    CHECK(e.max_abs() == 2.0);
    CHECK(v[0] == 1.0);
    CHECK(v[1] == -1.0);
    CHECK(v[2] == 2.0);
    CHECK(v[3] == 0.0);
    // loads 0 1 2: all shifts negative, so W = V_n = 0.
    const auto below = exp::bridge_extremes({0, 1, 3}, exp::bridge_indices(3), 1.0);
    CHECK(below.max == 0.0);
    CHECK(below.max_abs() == 1.0);
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

  TEST_CASE("maxshift: processor shifts from the bridge equal those processor by processor") {
    // processor_shifts takes max and min of n·V from an exact pass in double
    // over the integer prefix sums while (n + 1)·T < 2^53, and in 128-bit
    // integers above; both must give the definition's values.
    auto prefix_of = [](const std::vector<double>& loads) {
      std::vector<double> prefix(loads.size());
      double total = 0.0;
      for (std::size_t k = 0; k < loads.size(); ++k) prefix[k] = total += loads[k];
      return prefix;
    };
    auto check_same = [&](const std::vector<double>& loads) {
      const exp::ProcessorShifts fast = exp::processor_shifts(loads);
      const exp::ProcessorShifts exact = exp::processor_shifts_by_processor(prefix_of(loads));
      CHECK(fast.max_right == exact.max_right);
      CHECK(fast.max_left == exact.max_left);
      return exact;
    };
    // Loads whose bridge peaks (dips) at one processor j with n·V_j on a
    // rounding boundary of the largest right shift ⌊(max n·V + T − n)/T⌋
    // (left shift −⌊min n·V/T⌋): n·V_j = n·Y_j − j·T ≡ n or n − 1 (≡ 0 or −1)
    // mod T, so that an error of one unit in n·V, down or up, changes the
    // shift. Y_j solves n·Y ≡ r mod T, which needs gcd(n, T) | r: 8 for the
    // residues n and 0 (n = 8·odd), 1 for the others. Either way T/n is
    // inexact. The prefix sums run along straight lines to Y_j and on to T,
    // rounded down, which makes j the only extreme. n·T from 2^36 to 2^53, on
    // both sides of 2^49.
    __extension__ using Wide = __int128;  // products of two numbers below 2^53
    auto inverse_mod = [](std::int64_t a, std::int64_t mod) {  // a prime to mod
      std::int64_t r0 = mod, r1 = a % mod, s0 = 0, s1 = 1;
      while (r1 != 0) {
        const std::int64_t q = r0 / r1;
        r0 = std::exchange(r1, r0 - q * r1);
        s0 = std::exchange(s1, s0 - q * s1);
      }
      return (s0 % mod + mod) % mod;
    };
    auto loads_through = [](std::int64_t n, std::int64_t total, std::int64_t j, std::int64_t y_j) {
      std::vector<double> loads(static_cast<std::size_t>(n));
      std::int64_t before = 0;
      for (std::int64_t k = 1; k <= n; ++k) {
        // k·Y_j and (k − j)·(T − Y_j) stay below n·T <= 2^53.
        const std::int64_t y = k <= j ? k * y_j / j : y_j + (k - j) * (total - y_j) / (n - j);
        loads[static_cast<std::size_t>(k - 1)] = static_cast<double>(y - before);
        before = y;
      }
      return loads;
    };
    auto floor_div = [](std::int64_t a, std::int64_t b) { return a / b - (a % b < 0 ? 1 : 0); };
    int boundary_cases = 0;
    for (const std::int64_t n : {40, 1000, 65000}) {
      for (const double log2_nt : {36.0, 45.0, 48.9, 49.0, 49.1, 51.0, 52.5, 52.9}) {
        for (const int side : {0, 1, 2, 3}) {  // right at n, n − 1; left at 0, −1
          const bool right = side < 2;
          const std::int64_t residue = side == 0 ? n : side == 1 ? n - 1 : side == 2 ? 0 : -1;
          const std::int64_t g = side % 2 == 0 ? 8 : 1;
          auto total = static_cast<std::int64_t>(std::exp2(log2_nt) / static_cast<double>(n));
          std::int64_t y_j = 0;
          for (;; ++total) {  // until gcd(n, T) = g and Y_j can lie in [T/4, 3T/4]
            if (std::gcd(n, total) != g) continue;
            const std::int64_t period = total / g;  // Y_j is unique mod T/g
            const std::int64_t r = (residue / g % period + period) % period;
            const auto y0 = static_cast<std::int64_t>(Wide{r} * inverse_mod(n / g, period) % period);
            y_j = y0 + (total / 2 - y0) / period * period;
            if (4 * y_j >= total && 4 * y_j <= 3 * total) break;
          }
          // Peak halfway before Y_j's crossing index n·Y_j/T, dip halfway after it.
          const auto crossing = static_cast<std::int64_t>(Wide{n} * y_j / total);
          const std::int64_t j = right ? crossing / 2 : (crossing + n) / 2;
          const auto u = static_cast<std::int64_t>(Wide{n} * y_j - Wide{j} * total);
          CAPTURE(n);
          CAPTURE(log2_nt);
          CAPTURE(side);
          REQUIRE(((u - residue) % total + total) % total == 0);
          const exp::ProcessorShifts exact = check_same(loads_through(n, total, j, y_j));
          if (right) CHECK(exact.max_right == floor_div(u + total - n, total));
          if (!right) CHECK(exact.max_left == -floor_div(u, total));
          ++boundary_cases;
        }
      }
    }
    CHECK(boundary_cases == 96);
    // Random loads, even and clustered, with n·T spread over 2^20 .. 2^54.
    std::mt19937_64 gen(41);
    for (int trial = 0; trial < 600; ++trial) {
      const auto n = static_cast<std::int64_t>(2 + gen() % 3000);
      const double log2_nt = 20.0 + 34.0 * std::uniform_real_distribution<double>()(gen);
      const double mean = std::exp2(log2_nt) / static_cast<double>(n * n);
      const bool clustered = trial % 2 == 1;
      std::uniform_real_distribution<double> load(0.0, clustered ? 20.0 * mean : 2.0 * mean);
      std::vector<double> loads(static_cast<std::size_t>(n));
      for (double& x : loads) x = clustered && gen() % 10 != 0 ? 0.0 : std::floor(load(gen));
      CAPTURE(trial);
      check_same(loads);
    }
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
      CHECK(std::abs(s.w_zero.value() - p0) <= 4 * s.w_zero.se());
    }
  }

  TEST_CASE("maxshift: P(W' = 0) = 1/n for other continuous laws") {
    for (const char* spec : {"exponential:1", "uniform:0,1"}) {
      CAPTURE(spec);
      const auto s = simulate(spec, 10, 200'000, 211);
      CHECK(std::abs(s.w_zero.value() - 0.1) <= 4 * s.w_zero.se());
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
    CHECK(one.max_rshift.mean() == two.max_rshift.mean());
    CHECK(one.d_ge_1.hits() == two.d_ge_1.hits());
    CHECK(one.covariance->covariance() == two.covariance->covariance());
    CHECK(std::ranges::equal(one.w_prime_values.result().sorted_values(), two.w_prime_values.result().sorted_values()));
  }

  TEST_CASE("maxshift: P(D >= 1) and P(W' = 0) of integer loads - ties included - against enumeration") {
    // Integer loads put |V_k| exactly on X̄ (and V_k exactly on 0) often: a
    // decision by rounding biases both probabilities.
    const std::vector<double> binomial_4_half{1 / 16.0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0};
    const std::vector<double> binomial_2_half{0.25, 0.5, 0.25};
    const std::pair<const char*, std::pair<std::vector<double>, std::int64_t>> cases[] = {
        {"binomial:4,0.5", {binomial_4_half, 6}}, {"binomial:2,0.5", {binomial_2_half, 9}}};
    std::uint64_t seed = 241;
    for (const auto& [spec, law] : cases) {
      const auto& [pmf, n] = law;
      CAPTURE(spec);
      CAPTURE(n);
      const ExactShiftEvents exact = enumerate_shift_events(pmf, n);
      const auto s = simulate(spec, n, 400'000, ++seed);
      CHECK(std::abs(s.d_ge_1.value() - exact.d_ge_1) <= 4 * s.d_ge_1.se());
      CHECK(std::abs(s.w_zero.value() - exact.w_zero) <= 4 * s.w_zero.se());
    }
  }

  TEST_CASE("maxshift: all-zero loads move nothing (D = 0) - sparse Poisson loads") {
    // Poisson(0.01) on 10 processors: most replications hold no element at all.
    // Loads above 6 elements in total (probability 1.4e-9) are left out of the
    // enumeration.
    std::vector<double> pmf;
    double term = std::exp(-0.01);
    for (int j = 0; j <= 6; ++j) {
      pmf.push_back(term);
      term *= 0.01 / (j + 1);
    }
    constexpr std::int64_t n = 10;
    const ExactShiftEvents exact = [&] {
      // Enumerate with the total capped at 6 (the far tail is negligible).
      ExactShiftEvents e;
      std::vector<std::int64_t> loads(n);
      std::function<void(std::size_t, std::int64_t, double)> visit = [&](std::size_t i, std::int64_t left,
                                                                          double weight) {
        if (i == loads.size()) {
          add_events(loads, 6 - left, weight, e);
          return;
        }
        for (std::int64_t j = 0; j <= left; ++j) {
          loads[i] = j;
          visit(i + 1, left - j, weight * pmf[static_cast<std::size_t>(j)]);
        }
      };
      visit(0, 6, 1.0);
      return e;
    }();
    CHECK(exact.d_ge_1 == doctest::Approx(1.0 - std::exp(-0.1)).epsilon(0.05));  // nearly P(some element)
    const auto s = simulate("poisson:0.01", n, 400'000, 251);
    CHECK(std::abs(s.d_ge_1.value() - exact.d_ge_1) <= 4 * s.d_ge_1.se());
    CHECK(std::abs(s.w_zero.value() - exact.w_zero) <= 4 * s.w_zero.se());
  }
}

}  // namespace maxshift_test
