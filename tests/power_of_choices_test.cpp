// Tests of analytic/power_of_choices.hpp: the law of the largest task count
// M under choice:D with unit tasks, exact by the profile chain, and the
// fluid limit ds_i/dt = s_{i−1}^D − s_i^D.
//
// References, independent of the code under test:
//  - brute force over all P^{D·N} equally likely draw sequences, each run
//    with the bins' identities and the exact tie rule of `compare` (the
//    first drawn wins a tie), and again with the last drawn winning ties (the
//    law of M is the same: only the profile matters);
//  - multinomial_max_moments for D = 1 (a different method: saddle-point
//    lattice inversion of the multinomial cdf);
//  - the closed forms of the fluid limit: s_i(t) = P(Poisson(t) >= i) for
//    D = 1 (summed here in long double from the pmf recurrence), s_1 = tanh t
//    for D = 2 and t = Σ_k s_1^{kD+1}/(kD+1) for any D (Mitzenmacher 1999),
//    s_{i+1} <= t·s_i^2 for D = 2, Σ_i s_i = t for every D;
//  - exp::makespan_choice (the simulated strategy) for the Monte Carlo check.
// Statistical test: fixed seed, tolerance 4 standard errors.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#include <doctest/doctest.h>

#include "lbmc/analytic/multinomial_max.hpp"
#include "lbmc/analytic/power_of_choices.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/rng.hpp"
#include "compare/makespans.hpp"
#include "support/tolerance.hpp"

