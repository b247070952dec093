// Kimura–Ichiyoshi dynamic load balancing: the heap simulator against
// Definition 1 literally (and against a brute-force min-max over the excluded
// sets) for the paper's models and any law, multi-level schemes against the
// deterministic closed form applied level by level, the exponential-model
// recursion, the ν search and its common random numbers, the exponent fit,
// thread-count invariance, and Monte Carlo means against exact values.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "lbmc/analytic/dynamic.hpp"
#include "lbmc/analytic/harmonic.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/rng.hpp"
#include "lbmc/exp/dynamic.hpp"
#include "lbmc/exp/dynamic_search.hpp"

namespace dynamic_test {

using namespace lbmc;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A single-level model with other laws for R_n and U_n.
exp::DynamicModel with_laws(exp::DynamicModel m, dist::LoadLaw r, std::optional<dist::LoadLaw> u = std::nullopt) {
  m.r_law = r;
  m.u_law = u;
  return m;
}

exp::DynamicSample simulate(const exp::DynamicModel& model, std::int64_t reps, std::uint64_t seed, int threads = 2) {
  const engine::RunPlan plan = engine::RunPlan::fixed(seed, reps, threads);
  return exp::simulate_dynamic(model, plan).sample;
}

// Definition 1 with Z_n by its own formula: the minimum, over every choice of
// p−1 indices i_1 < … < i_{p−1} in 1..n−1, of the maximum of the other Y_k.
// Exponential in n; n <= 12 only.
double completion_time_minmax(const exp::DynamicInstance& instance, std::int64_t p) {
  const std::size_t n = instance.r.size();
  std::vector<double> y(n);
  double birth = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    birth += instance.u[k];
    double z = 0.0;
    if (k + 1 > static_cast<std::size_t>(p)) {
      z = kInf;
      for (std::uint32_t excluded = 0; excluded < (1u << k); ++excluded) {
        if (std::popcount(excluded) != static_cast<int>(p - 1)) continue;
        double rest = -kInf;
        for (std::size_t i = 0; i < k; ++i)
          if ((excluded & (1u << i)) == 0) rest = std::max(rest, y[i]);
        z = std::min(z, rest);
      }
    }
    y[k] = std::max(birth, z) + instance.r[k];
  }
  return *std::max_element(y.begin(), y.end());
}

