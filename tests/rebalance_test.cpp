// The balancer of Figure 1, the schedules of Figures 2-4 and BDM: the
// layout policy, packets and shifts of known load vectors, the cost of
// known movements by hand, the delivery invariants on many random load
// vectors (checked also element by element, and shown to catch corrupted
// movements), and the simulation against exact enumeration and an
// independent estimate of E D.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "lbmc/analytic/rebalance_cost.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/exp/maxshift.hpp"
#include "lbmc/exp/rebalance.hpp"

namespace rebalance_test {

using namespace lbmc;
using exp::Approach;
using exp::Count;

namespace {

constexpr Approach kAll[] = {Approach::pipeline, Approach::direct, Approach::per_packet, Approach::bdm};

// The final local arrays, element by element, assembled in source order.
std::vector<std::vector<Count>> final_arrays(exp::Movement m) {
  std::vector<std::vector<Count>> arrays;
  for (auto& got : m.received) {
    std::stable_sort(got.begin(), got.end(), [](const auto& a, const auto& b) { return a.source < b.source; });
    std::vector<Count> local;
    for (const auto& d : got) {
      for (Count g = d.elements.first; g < d.elements.first + d.elements.size; ++g) local.push_back(g);
    }
    arrays.push_back(local);
  }
  return arrays;
}

// Checks one movement independently of check_movement: the concatenation is
// 0..T−1 and the counts are ⌊X̄⌋ or ⌈X̄⌉, the larger ones first (policy
// first) or where ⌈(i+1)T/n⌉ − ⌈iT/n⌉ puts them (policy spread).
void check_elementwise(const std::vector<Count>& loads, exp::Remainder policy, const exp::Movement& m) {
  const auto n = static_cast<Count>(loads.size());
  const Count total = std::accumulate(loads.begin(), loads.end(), Count{0});
  const auto arrays = final_arrays(m);
  const auto ceil_share = [&](Count i) { return (i * total + n - 1) / n; };
  std::vector<Count> all;
  for (Count i = 0; i < n; ++i) {
    const auto size = static_cast<Count>(arrays[static_cast<std::size_t>(i)].size());
    if (policy == exp::Remainder::first) {
      CHECK(size == total / n + (i < total % n ? 1 : 0));
    } else {
      CHECK(size == ceil_share(i + 1) - ceil_share(i));
    }
    all.insert(all.end(), arrays[static_cast<std::size_t>(i)].begin(), arrays[static_cast<std::size_t>(i)].end());
  }
  std::vector<Count> expected(static_cast<std::size_t>(total));
  std::iota(expected.begin(), expected.end(), Count{0});
  CHECK(all == expected);
}

// Random load vectors of the kinds that break balancers.
std::vector<Count> random_loads(std::mt19937_64& gen, int kind) {
  const auto n = static_cast<std::size_t>(std::uniform_int_distribution<int>(1, 40)(gen));
  std::vector<Count> loads(n, 0);
  switch (kind) {
    case 0: {  // sparse: mostly zeros
      for (auto& x : loads) x = std::bernoulli_distribution(0.2)(gen) ? std::uniform_int_distribution<Count>(1, 30)(gen) : 0;
      break;
    }
    case 1: {  // one processor holds everything
      loads[std::uniform_int_distribution<std::size_t>(0, n - 1)(gen)] = std::uniform_int_distribution<Count>(0, 200)(gen);
      break;
    }
    case 2: {  // already balanced
      const Count v = std::uniform_int_distribution<Count>(0, 9)(gen);
      for (auto& x : loads) x = v;
      break;
    }
    case 3: {  // balanced but for a non-integer remainder
      const Count v = std::uniform_int_distribution<Count>(0, 5)(gen);
      for (auto& x : loads) x = v;
      for (int j = 0; j < 3; ++j) loads[std::uniform_int_distribution<std::size_t>(0, n - 1)(gen)] += 1;
      break;
    }
    default: {  // wide random
      for (auto& x : loads) x = std::uniform_int_distribution<Count>(0, 60)(gen);
      break;
    }
  }
  return loads;
}

exp::RebalanceSample simulate(const std::string& spec, Count n, std::int64_t reps, std::uint64_t seed, int threads = 2) {
  const exp::RebalanceSpec s{dist::parse_load_law(spec), n, 140e-6, 0.5e-6, {std::begin(kAll), std::end(kAll)}};
  return exp::simulate_rebalance(s, engine::RunPlan::fixed(seed, reps, threads)).sample;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("rebalance: the first T mod n processors get one element more") {
    const exp::BalancedLayout layout(4, 10);  // X̄ = 2.5: counts 3 3 2 2
    CHECK(layout.count(0) == 3);
    CHECK(layout.count(1) == 3);
    CHECK(layout.count(2) == 2);
    CHECK(layout.count(3) == 2);
    CHECK(layout.start(2) == 6);
    CHECK(layout.start(4) == 10);
    const Count owners[] = {0, 0, 0, 1, 1, 1, 2, 2, 3, 3};
    for (Count g = 0; g < 10; ++g) CHECK(layout.owner(g) == owners[g]);
    const exp::BalancedLayout sparse(5, 2);  // fewer elements than processors
    CHECK(sparse.count(0) == 1);
    CHECK(sparse.count(1) == 1);
    CHECK(sparse.count(2) == 0);
    CHECK(sparse.owner(1) == 1);
  }

  TEST_CASE("rebalance: packets and shifts of Figure 1") {
    // loads 6 0 2 0, X̄ = 2: P0 sends ids 2-3 to P1, 4-5 to P2; P2 sends 6-7 to P3.
    const auto plan = exp::plan_balance(std::vector<Count>{6, 0, 2, 0});
    REQUIRE(plan.packets.size() == 4);
    CHECK(plan.packets[1].dest == 1);
    CHECK(plan.packets[1].elements.first == 2);
    CHECK(plan.packets[1].elements.size == 2);
    CHECK(plan.packets[3].source == 2);
    CHECK(plan.packets[3].dest == 3);
    CHECK(plan.rshift[0] == 2);
    CHECK(plan.lshift[0] == 0);
    CHECK(plan.rshift[2] == 1);
    CHECK(plan.lshift[2] == -1);
    CHECK(plan.max_rshift == 2);
    CHECK(plan.max_lshift == 0);
    // X̄ = 2.5: P1 keeps ids 3-5 and sends 0-2 left, 6-7 and 8-9 right.
    const auto split = exp::plan_balance(std::vector<Count>{0, 10, 0, 0});
    CHECK(split.max_lshift == 1);
    CHECK(split.max_rshift == 2);
    REQUIRE(split.packets.size() == 4);
    CHECK(split.packets[0].elements.size == 3);
    CHECK(split.packets[2].elements.first == 6);
    CHECK(split.packets[2].elements.size == 2);
  }

  TEST_CASE("rebalance: shifts agree with the max-shift kernel when the mean is an integer") {
    std::mt19937_64 gen(11);
    int compared = 0;
    for (int trial = 0; trial < 2000; ++trial) {
      const auto loads = random_loads(gen, trial % 5);
      const Count total = std::accumulate(loads.begin(), loads.end(), Count{0});
      if (total == 0 || total % static_cast<Count>(loads.size()) != 0) continue;
      const auto plan = exp::plan_balance(loads);
      const auto shifts = exp::processor_shifts(std::vector<double>(loads.begin(), loads.end()));
      CHECK(plan.max_lshift == shifts.max_left);
      CHECK(plan.max_rshift == shifts.max_right);
      ++compared;
    }
    CHECK(compared > 200);
  }

  TEST_CASE("rebalance: the spread policy has the max-shift kernel's shifts for any mean") {
    std::mt19937_64 gen(12);
    for (int trial = 0; trial < 2000; ++trial) {
      const auto loads = random_loads(gen, trial % 5);
      const auto plan = exp::plan_balance(loads, exp::Remainder::spread);
      const auto shifts = exp::processor_shifts(std::vector<double>(loads.begin(), loads.end()));
      CHECK(plan.max_lshift == shifts.max_left);
      CHECK(plan.max_rshift == shifts.max_right);
    }
    // X̄ = 2.5, spread: counts 3 2 3 2 (ids 0-2, 3-4, 5-7, 8-9).
    const exp::BalancedLayout layout(4, 10, exp::Remainder::spread);
    CHECK(layout.count(1) == 2);
    CHECK(layout.count(2) == 3);
    CHECK(layout.owner(5) == 2);
  }

  TEST_CASE("rebalance: every schedule delivers every element once and in order") {
    std::mt19937_64 gen(7);
    exp::DataMover mover(3.0, 0.25);
    for (int trial = 0; trial < 4000; ++trial) {
      const auto loads = random_loads(gen, trial % 5);
      const auto policy = trial % 2 == 0 ? exp::Remainder::first : exp::Remainder::spread;
      const auto plan = exp::plan_balance(loads, policy);
      for (const Approach a : kAll) {
        exp::Movement& m = mover.run(a, plan);
        check_elementwise(loads, policy, m);
        const std::string why = exp::check_movement(plan, m);
        CHECK_MESSAGE(why.empty(), to_string(a), ": ", why);
        CHECK(m.cost.tau >= 0.0);
        CHECK(m.cost.phi >= 0.0);
      }
    }
  }

  TEST_CASE("rebalance: the check catches lost duplicated and reordered elements") {
    const auto plan = exp::plan_balance(std::vector<Count>{0, 0, 9, 3});
    exp::DataMover mover;
    exp::Movement m = mover.run(Approach::pipeline, plan);
    REQUIRE(exp::check_movement(plan, m).empty());
    exp::Movement lost = m;
    lost.received[0].pop_back();
    CHECK_FALSE(exp::check_movement(plan, lost).empty());
    exp::Movement twice = m;
    twice.received[1].push_back(twice.received[1].back());
    CHECK_FALSE(exp::check_movement(plan, twice).empty());
    exp::Movement swapped = m;  // P1 receives its ids from the wrong source
    swapped.received[1][0].source = 3;
    CHECK_FALSE(exp::check_movement(plan, swapped).empty());
    exp::Movement shuffled = m;  // two processors' ids exchanged: counts hold, order does not
    std::swap(shuffled.received[0], shuffled.received[1]);
    CHECK_FALSE(exp::check_movement(plan, shuffled).empty());
  }

  TEST_CASE("rebalance: cost of the four schedules when one processor holds everything") {
    // loads 0 0 0 8, X̄ = 2: P3 sends 2 ids over 3, 2 and 1 links.
    const auto plan = exp::plan_balance(std::vector<Count>{0, 0, 0, 8});
    exp::DataMover mover;
    const auto& a1 = mover.run(Approach::pipeline, plan);  // stages of 6, 4, 2 words
    CHECK(a1.cost.tau == 3.0);
    CHECK(a1.cost.phi == 12.0);
    CHECK(a1.words == std::vector<Count>{0, 2, 4, 6});
    const auto& a2 = mover.run(Approach::direct, plan);  // 1(τ+2φ) + 2(τ+2φ) + 3(τ+2φ)
    CHECK(a2.cost.tau == 6.0);
    CHECK(a2.cost.phi == 12.0);
    CHECK(a2.messages == std::vector<Count>{0, 0, 0, 3});
    const auto& a3 = mover.run(Approach::per_packet, plan);  // 3 iterations of 3 hops; dummies cost τ
    CHECK(a3.cost.tau == 9.0);
    CHECK(a3.cost.phi == 12.0);
    CHECK(a3.words == std::vector<Count>{0, 2, 4, 6});
    const auto& bdm = mover.run(Approach::bdm, plan);  // τ + 3σ for the counts, τ + 6σ served by P3
    CHECK(bdm.cost.tau == 2.0);
    CHECK(bdm.cost.phi == 9.0);
    CHECK(bdm.messages == std::vector<Count>{1, 1, 1, 0});
  }

  TEST_CASE("rebalance: nothing moves when the loads are balanced") {
    const auto plan = exp::plan_balance(std::vector<Count>{5, 5, 5, 5});
    exp::DataMover mover;
    for (const Approach a : {Approach::pipeline, Approach::direct, Approach::per_packet}) {
      const auto& m = mover.run(a, plan);
      CHECK(m.cost.tau == 0.0);
      CHECK(m.cost.phi == 0.0);
    }
    const auto& bdm = mover.run(Approach::bdm, plan);  // still reads the counts
    CHECK(bdm.cost.tau == 1.0);
    CHECK(bdm.cost.phi == 3.0);
  }

  TEST_CASE("rebalance: the bound 2 xi with printed and corrected constants") {
    // λ = 0.25, μ = 2048 (Mehrotra §4): 2(1 + 0.626λ) = 2.313, 2(0.31λ² + 0.626λ)μ = 720.38.
    const auto printed = analytic::shift_cost_bound(0.25, 2048.0, analytic::printed_shift_constants());
    CHECK(printed.tau == doctest::Approx(2.313).epsilon(1e-12));
    CHECK(printed.phi == doctest::Approx(720.384).epsilon(1e-12));
    const auto limit = analytic::limit_shift_constants();
    CHECK(limit.first == doctest::Approx(std::sqrt(std::acos(-1.0) / 2.0) * std::log(2.0)).epsilon(1e-14));
    CHECK(limit.second == doctest::Approx(std::acos(-1.0) * std::acos(-1.0) / 12.0).epsilon(1e-14));
    CHECK(analytic::shift_lambda(2048.0, 32.0, 256) == 0.25);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("rebalance: mean costs against exact enumeration of binomial loads") {
    // n = 3 binomial(4, ½) loads: 125 load vectors, each run through the
    // schedules and weighted by its probability.
    constexpr Count n = 3;
    constexpr Count m = 4;
    const double pmf[] = {1 / 16.0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0};
    double exact[exp::kApproaches] = {};
    double exact_side = 0.0;
    exp::DataMover mover(140e-6, 0.5e-6);
    for (Count a = 0; a <= m; ++a) {
      for (Count b = 0; b <= m; ++b) {
        for (Count c = 0; c <= m; ++c) {
          const double p = pmf[a] * pmf[b] * pmf[c];
          const auto plan = exp::plan_balance(std::vector<Count>{a, b, c});
          for (const Approach ap : kAll) {
            exact[static_cast<int>(ap)] += p * mover.run(ap, plan).cost.time(140e-6, 0.5e-6);
          }
          exact_side += p * static_cast<double>(plan.max_lshift + plan.max_rshift);
        }
      }
    }
    const auto s = simulate("binomial:4,0.5", n, 200'000, 5);
    for (const Approach ap : kAll) {
      const auto& t = s.approach[static_cast<int>(ap)].time;
      CHECK_MESSAGE(std::abs(t.mean() - exact[static_cast<int>(ap)]) <= 4.0 * t.mean_se(), to_string(ap));
      CHECK(s.approach[static_cast<int>(ap)].violations == 0);
    }
    const double side = s.max_lshift.mean() + s.max_rshift.mean();
    const double side_se = std::hypot(s.max_lshift.mean_se(), s.max_rshift.mean_se());
    CHECK(std::abs(side - exact_side) <= 8.0 * side_se);  // the two are positively correlated: a loose se
  }

  TEST_CASE("rebalance: E D agrees with the max-shift simulation and approach 1 respects the bound") {
    constexpr Count n = 64;
    const auto s = simulate("binomial:4096,0.5", n, 20'000, 9);
    // maxshift's D' = max|V_k|/(σ√n) times λ = σ√n/μ is max|V_k|/μ: the same
    // as D = max|V_k|/X̄ up to X̄/μ = 1 ± 0.2%.
    const auto law = dist::parse_load_law("binomial:4096,0.5");
    const auto other = exp::simulate_max_shift(law, n, false, engine::RunPlan::fixed(10, 20'000, 2)).sample;
    const double lambda = analytic::shift_lambda(2048.0, 32.0, n);
    const double se = std::hypot(s.d.mean_se(), other.d_prime.mean_se() * lambda);
    CHECK(std::abs(s.d.mean() - other.d_prime.mean() * lambda) <= 4.0 * se);
    const auto bound = analytic::shift_cost_bound(lambda, 2048.0, analytic::limit_shift_constants());
    const auto& time = s.approach[static_cast<int>(Approach::pipeline)].time;
    CHECK(time.mean() - 4.0 * time.mean_se() <= bound.time(140e-6, 0.5e-6));
    for (const auto& a : s.approach) CHECK(a.violations == 0);
  }

  TEST_CASE("rebalance: the same seed gives the same statistics for any thread count") {
    const auto one = simulate("poisson:20", 32, 5000, 3, 1);
    const auto two = simulate("poisson:20", 32, 5000, 3, 2);
    CHECK(one.d.mean() == two.d.mean());
    CHECK(one.one_per_side.hits() == two.one_per_side.hits());
    for (int a = 0; a < exp::kApproaches; ++a) CHECK(one.approach[a].time.mean() == two.approach[a].time.mean());
  }
}

}  // namespace rebalance_test