namespace power_of_choices_test {

namespace {

namespace an = lbmc::analytic;
using boost::multiprecision::cpp_int;
using lbmc::test::rel_close;

// The number of draw sequences with each maximum M = 0..N, over all P^{D·N}
// sequences, balls placed with bin identities: a later draw replaces the
// chosen bin when its count is smaller (first drawn wins ties) or, with
// last_wins, when it is not larger.
std::vector<std::uint64_t> brute_force_counts(int balls, int bins, int d, bool last_wins) {
  const int draws = balls * d;
  std::uint64_t total = 1;
  for (int k = 0; k < draws; ++k) total *= static_cast<std::uint64_t>(bins);
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(balls) + 1, 0);
  std::vector<int> sequence(static_cast<std::size_t>(draws), 0), load(static_cast<std::size_t>(bins));
  for (std::uint64_t index = 0; index < total; ++index) {
    std::uint64_t rest = index;
    for (int& draw : sequence) {
      draw = static_cast<int>(rest % static_cast<std::uint64_t>(bins));
      rest /= static_cast<std::uint64_t>(bins);
    }
    std::fill(load.begin(), load.end(), 0);
    for (int ball = 0; ball < balls; ++ball) {
      const auto* first = &sequence[static_cast<std::size_t>(ball * d)];
      int best = first[0];
      for (int k = 1; k < d; ++k) {
        const int other = first[k];
        const bool better = last_wins ? load[static_cast<std::size_t>(other)] <= load[static_cast<std::size_t>(best)]
                                      : load[static_cast<std::size_t>(other)] < load[static_cast<std::size_t>(best)];
        if (better) best = other;
      }
      ++load[static_cast<std::size_t>(best)];
    }
    ++counts[static_cast<std::size_t>(*std::max_element(load.begin(), load.end()))];
  }
  return counts;
}

// P(Poisson(t) >= i) for i = 0, 1, ... while above 1e-300: the pmf from the
// recurrence p_j = p_{j−1}·t/j in long double, summed from the far tail
// down (positive terms only).
std::vector<long double> poisson_tail(long double t) {
  std::vector<long double> pmf{std::exp(-t)};
  for (long double j = 1;; j += 1) {
    pmf.push_back(pmf.back() * t / j);
    if (j > t && pmf.back() < 1e-330L) break;
  }
  std::vector<long double> tail(pmf.size() + 1, 0.0L);
  for (std::size_t j = pmf.size(); j-- > 0;) tail[j] = tail[j + 1] + pmf[j];
  while (!tail.empty() && tail.back() < 1e-300L) tail.pop_back();
  return tail;
}

// The largest relative difference between two fluid tails over the levels
// where the reference is at least `floor`.
double worst_relative(const an::FluidTail& got, const an::FluidTail& want, double floor) {
  double worst = 0.0;
  const auto last = want.full + static_cast<std::int64_t>(want.below.size());
  for (std::int64_t i = 1; i <= last; ++i) {
    const double w = want.at(i);
    if (w >= floor) worst = std::max(worst, std::abs(got.at(i) - w) / w);
  }
  return worst;
}

double mass(const an::FluidTail& tail) {
  double sum = static_cast<double>(tail.full);
  for (const double s : tail.below) sum += s;
  return sum;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("power of choices: exact law equals brute force over all draw sequences") {
    struct Case {
      int balls, bins, d;
    };
    for (const Case c : {Case{0, 3, 2}, Case{1, 3, 2}, Case{4, 3, 2}, Case{5, 3, 2}, Case{4, 4, 2}, Case{5, 4, 2},
                         Case{3, 3, 3}, Case{4, 2, 3}, Case{6, 2, 2}, Case{3, 5, 2}, Case{5, 3, 1}, Case{2, 2, 5},
                         Case{3, 3, 4}, Case{2, 5, 3}}) {
      CAPTURE(c.balls);
      CAPTURE(c.bins);
      CAPTURE(c.d);
      const auto law = an::choice_unit_max_law(c.balls, c.bins, c.d);
      REQUIRE(law.has_value());
      const auto counts = brute_force_counts(c.balls, c.bins, c.d, false);
      CHECK(counts == brute_force_counts(c.balls, c.bins, c.d, true));  // the tie rule does not matter
      const std::uint64_t total = std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
      CHECK(law->sequence_total == std::to_string(total));
      REQUIRE(law->sequence_counts.size() == counts.size());
      REQUIRE(law->pmf.size() == counts.size());
      std::uint64_t first = 0, second = 0;
      for (std::size_t m = 0; m < counts.size(); ++m) {
        CHECK(law->sequence_counts[m] == std::to_string(counts[m]));
        // Counts and totals below 2^53: one division is the correctly rounded value.
        CHECK(law->pmf[m] == static_cast<double>(counts[m]) / static_cast<double>(total));
        first += m * counts[m];
        second += m * m * counts[m];
      }
      const std::uint64_t common = std::gcd(first, total);
      CHECK(law->mean_exact == std::to_string(first / common) + "/" + std::to_string(total / common));
      CHECK(law->mean == static_cast<double>(first) / static_cast<double>(total));
      const double variance_numerator = static_cast<double>(total * second - first * first);
      CHECK(law->variance == variance_numerator / (static_cast<double>(total) * static_cast<double>(total)));
    }
  }

  TEST_CASE("power of choices: large exact values are consistent and correctly rounded") {
    using Float = boost::multiprecision::cpp_bin_float_100;
    const auto law = an::choice_unit_max_law(30, 30, 2);
    REQUIRE(law.has_value());
    cpp_int sum = 0, first = 0;
    Float pmf_sum = 0;
    for (std::size_t m = 0; m < law->sequence_counts.size(); ++m) {
      const cpp_int count(law->sequence_counts[m]);
      sum += count;
      first += count * m;
      // 100 digits, then one rounding to double.
      CHECK(law->pmf[m] == static_cast<double>(Float(law->sequence_counts[m]) / Float(law->sequence_total)));
      pmf_sum += law->pmf[m];
    }
    CHECK(sum == cpp_int(law->sequence_total));
    CHECK(cpp_int(law->sequence_total) == boost::multiprecision::pow(cpp_int(30), 60));
    const std::string& exact = law->mean_exact;
    const auto slash = exact.find('/');
    REQUIRE(slash != std::string::npos);
    const cpp_int numerator(exact.substr(0, slash)), denominator(exact.substr(slash + 1));
    CHECK(numerator * cpp_int(law->sequence_total) == first * denominator);
    CHECK(boost::multiprecision::gcd(numerator, denominator) == 1);
    CHECK(law->mean == static_cast<double>(Float(exact.substr(0, slash)) / Float(exact.substr(slash + 1))));
    CHECK(std::abs(static_cast<double>(pmf_sum) - 1.0) <= 1e-15);
    // M = N: the first ball takes any of its P^D draw tuples; every later
    // ball must then draw that bin D times (any other bin has fewer tasks).
    CHECK(law->sequence_counts.back() == "900");
  }

  TEST_CASE("power of choices: D = 1 agrees with the multinomial maximum") {
    struct Case {
      std::int64_t balls, bins;
    };
    for (const Case c : {Case{10, 4}, Case{20, 5}, Case{30, 10}, Case{25, 25}, Case{40, 8}, Case{60, 3}, Case{7, 20}}) {
      CAPTURE(c.balls);
      CAPTURE(c.bins);
      const auto law = an::choice_unit_max_law(c.balls, c.bins, 1);
      REQUIRE(law.has_value());
      const auto moments = an::moments(an::MultinomialMax{c.balls, c.bins});
      CHECK(rel_close(law->mean, moments.mean, 1e-12));
      CHECK(rel_close(law->variance, moments.variance, 1e-12));
      for (std::int64_t k = 0; k <= c.balls; ++k) {
        double cdf = 0.0;
        for (std::int64_t m = 0; m <= k; ++m) cdf += law->pmf[static_cast<std::size_t>(m)];
        CHECK(std::abs(cdf - an::cdf(an::MultinomialMax{c.balls, c.bins}, k)) <= 1e-13);
      }
    }
  }

  TEST_CASE("power of choices: trivial cases and the cost cap") {
    const auto one_bin = an::choice_unit_max_law(12, 1, 3);
    REQUIRE(one_bin.has_value());
    CHECK(one_bin->mean == 12.0);
    CHECK(one_bin->variance == 0.0);
    CHECK(one_bin->mean_exact == "12/1");
    // More balls than the cap allows: nullopt, at once.
    CHECK_FALSE(an::choice_unit_max_law(80, 80, 2).has_value());
    CHECK_FALSE(an::choice_unit_max_law(5000, 2, 2).has_value());
    CHECK_THROWS_AS(an::choice_unit_max_law(-1, 4, 2), lbmc::engine::InputError);
    CHECK_THROWS_AS(an::choice_unit_max_law(4, 0, 2), lbmc::engine::InputError);
    CHECK_THROWS_AS(an::choice_unit_max_law(4, 4, 0), lbmc::engine::InputError);
  }

  TEST_CASE("fluid limit: RK4 with D = 1 follows the Poisson tail") {
    for (const double t : {0.5, 3.0, 20.0, 57.25}) {
      CAPTURE(t);
      const auto poisson = poisson_tail(t);
      const auto rk4 = an::choice_fluid_tail_rk4(t, 1, 2048, false);
      const auto closed = an::choice_fluid_tail(t, 1);
      double worst_rk4 = 0.0, worst_closed = 0.0;
      for (std::size_t i = 1; i < poisson.size(); ++i) {
        const auto want = static_cast<double>(poisson[i]);
        const auto level = static_cast<std::int64_t>(i);
        if (want >= 1e-20) worst_rk4 = std::max(worst_rk4, std::abs(rk4.at(level) - want) / want);
        worst_closed = std::max(worst_closed, std::abs(closed.at(level) - want) / want);
      }
      // Measured: RK4 at 2048 steps per unit within 6e-11 (t = 3, the
      // deepest levels); gamma_p within 3e-16 down to 1e-300.
      CHECK(worst_rk4 <= 5e-10);
      CHECK(worst_closed <= 1e-14);
    }
  }

  TEST_CASE("fluid limit: D = 2 has s_1 = tanh t and converges in the step") {
    for (const double t : {0.05, 1.0, 2.5, 9.75}) {
      CAPTURE(t);
      const auto tail = an::choice_fluid_tail(t, 2);
      CHECK(rel_close(tail.at(1), std::tanh(t), 1e-14));  // measured 2e-15
      const auto coarse = an::choice_fluid_tail_rk4(t, 2, 2048, true);
      const auto fine = an::choice_fluid_tail_rk4(t, 2, 4096, true);
      // Measured: below 3e-11 for the levels above 1e-20.
      CHECK(worst_relative(coarse, fine, 1e-20) <= 3e-10);
    }
    // Doubly exponential decay: s_{i+1}(t) = ∫_0^t (s_i^2 − s_{i+1}^2) <= t·s_i(t)^2,
    // s_i growing in time.
    for (const double t : {1.0, 2.5}) {
      const auto tail = an::choice_fluid_tail(t, 2);
      for (std::int64_t i = 1; i <= static_cast<std::int64_t>(tail.below.size()); ++i) {
        CHECK(tail.at(i + 1) <= t * tail.at(i) * tail.at(i) * (1.0 + 1e-9));
      }
    }
  }

  TEST_CASE("fluid limit: s_1 inverts Mitzenmacher's series for any D") {
    // ds_1/dt = 1 − s_1^D gives t = ∫_0^{s_1} dx/(1 − x^D) = Σ_k s_1^{kD+1}/(kD+1).
    for (const std::int64_t d : {2, 3, 5, 16}) {
      for (const double t : {0.4, 1.3}) {
        CAPTURE(d);
        CAPTURE(t);
        const long double s = an::choice_fluid_tail(t, d).at(1);
        long double series = 0.0L, power = s;
        const long double step = std::pow(s, static_cast<long double>(d));
        for (std::int64_t k = 0; power > 1e-22L * s; ++k) {
          series += power / static_cast<long double>(k * d + 1);
          power *= step;
        }
        // Measured within 2e-14: the slope dt/ds_1 = 1/(1 − s_1^D) magnifies
        // the rounding of s_1, up to 135-fold at D = 16, t = 1.3.
        CHECK(rel_close(static_cast<double>(series), t, 1e-13));
      }
    }
  }

  TEST_CASE("fluid limit: the travelling-wave shift matches full integration") {
    for (const std::int64_t d : {2, 3, 5}) {
      CAPTURE(d);
      const std::int64_t m = 512 * std::max<std::int64_t>(d, 4);
      const auto shifted = an::choice_fluid_tail_rk4(150.5, d, m, true);
      const auto direct = an::choice_fluid_tail_rk4(150.5, d, m, false);
      CHECK(shifted.full == direct.full);
      CHECK(shifted.below.size() == direct.below.size());
      // Measured: below 4e-11 down to 1e-100.
      CHECK(worst_relative(shifted, direct, 1e-100) <= 3e-10);
    }
  }

  TEST_CASE("fluid limit: one ball per bin per unit time") {
    for (const std::int64_t d : {1, 2, 3, 8}) {
      for (const double t : {0.3, 7.5, 123.0, 1e6}) {
        CAPTURE(d);
        CAPTURE(t);
        CHECK(std::abs(mass(an::choice_fluid_tail(t, d)) - t) <= 1e-12 * std::max(t, 1.0));
      }
      // One bin: M = N, and the formula gives Σ s_i = N.
      CHECK(std::abs(an::choice_fluid_max_mean(1000, 1, d) - 1000.0) <= 1e-9);
    }
    CHECK(an::choice_fluid_tail(0.0, 2).below.empty());
    CHECK(an::choice_fluid_tail(0.0, 2).full == 0);
    CHECK_THROWS_AS(an::choice_fluid_tail(-1.0, 2), lbmc::engine::InputError);
    CHECK_THROWS_AS(an::choice_fluid_tail(1.0, 0), lbmc::engine::InputError);
    CHECK_THROWS_AS(an::choice_fluid_max_mean(10, 0, 2), lbmc::engine::InputError);
  }

  TEST_CASE("fluid limit: the asymptotic mean near the exact one") {
    // Σ min(1, P·s_i) against the exact E M at N = P; the differences
    // (fluid − exact) measured: 0.051, 0.026, 0.093 at N = 8, 20, 50 for
    // D = 2, −0.0005 at N = 30 for D = 3.
    struct Case {
      std::int64_t n, d;
      double gap;
    };
    for (const Case c : {Case{8, 2, 0.06}, Case{20, 2, 0.04}, Case{50, 2, 0.11}, Case{30, 3, 0.002}}) {
      CAPTURE(c.n);
      CAPTURE(c.d);
      const auto law = an::choice_unit_max_law(c.n, c.n, c.d);
      REQUIRE(law.has_value());
      CHECK(std::abs(an::choice_fluid_max_mean(c.n, c.n, c.d) - law->mean) <= c.gap);
    }
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("power of choices: the simulated strategy follows the exact law") {
    // N = P = 8, D = 2, unit tasks: makespan_choice's makespan is M.
    constexpr std::int64_t n = 8;
    constexpr int reps = 200000;
    const auto law = an::choice_unit_max_law(n, n, 2);
    REQUIRE(law.has_value());
    const std::vector<double> unit(n, 1.0);
    auto gen = lbmc::engine::block_generator(20240917, 0);
    lbmc::engine::Moments moments;
    std::vector<double> observed(law->pmf.size(), 0.0);
    for (int r = 0; r < reps; ++r) {
      const double m = lbmc::exp::makespan_choice(unit, n, 2, gen);
      moments.add(m);
      observed[static_cast<std::size_t>(m)] += 1.0;
    }
    const double se = moments.mean_se();
    CHECK(std::abs(moments.mean() - law->mean) <= 4 * se);
    // Power: the exact means for D = 1 (2.597) and D = 3 (1.953...) lie
    // hundreds of se (se ~ 7e-4) away, so a wrong D, or choosing the most
    // loaded of the drawn bins, would be caught. (The tie rule cannot be: it
    // does not change the law of M, see the brute-force test.)
    for (const std::int64_t wrong_d : {1, 3}) {
      CHECK(std::abs(moments.mean() - an::choice_unit_max_law(n, n, wrong_d)->mean) > 100 * se);
    }
    // The whole law: Pearson's chi-square over the values of M with
    // expected count >= 5 (the rest pooled), against its 1e-4 upper quantile.
    double chi2 = 0.0, pooled_observed = 0.0, pooled_expected = 0.0;
    int cells = 0;
    for (std::size_t m = 0; m < observed.size(); ++m) {
      const double expected = reps * law->pmf[m];
      if (expected >= 5.0) {
        chi2 += (observed[m] - expected) * (observed[m] - expected) / expected;
        ++cells;
      } else {
        pooled_observed += observed[m];
        pooled_expected += expected;
      }
    }
    if (pooled_expected > 0.0) {
      chi2 += (pooled_observed - pooled_expected) * (pooled_observed - pooled_expected) / pooled_expected;
      ++cells;
    }
    REQUIRE(cells >= 3);
    const boost::math::chi_squared_distribution<double> chi(cells - 1);
    CHECK(chi2 <= boost::math::quantile(boost::math::complement(chi, 1e-4)));
  }
}

}  // namespace power_of_choices_test