// Random production times too (Definition 1 allows any iid U_n), so that the
// births O_n are not a regular grid.
void randomize_production(exp::DynamicInstance& instance, engine::Generator& gen, double scale) {
  for (double& u : instance.u) u = scale * engine::uniform01(gen);
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("dynamic: heap and literal simulators agree exactly") {
    const exp::SubtaskModel models[] = {exp::SubtaskModel::deterministic, exp::SubtaskModel::exponential,
                                        exp::SubtaskModel::uniform};
    const double lambdas[] = {0.3, 1.0, 7.0, kInf};
    int compared = 0;
    for (const auto model : models) {
      for (const std::int64_t p : {1, 2, 3, 5, 16, 37}) {  // heaps of 1 to 5 levels, full and not
        for (const double lambda : lambdas) {
          for (const double nu : {1.0, 4.0, 9.0, 25.0, 90.0}) {
            const exp::DynamicModel m{model, p, 10.0, nu, lambda};
            engine::Generator gen = engine::block_generator(17, static_cast<std::uint64_t>(compared));
            exp::DynamicInstance instance;
            for (int rep = 0; rep < 8; ++rep) {
              exp::draw_instance(m, gen, instance);
              if (rep % 2 == 1) randomize_production(instance, gen, 2.0);
              const double fast = exp::completion_time(instance, p);
              const double literal = exp::completion_time_literal(instance, p);
              CHECK(fast == literal);
              ++compared;
            }
          }
        }
      }
    }
    CHECK(compared == 3 * 6 * 4 * 5 * 8);
  }

  TEST_CASE("dynamic: literal order statistic equals the min-max of Definition 1") {
    engine::Generator gen = engine::block_generator(5, 0);
    exp::DynamicInstance instance;
    for (const std::int64_t p : {1, 2, 3, 4}) {
      for (int rep = 0; rep < 40; ++rep) {
        const exp::DynamicModel m{exp::SubtaskModel::uniform, p, 6.0, 10.0, 2.0};
        exp::draw_instance(m, gen, instance);
        if (rep % 2 == 1) randomize_production(instance, gen, 0.5);
        CHECK(exp::completion_time_literal(instance, p) == completion_time_minmax(instance, p));
      }
    }
  }

  TEST_CASE("dynamic: a hand-worked instance") {
    // p = 2, U = 1 each, R = 5 1 1 3: O = 1 2 3 4; X_1 = 1, Y_1 = 6;
    // X_2 = 2, Y_2 = 3; Z_3 = 2nd largest of {6, 3} = 3, X_3 = 3, Y_3 = 4;
    // Z_4 = 2nd largest of {6, 3, 4} = 4, X_4 = 4, Y_4 = 7. T_2 = 7.
    const exp::DynamicInstance instance{{5, 1, 1, 3}, {1, 1, 1, 1}};
    CHECK(exp::completion_time(instance, 2) == 7.0);
    CHECK(exp::completion_time_literal(instance, 2) == 7.0);
    // One consumer: everything in sequence from O_1 = 1: 1 + 10 = 11.
    CHECK(exp::completion_time(instance, 1) == 11.0);
    // Four consumers: max(O_n + R_n) = max(6, 3, 4, 7) = 7; five: the same.
    CHECK(exp::completion_time(instance, 4) == 7.0);
    CHECK(exp::completion_time(instance, 5) == 7.0);
  }

  TEST_CASE("dynamic: deterministic closed form known values") {
    // ρ = 0.5 (producer bottleneck): T = ν/λ + t1/ν = 16 + 2.
    CHECK(analytic::deterministic_completion_time({4, 32.0, 16.0, 1.0}) == 18.0);
    // ρ = 8: ⌈16/4⌉ = 4 rounds of 8, plus (16 − 12)/4 production = 33.
    CHECK(analytic::deterministic_completion_time({4, 128.0, 16.0, 4.0}) == 33.0);
    // ρ = 1: both forms give 8 + 2 = 10.
    CHECK(analytic::dynamic_rho({2, 16.0, 8.0, 1.0}) == 1.0);
    CHECK(analytic::deterministic_completion_time({2, 16.0, 8.0, 1.0}) == 10.0);
    // λ = ∞: ⌈ν/p⌉ t1/ν.
    CHECK(analytic::deterministic_completion_time({3, 12.0, 8.0, kInf}) == 4.5);
    CHECK(analytic::deterministic_efficiency({4, 128.0, 16.0, 4.0}) == 128.0 / (4.0 * 33.0));
  }

  TEST_CASE("dynamic: deterministic model equals its closed form") {
    // Dyadic parameters: every sum is exact, so simulator and closed form
    // agree to the bit in both regimes.
    int below = 0, above = 0;
    for (const std::int64_t p : {1, 2, 3, 4, 7, 16}) {
      for (const double nu : {1.0, 2.0, 5.0, 8.0, 13.0, 64.0, 100.0}) {
        for (const double t1 : {1.0, 64.0, 1024.0}) {
          for (const double lambda : {0.25, 1.0, 4.0, 32.0, kInf}) {
            const double r = t1 / nu;
            if (r != std::ldexp(std::round(std::ldexp(r, 40)), -40)) continue;  // keep dyadic r
            const analytic::DynamicParams params{p, t1, nu, lambda};
            (analytic::dynamic_rho(params) <= 1.0 ? below : above) += 1;
            const exp::DynamicModel m{exp::SubtaskModel::deterministic, p, t1, nu, lambda};
            engine::Generator gen = engine::block_generator(1, 0);
            exp::DynamicInstance instance;
            exp::draw_instance(m, gen, instance);
            CHECK(exp::completion_time(instance, p) == analytic::deterministic_completion_time(params));
          }
        }
      }
    }
    CHECK(below > 20);
    CHECK(above > 20);
    // Non-dyadic values: equal up to the rounding of ν additions.
    for (const std::int64_t p : {2, 5, 12}) {
      for (const double nu : {3.0, 7.0, 30.0, 97.0}) {
        for (const double lambda : {0.3, 3.0, 70.0}) {
          const analytic::DynamicParams params{p, 10.0, nu, lambda};
          const exp::DynamicModel m{exp::SubtaskModel::deterministic, p, 10.0, nu, lambda};
          const auto sample = simulate(m, 50, 3);
          const double exact = analytic::deterministic_completion_time(params);
          CHECK(std::abs(sample.t_p.mean() - exact) <= 4.0 * nu * 0x1.0p-52 * exact);
          CHECK(sample.t_p.variance() <= 1e-24 * exact * exact);
        }
      }
    }
  }

  TEST_CASE("dynamic: deterministic optimum and Proposition 1") {
    const auto opt = analytic::deterministic_optimum(4, 100.0, 2.0);
    for (std::int64_t nu = 1; nu <= 201; ++nu)
      CHECK(analytic::deterministic_completion_time({4, 100.0, static_cast<double>(nu), 2.0}) >= opt.t_p);
    CHECK(opt.efficiency == 100.0 / (4.0 * opt.t_p));
    // Proposition 1's 1/η_max ≃ 1 + p²/(λ t1): the excess over 1 agrees to
    // within a factor of 2 (the lower-order terms) for p = 32, λ t1 = 1e5.
    const auto big = analytic::deterministic_optimum(32, 1e5, 1.0);
    const double excess = 1.0 / big.efficiency - 1.0;
    const double predicted = analytic::proposition1_inverse_max_efficiency(32, 1e5, 1.0) - 1.0;
    CHECK(excess > 0.5 * predicted);
    CHECK(excess < 2.0 * predicted);
    // 1 + ρ p²/(λ t1) = 1 + p/ν.
    CHECK(analytic::proposition1_inverse_efficiency({4, 100.0, 50.0, 2.0}) == doctest::Approx(1.08).epsilon(1e-15));
  }

  TEST_CASE("dynamic: Theorem 1 and Lemma 1 formulas") {
    const analytic::DynamicParams params{8, 1000.0, 100.0, 4.0};  // ρ = 5
    CHECK(analytic::dynamic_rho(params) == 5.0);
    CHECK(analytic::theorem1_inverse_efficiency(params) ==
          doctest::Approx(1.0 + 5.0 * 64.0 * std::log(8.0) / 4000.0).epsilon(1e-15));
    CHECK(analytic::theorem1_inverse_efficiency(params, analytic::LogTerm::harmonic) ==
          doctest::Approx(1.0 + 5.0 * 64.0 * (761.0 / 280.0) / 4000.0).epsilon(1e-15));
    CHECK(analytic::theorem1_inverse_efficiency_bound(8, 1000.0, 4.0) ==
          doctest::Approx(1.0 + 64.0 * std::log(8.0) / 4000.0).epsilon(1e-15));
    CHECK(analytic::lemma1_expected_max(1, 3.0) == 3.0);
    CHECK(analytic::lemma1_expected_max(2, 2.0) == 3.0);
    CHECK(analytic::lemma1_expected_max(4, 12.0) == 25.0);
    CHECK(analytic::lemma1_expected_max_log(4, 2.0) == 2.0 * std::log(4.0));
  }

  TEST_CASE("dynamic: exponential recursion limits") {
    // λ = ∞ against its closed form.
    for (const std::int64_t p : {1, 2, 5, 16}) {
      for (const double nu : {1.0, 2.5, 10.0, 40.0}) {
        const double chain = analytic::exponential_mean_completion_time({p, 7.0, nu, kInf});
        const double closed = analytic::exponential_mean_completion_time_instant(p, 7.0, nu);
        CHECK(chain == doctest::Approx(closed).epsilon(1e-13));
      }
    }
    // ν = 1: one subtask, T = 1/λ + R.
    CHECK(analytic::exponential_mean_completion_time({3, 5.0, 1.0, 2.0}) == doctest::Approx(5.5).epsilon(1e-15));
    // Slow producer (u/r = 1000): the system is empty at every birth.
    CHECK(analytic::exponential_mean_completion_time({3, 1.0, 10.0, 0.01}) ==
          doctest::Approx(10.0 / 0.01 + 0.1).epsilon(1e-13));
    // p = 1, λ = ∞: the whole task in sequence, E T = t1.
    CHECK(analytic::exponential_mean_completion_time_instant(1, 7.0, 10.0) == doctest::Approx(7.0).epsilon(1e-14));
  }

  TEST_CASE("dynamic: results do not depend on the thread count") {
    const exp::DynamicModel m{exp::SubtaskModel::exponential, 6, 50.0, 20.0, 3.0};
    const auto one = simulate(m, 20000, 11, 1);
    const auto four = simulate(m, 20000, 11, 4);
    CHECK(one.t_p.count() == 20000);
    CHECK(one.t_p.mean() == four.t_p.mean());
    CHECK(one.t_p.variance() == four.t_p.variance());
    CHECK(one.subtasks.mean() == four.subtasks.mean());
  }

  TEST_CASE("dynamic: invalid models are refused") {
    using exp::SubtaskModel;
    CHECK_THROWS_AS(exp::validate({SubtaskModel::deterministic, 0, 1.0, 1.0, 1.0}), engine::InputError);
    CHECK_THROWS_AS(exp::validate({SubtaskModel::deterministic, 2, 1.0, 2.5, 1.0}), engine::InputError);
    CHECK_THROWS_AS(exp::validate({SubtaskModel::uniform, 2, 1.0, 0.5, 1.0}), engine::InputError);
    CHECK_THROWS_AS(exp::validate({SubtaskModel::exponential, 2, -1.0, 2.0, 1.0}), engine::InputError);
    CHECK_THROWS_AS(exp::validate({SubtaskModel::exponential, 2, 1.0, 2.0, 0.0}), engine::InputError);
    CHECK_NOTHROW(exp::validate({SubtaskModel::exponential, 2, 1.0, 2.5, kInf}));
    CHECK_THROWS_AS(analytic::deterministic_completion_time({2, 1.0, 2.5, 1.0}), engine::InputError);
    CHECK_THROWS_AS(exp::completion_time(exp::DynamicInstance{}, 2), engine::InputError);
  }

  TEST_CASE("dynamic: heap and literal simulators agree exactly for any law") {
    const dist::LoadLaw r_laws[] = {dist::Poisson{3.0}, dist::Binomial{10, 0.3}, dist::Uniform{1.0, 3.0},
                                    dist::Exponential{5.0}, dist::Constant{2.0}};
    const std::optional<dist::LoadLaw> u_laws[] = {std::nullopt, dist::Exponential{1.0}, dist::Poisson{2.0}};
    int compared = 0;
    for (const auto& r : r_laws) {
      for (const auto& u : u_laws) {
        for (const std::int64_t p : {1, 2, 5}) {
          const exp::DynamicModel m =
              with_laws({exp::SubtaskModel::exponential, p, 10.0, 12.0, 0.7}, r, u);
          exp::DynamicSimulator sim(m);
          engine::Generator gen = engine::block_generator(23, static_cast<std::uint64_t>(compared));
          exp::DynamicInstance instance;
          for (int rep = 0; rep < 6; ++rep) {
            sim.draw_instance(gen, instance);
            CHECK(exp::completion_time(instance, p) == exp::completion_time_literal(instance, p));
            ++compared;
          }
        }
      }
    }
    CHECK(compared == 5 * 3 * 3 * 6);
  }

  TEST_CASE("dynamic: laws are rescaled to the model means") {
    // R = (t1/ν)·X/E X and U = (1/λ)·X/E X: a constant law gives the
    // deterministic model's instance exactly.
    const exp::DynamicModel det{exp::SubtaskModel::deterministic, 3, 12.0, 6.0, 4.0};
    engine::Generator g1 = engine::block_generator(1, 0), g2 = engine::block_generator(1, 0);
    exp::DynamicInstance a, b;
    exp::draw_instance(det, g1, a);
    exp::draw_instance(with_laws(det, dist::Constant{7.0}, dist::Constant{3.0}), g2, b);
    CHECK(a.r == b.r);
    CHECK(a.u == b.u);
    CHECK(exp::uses_model_laws(with_laws(det, dist::Constant{7.0})));
    CHECK_FALSE(exp::uses_model_laws(with_laws(det, dist::Exponential{1.0})));
    CHECK(exp::uses_model_laws(with_laws({exp::SubtaskModel::uniform, 3, 1.0, 2.0, 1.0}, dist::Uniform{0.0, 5.0})));
    CHECK_FALSE(exp::uses_model_laws(with_laws({exp::SubtaskModel::uniform, 3, 1.0, 2.0, 1.0}, dist::Uniform{1.0, 5.0})));
  }

  TEST_CASE("dynamic: two-level deterministic scheme equals the closed form level by level") {
    // Every group takes a task of size m = t1/ν_1, splits it into ν_2 pieces
    // and finishes in S = T(p_2, m, ν_2, λ) after its onset; the root is the
    // deterministic model with R_n ≡ S, i.e. T(p_1, ν_1·S, ν_1, λ).
    int compared = 0;
    for (const auto& fan : std::vector<std::vector<std::int64_t>>{{2, 2}, {4, 2}, {3, 5}, {8, 4}}) {
      for (const double nu1 : {1.0, 4.0, 16.0, 40.0}) {
        for (const double nu2 : {1.0, 2.0, 8.0, 32.0}) {
          for (const double lambda : {0.25, 1.0, 64.0}) {
            exp::DynamicModel m{exp::SubtaskModel::deterministic, fan[0] * fan[1], 1024.0, nu1, lambda};
            m.fanout = fan;
            m.inner_nu = {nu2};
            const double s = analytic::deterministic_completion_time({fan[1], 1024.0 / nu1, nu2, lambda});
            const double expected = analytic::deterministic_completion_time({fan[0], nu1 * s, nu1, lambda});
            exp::DynamicSimulator sim(m);
            engine::Generator gen = engine::block_generator(3, 0);
            CHECK(sim.completion_time(gen) == doctest::Approx(expected).epsilon(1e-12));
            CHECK(sim.last_work() == doctest::Approx(1024.0).epsilon(1e-12));
            ++compared;
          }
        }
      }
    }
    CHECK(compared == 4 * 4 * 4 * 3);
  }

  TEST_CASE("dynamic: multi-level groups are Definition 1 on the group times") {
    // The root instance of a three-level exponential scheme holds the group
    // completion times as R_n; Definition 1 literally on it gives T_p.
    exp::DynamicModel m{exp::SubtaskModel::exponential, 12, 200.0, 6.0, 3.0};
    m.fanout = {3, 2, 2};
    CHECK(exp::level_nus(m).size() == 3);
    exp::DynamicSimulator sim(m);
    for (std::uint64_t rep = 0; rep < 20; ++rep) {
      engine::Generator g1 = engine::block_generator(9, rep), g2 = engine::block_generator(9, rep);
      exp::DynamicInstance instance;
      sim.draw_instance(g1, instance);
      exp::DynamicSimulator again(m);
      CHECK(again.completion_time(g2) == exp::completion_time_literal(instance, 3));
    }
  }

  TEST_CASE("dynamic: the rho = 1 rule of the inner levels") {
    // ν_k = λ m_{k−1}/P_k: with ν_1 = λ t1/p every inner level gets ν = p_1.
    exp::DynamicModel m{exp::SubtaskModel::deterministic, 32, 3200.0, 100.0, 1.0};
    m.fanout = {4, 8};
    const auto nus = exp::level_nus(m);
    REQUIRE(nus.size() == 2);
    CHECK(nus[1] == 4.0);
    CHECK(exp::DynamicSimulator(m).expected_leaves() == 400.0);
  }

  TEST_CASE("dynamic: deterministic optimum equals Proposition 1 when lambda t1 >= p^2") {
    // ν = kp with ρ >= 1 gives T = t1/p + p/λ, and no ν does better (see
    // dynamic_search.hpp), so 1/η_max = 1 + p²/(λ t1) exactly.
    for (const std::int64_t p : {2, 3, 8, 16}) {
      for (const double t1 : {300.0, 1000.0, 4096.0}) {
        for (const double lambda : {1.0, 2.5}) {
          if (lambda * t1 < static_cast<double>(p * p)) continue;
          const auto opt = analytic::deterministic_optimum(p, t1, lambda);
          CHECK(1.0 / opt.efficiency ==
                doctest::Approx(analytic::proposition1_inverse_max_efficiency(p, t1, lambda)).epsilon(1e-13));
        }
      }
    }
  }

  TEST_CASE("dynamic: exponent fit recovers exact exponents") {
    std::vector<double> p, t1;
    for (const double x : {4.0, 8.0, 16.0, 64.0, 256.0, 1024.0}) {
      p.push_back(x);
      t1.push_back(3.0 * std::pow(x, 1.5) * std::pow(std::log(x), 1.5));
    }
    const exp::ExponentFit fit = exp::fit_isoefficiency(p, t1, 1.5);
    CHECK(fit.alpha == doctest::Approx(1.5).epsilon(1e-9));
    CHECK(fit.beta == doctest::Approx(1.5).epsilon(1e-9));
    CHECK(fit.c == doctest::Approx(std::log(3.0)).epsilon(1e-9));
    CHECK(fit.alpha_se < 1e-6);
    CHECK(fit.alpha_fixed_beta == doctest::Approx(1.5).epsilon(1e-9));
    CHECK(analytic::isoefficiency_alpha(1) == 2.0);
    CHECK(analytic::isoefficiency_beta(1) == 1.0);
    CHECK(analytic::isoefficiency_alpha(2) == 1.5);
    CHECK(analytic::isoefficiency_beta(3) == 2.0);
  }

  TEST_CASE("dynamic: the isoefficiency search ends on a bracket of eta0 at most 1 + tol wide") {
    // The ends re-evaluated by the same ν search (same seed: the same
    // numbers) straddle η₀; a start 30% off with the slope of the first
    // search takes fewer evaluations than the start 10-15 times too low,
    // and ends on a bracket too.
    const engine::RunPlan plan = engine::RunPlan::fixed(7, 400, 2);
    for (const exp::SubtaskModel model : {exp::SubtaskModel::exponential, exp::SubtaskModel::deterministic}) {
      CAPTURE(std::string(exp::to_string(model)));
      const exp::DynamicModel base{model, 8, 50.0, 1.0, 1.0};
      const auto eta_at = [&](double t1) {
        exp::DynamicModel m = base;
        m.t1 = t1;
        return exp::held_out_efficiency(exp::optimize_nu(m, plan, 0.95)).mean;
      };
      const exp::IsoefficiencyPoint iso = exp::isoefficiency_t1(base, 0.8, 0.05, plan, 0.95);
      CHECK(iso.t1 / iso.t1_below <= 1.05 * (1.0 + 1e-12));
      CHECK(eta_at(iso.t1) >= 0.8);
      CHECK(eta_at(iso.t1_below) < 0.8);
      CHECK(iso.slope > 0.0);
      CHECK(iso.evaluations <= 12);
      exp::DynamicModel off = base;
      off.t1 = 1.3 * iso.t1;
      const exp::IsoefficiencyPoint again = exp::isoefficiency_t1(off, 0.8, 0.05, plan, 0.95, iso.slope);
      CHECK(again.t1 / again.t1_below <= 1.05 * (1.0 + 1e-12));
      CHECK(eta_at(again.t1) >= 0.8);
      CHECK(eta_at(again.t1_below) < 0.8);
      CHECK(again.evaluations < iso.evaluations);
    }
  }

  TEST_CASE("dynamic: an isoefficiency sweep starts each p where its points extrapolate") {
    exp::IsoefficiencySweep sweep(2, 3.0);
    const auto theory = [](double p) { return std::pow(p, 1.5) * std::pow(std::log(p), 1.5); };
    CHECK(sweep.start(16.0) == doctest::Approx(3.0 * theory(16.0)).epsilon(1e-12));
    CHECK(sweep.slope() == 0.0);
    exp::IsoefficiencyPoint point;
    point.t1 = 1000.0;
    point.slope = 0.25;
    sweep.add(16.0, point);
    CHECK(sweep.start(32.0) == doctest::Approx(1000.0 * theory(32.0) / theory(16.0)).epsilon(1e-12));
    CHECK(sweep.slope() == 0.25);
    point.t1 = 4000.0;
    sweep.add(32.0, point);
    CHECK(sweep.start(64.0) == doctest::Approx(16000.0).epsilon(1e-12));  // t1 ∝ p² through the two points
    CHECK(sweep.p() == std::vector<double>{16.0, 32.0});
  }

  TEST_CASE("dynamic: search results do not depend on the thread count") {
    const exp::DynamicModel m{exp::SubtaskModel::exponential, 8, 300.0, 1.0, 1.0};
    const auto one = exp::optimize_nu(m, engine::RunPlan::fixed(4, 3000, 1), 0.95);
    const auto two = exp::optimize_nu(m, engine::RunPlan::fixed(4, 3000, 2), 0.95);
    const auto three = exp::optimize_nu(m, engine::RunPlan::fixed(4, 3000, 3), 0.95);
    CHECK(one.nu == two.nu);
    CHECK(one.nu == three.nu);
    CHECK(one.nu_low == three.nu_low);
    CHECK(one.nu_high == three.nu_high);
    CHECK(one.t_p.value == two.t_p.value);
    CHECK(one.t_p.value == three.t_p.value);
    CHECK(one.t_p.se == three.t_p.se);
    exp::DynamicModel multi{exp::SubtaskModel::uniform, 12, 500.0, 10.0, 2.0};
    multi.fanout = {3, 4};
    const auto a = simulate(multi, 5000, 8, 1);
    const auto b = simulate(multi, 5000, 8, 3);
    CHECK(a.t_p.mean() == b.t_p.mean());
    CHECK(a.t_p.variance() == b.t_p.variance());
  }

  TEST_CASE("dynamic: invalid laws and fan-outs are refused") {
    using exp::SubtaskModel;
    const exp::DynamicModel m{SubtaskModel::exponential, 4, 10.0, 5.0, 1.0};
    CHECK_THROWS_AS(exp::validate(with_laws(m, dist::Normal{1.0, 1.0})), engine::InputError);
    CHECK_THROWS_AS(exp::validate(with_laws(m, dist::Poisson{0.0})), engine::InputError);
    CHECK_THROWS_AS(exp::validate(with_laws(m, dist::Constant{1.0}, dist::Uniform{-1.0, 1.0})), engine::InputError);
    exp::DynamicModel bad = m;
    bad.fanout = {2, 3};
    CHECK_THROWS_AS(exp::validate(bad), engine::InputError);
    bad.fanout = {2, 2};
    bad.inner_nu = {2.0, 3.0};
    CHECK_THROWS_AS(exp::validate(bad), engine::InputError);
    bad.inner_nu = {};
    bad.lambda = kInf;
    CHECK_THROWS_AS(exp::validate(bad), engine::InputError);
    CHECK_THROWS_AS(exp::optimize_nu({SubtaskModel::exponential, 4, 10.0, 1.0, kInf}, engine::RunPlan::fixed(1, 10, 2), 0.95),
                    engine::InputError);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("dynamic: exponential model mean matches the death-chain recursion") {
    struct Case {
      std::int64_t p;
      double t1, nu, lambda;
    };
    // ρ = λ t1/(ν p): 0.25, 1, 2.5, 10, ∞.
    const Case cases[] = {{4, 10.0, 10.0, 1.0}, {4, 40.0, 10.0, 1.0}, {8, 100.0, 20.0, 4.0},
                          {3, 60.0, 8.0, 4.0},  {5, 30.0, 12.0, kInf}, {2, 5.0, 1.5, 0.7}};
    std::uint64_t seed = 100;
    for (const Case& c : cases) {
      const exp::DynamicModel m{exp::SubtaskModel::exponential, c.p, c.t1, c.nu, c.lambda};
      const auto sample = simulate(m, 200000, seed++);
      const double exact = analytic::exponential_mean_completion_time({c.p, c.t1, c.nu, c.lambda});
      INFO("p = " << c.p << " nu = " << c.nu << " lambda = " << c.lambda << " mean = " << sample.t_p.mean()
                  << " exact = " << exact << " se = " << sample.t_p.mean_se());
      CHECK(std::abs(sample.t_p.mean() - exact) <= 4.0 * sample.t_p.mean_se());
      CHECK(std::abs(sample.subtasks.mean() - c.nu) <= 4.0 * sample.subtasks.mean_se());
    }
  }

  TEST_CASE("dynamic: uniform model with few subtasks") {
    // ν <= p and λ = ∞: T_p = max of ν uniforms on [0, 2t1/ν), mean
    // (2t1/ν)·ν/(ν+1).
    const exp::DynamicModel m{exp::SubtaskModel::uniform, 4, 9.0, 3.0, kInf};
    const auto sample = simulate(m, 200000, 7);
    CHECK(std::abs(sample.t_p.mean() - 6.0 * 3.0 / 4.0) <= 4.0 * sample.t_p.mean_se());
  }

  TEST_CASE("dynamic: any law for R_n against the maximum of iid subtasks") {
    // λ = ∞ and ν <= p: T_p = max of ν iid R_n, R = (t1/ν)·X/2 with X uniform
    // on [1, 3): E max X = 1 + 2ν/(ν + 1).
    const exp::DynamicModel m = with_laws({exp::SubtaskModel::deterministic, 8, 12.0, 6.0, kInf}, dist::Uniform{1.0, 3.0});
    const auto sample = simulate(m, 200000, 31);
    const double expected = (12.0 / 6.0) * (1.0 + 2.0 * 6.0 / 7.0) / 2.0;
    CHECK(std::abs(sample.t_p.mean() - expected) <= 4.0 * sample.t_p.mean_se());
    // Exponential production times and negligible subtasks: T_p = O_N + R_N
    // ≈ O_N, the sum of ν production times, of mean ν/λ.
    const exp::DynamicModel u = with_laws({exp::SubtaskModel::deterministic, 1, 1e-300, 5.0, 2.0}, dist::Constant{1.0},
                                          dist::Exponential{1.0});
    const auto su = simulate(u, 200000, 32);
    CHECK(std::abs(su.t_p.mean() - 2.5) <= 4.0 * su.t_p.mean_se());
  }

  TEST_CASE("dynamic: control-variate mean at the searched nu matches the recursion") {
    for (const std::int64_t p : {4, 8}) {
      const double t1 = 4.0 * static_cast<double>(p * p) * std::log(static_cast<double>(p));
      const exp::DynamicModel m{exp::SubtaskModel::exponential, p, t1, 1.0, 1.0};
      const auto opt = exp::optimize_nu(m, engine::RunPlan::fixed(40 + static_cast<std::uint64_t>(p), 20000, 2), 0.95);
      const double exact = analytic::exponential_mean_completion_time({p, t1, opt.nu, 1.0});
      INFO("p = " << p << " nu = " << opt.nu << " mean = " << opt.t_p.value << " se = " << opt.t_p.se
                  << " exact = " << exact);
      CHECK(std::abs(opt.t_p.value - exact) <= 4.0 * opt.t_p.se);
      CHECK(opt.nu_low <= opt.nu);
      CHECK(opt.nu <= opt.nu_high);
      // The control variate removes most of the task-size spread: its se is
      // well below the plain se sd(T_p)/√n >= t1/(p√n) (T_1 has sd t1).
      CHECK(opt.t_p.se < 0.3 * t1 / static_cast<double>(p) / std::sqrt(20000.0));
    }
  }

  TEST_CASE("dynamic: Lemma 1 by brute force and by inversion against H_p") {
    for (const bool direct : {false, true}) {
      for (const std::int64_t p : {1, 7, 300}) {
        const auto m = exp::simulate_max_exponential(p, direct, engine::RunPlan::fixed(60 + static_cast<std::uint64_t>(p), 100000, 2)).sample;
        INFO("p = " << p << " direct = " << direct << " mean = " << m.mean() << " se = " << m.mean_se());
        CHECK(std::abs(m.mean() - analytic::harmonic(p)) <= 4.0 * m.mean_se());
        // Var max = Σ_{k<=p} 1/k² (Rényi): the sample variance within 5%.
        double var = 0.0;
        for (std::int64_t k = 1; k <= p; ++k) var += 1.0 / static_cast<double>(k * k);
        CHECK(m.variance() == doctest::Approx(var).epsilon(0.05));
      }
    }
  }
}

}  // namespace dynamic_test
