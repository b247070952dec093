// `lbmc compare`: balanced-block and its data movement, the locality
// (split_pairs) and overhead statistics, and the workloads beyond iid times
// (the ar1 field, measured times from a file).
//
// Hand-worked balanced-block of t = 1 1 1 1 1 1 1 1 1 9 (W = 18) on P = 3:
// the midpoints S_i + t_i/2 are 0.5, 1.5, ..., 8.5 and 13.5; ⌊3·m/18⌋ puts
// tasks 0-5 on processor 0, 6-8 on 1 and 9 on 2 (loads 6, 3, 9: C₀ = 9).
// From the block layout (c = 4: [0,4) [4,8) [8,10)) tasks 4, 5 move from
// processor 1 to 0 and task 8 from 2 to 1, one link each: one left stage
// whose largest message holds 2 tasks, no right stage; movement τ + 2φ.
// With τ = 1, φ = 0.5: C = 11, overhead 2; three runs, 2 of 9 pairs split.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <queue>
#include <string>
#include <vector>

#include <sys/wait.h>

#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/rng.hpp"
#include "compare/compare_workload.hpp"
#include "compare/makespans.hpp"
#include "compare/strategy.hpp"
#include "lbmc/exp/rebalance.hpp"
#include "support/files.hpp"
#include "support/task_times.hpp"

namespace compare_workloads_test {

using namespace lbmc;
namespace fs = std::filesystem;

namespace {

exp::Outcome outcome(const std::string& strategy, const std::vector<double>& times, const exp::Machine& machine,
                     std::uint64_t seed = 1) {
  engine::Generator gen = engine::block_generator(seed, 0);
  return exp::schedule_outcome(exp::parse_strategies(strategy).front(), times, machine, gen);
}

// The balanced owner of each task, computed afresh: min(P − 1, ⌊P·m_i/W⌋).
std::vector<exp::Count> balanced_owners(const std::vector<double>& times, std::int64_t procs) {
  double total = 0.0;
  for (const double t : times) total += t;
  std::vector<exp::Count> owner;
  double before = 0.0;
  for (const double t : times) {
    const double m = before + t / 2.0;
    owner.push_back(std::min<exp::Count>(procs - 1, static_cast<exp::Count>(std::floor(static_cast<double>(procs) * m / total))));
    before += t;
  }
  return owner;
}

// Approach 1 from the block layout to the balanced one, executed by the
// `rebalance` data mover on packets built here: its cost a·τ + b·φ.
double pipeline_cost(const std::vector<double>& times, std::int64_t procs, double tau, double phi) {
  const auto owner = balanced_owners(times, procs);
  const auto n = static_cast<exp::Count>(times.size());
  const exp::Count chunk = (n + procs - 1) / procs;
  exp::BalancePlan plan;
  plan.loads.assign(static_cast<std::size_t>(procs), 0);
  plan.prefix.assign(static_cast<std::size_t>(procs) + 1, 0);
  plan.lshift.assign(static_cast<std::size_t>(procs), 0);
  plan.rshift.assign(static_cast<std::size_t>(procs), 0);
  for (exp::Count k = 0; k < procs; ++k) {
    const exp::Count lo = std::min(n, k * chunk);
    const exp::Count hi = std::min(n, (k + 1) * chunk);
    const auto ks = static_cast<std::size_t>(k);
    plan.loads[ks] = hi - lo;
    plan.prefix[ks + 1] = hi;
    plan.first.push_back(plan.packets.size());
    for (exp::Count i = lo; i < hi; ++i) {
      const exp::Count dest = owner[static_cast<std::size_t>(i)];
      if (plan.packets.size() > plan.first.back() && plan.packets.back().dest == dest) {
        ++plan.packets.back().elements.size;
      } else {
        plan.packets.push_back({k, dest, {i, 1}});
      }
    }
    if (hi > lo) {
      plan.lshift[ks] = std::max<exp::Count>(0, k - owner[static_cast<std::size_t>(lo)]);
      plan.rshift[ks] = std::max<exp::Count>(0, owner[static_cast<std::size_t>(hi - 1)] - k);
      plan.max_lshift = std::max(plan.max_lshift, plan.lshift[ks]);
      plan.max_rshift = std::max(plan.max_rshift, plan.rshift[ks]);
    }
  }
  plan.first.push_back(plan.packets.size());
  exp::DataMover mover(tau, phi);
  return mover.run(exp::Approach::pipeline, plan).cost.time(tau, phi);
}

// Neighbouring pairs on different processors, from each task's processor.
std::int64_t splits_of(const std::vector<std::int64_t>& owner) {
  std::int64_t split = 0;
  for (std::size_t i = 1; i < owner.size(); ++i) split += owner[i] != owner[i - 1];
  return split;
}

// Self-scheduling in task order with processor ids (a priority queue of
// (free time, id)): each task's processor. Times distinct and > 0, so the
// only ties are the first P tasks', which any order labels alike.
std::vector<std::int64_t> self_owners(const std::vector<double>& times, std::int64_t procs) {
  using Entry = std::pair<double, std::int64_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> free;
  for (std::int64_t p = 0; p < procs; ++p) free.push({0.0, p});
  std::vector<std::int64_t> owner;
  for (const double t : times) {
    auto [at, p] = free.top();
    free.pop();
    owner.push_back(p);
    free.push({at + t, p});
  }
  return owner;
}

// LPT with processor ids: tasks by decreasing time (equal times in task
// order), each to the least loaded (equal loads: the lowest id).
std::vector<std::int64_t> lpt_owners(const std::vector<double>& times, std::int64_t procs) {
  std::vector<std::size_t> order(times.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return times[a] > times[b]; });
  using Entry = std::pair<double, std::int64_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> load;
  for (std::int64_t p = 0; p < procs; ++p) load.push({0.0, p});
  std::vector<std::int64_t> owner(times.size());
  for (const std::size_t i : order) {
    auto [at, p] = load.top();
    load.pop();
    owner[i] = p;
    load.push({at + times[i], p});
  }
  return owner;
}

using Run = lbmc::test::Captured;
const lbmc::test::LbmcRunner lbmc_run{lbmc::test::scratch_folder("compare_workloads_test")};

fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path path = lbmc_run.scratch / name;
  std::ofstream(path) << text;
  return path;
}

// The estimate of one CSV row, found by its key ",dist,field,N,P,h,strategy,statistic,".
double estimate_of(const std::string& csv, const std::string& key) {
  const std::size_t at = csv.find(key);
  REQUIRE(at != std::string::npos);
  return std::stod(csv.substr(at + key.size()));
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("compare: balanced-block by hand - layout and movement") {
    const std::vector<double> t{1, 1, 1, 1, 1, 1, 1, 1, 1, 9};
    const exp::Outcome free = outcome("balanced-block", t, {3});
    CHECK(free.makespan == 9.0);
    CHECK(free.overhead == 0.0);
    CHECK(free.split_pairs == 2);
    const exp::Outcome paid = outcome("balanced-block", t, {3, 0.0, 1.0, 0.5});
    CHECK(paid.makespan == 11.0);
    CHECK(paid.overhead == 2.0);
    CHECK(paid.split_pairs == 2);
    // Block itself: loads 4, 4, 10.
    CHECK(outcome("block", t, {3}).makespan == 10.0);
    // Equal times on P | N: the balanced layout is the block layout.
    const exp::Outcome same = outcome("balanced-block", std::vector<double>(12, 2.0), {4, 0.0, 1.0, 1.0});
    CHECK(same.makespan == 6.0);
    CHECK(same.overhead == 0.0);
    // No work: nothing to balance, nothing moves.
    CHECK(outcome("balanced-block", std::vector<double>(5, 0.0), {2, 0.0, 1.0, 1.0}).makespan == 0.0);
  }

  TEST_CASE("compare: balanced-block movement equals the rebalance pipeline executed on its packets") {
    for (const char* spec : {"exponential:1", "pareto:2.5,1", "lognormal:0,2", "geometric:0.3"}) {
      for (const std::size_t n : {std::size_t{7}, std::size_t{100}, std::size_t{1000}}) {
        for (const std::int64_t p : {2, 5, 16}) {
          CAPTURE(spec);
          CAPTURE(n);
          CAPTURE(p);
          const std::vector<double> t = lbmc::test::draw_times(spec, n, 40 + n);
          const double tau = 3.0;
          const double phi = 0.25;
          const exp::Outcome o = outcome("balanced-block", t, {p, 0.0, tau, phi});
          CHECK(o.overhead == doctest::Approx(pipeline_cost(t, p, tau, phi)).epsilon(1e-12));
          // The balanced work: the largest processor total of the owners.
          std::map<exp::Count, double> loads;
          const auto owner = balanced_owners(t, p);
          for (std::size_t i = 0; i < t.size(); ++i) loads[owner[i]] += t[i];
          double most = 0.0;
          for (const auto& [proc, load] : loads) most = std::max(most, load);
          CHECK(o.makespan - o.overhead == doctest::Approx(most).epsilon(1e-12));
          std::vector<std::int64_t> owners(owner.begin(), owner.end());
          CHECK(o.split_pairs == splits_of(owners));
        }
      }
    }
  }

  TEST_CASE("compare: split pairs of every strategy against each task's processor") {
    const std::vector<double> t = lbmc::test::draw_times("exponential:1", 300, 9);
    for (const std::int64_t p : {1, 4, 32}) {
      CAPTURE(p);
      const double c = std::ceil(300.0 / static_cast<double>(p));
      CHECK(outcome("block", t, {p}).split_pairs == static_cast<std::int64_t>(std::ceil(300.0 / c)) - 1);
      CHECK(outcome("cyclic", t, {p}).split_pairs == (p > 1 ? 299 : 0));
      CHECK(outcome("self", t, {p}).split_pairs == splits_of(self_owners(t, p)));
      CHECK(outcome("lpt", t, {p}).split_pairs == splits_of(lpt_owners(t, p)));
      // chunk:5 keeps each chunk together: the chunk totals' schedule, its
      // splits only at chunk boundaries.
      std::vector<double> totals(60, 0.0);
      for (std::size_t i = 0; i < 300; ++i) totals[i / 5] += t[i];
      CHECK(outcome("chunk:5", t, {p}).split_pairs == splits_of(self_owners(totals, p)));
    }
    // Equal times everywhere (constant, and a small integer law): lpt takes
    // equal times in task order and gives equal loads to the lowest id.
    for (const char* spec : {"constant:2", "geometric:0.5", "binomial:3,0.5"}) {
      CAPTURE(spec);
      const std::vector<double> tied = lbmc::test::draw_times(spec, 200, 5);
      for (const std::int64_t p : {1, 3, 7, 16}) {
        CAPTURE(p);
        CHECK(outcome("lpt", tied, {p}).split_pairs == splits_of(lpt_owners(tied, p)));
      }
    }
    // Past 2^14 tasks lpt sorts by radix on the keys' high halves, then
    // orders runs of equal high halves by their low halves: short runs
    // (exponential), long ones (a uniform law 1e-5 wide: ~10 runs of
    // thousands of tasks), runs already in order (geometric, constant).
    for (const char* spec : {"exponential:1", "uniform:1,1.00001", "geometric:0.5", "constant:2"}) {
      CAPTURE(spec);
      const std::vector<double> many = lbmc::test::draw_times(spec, 40000, 8);
      for (const std::int64_t p : {3, 64}) {
        CAPTURE(p);
        const auto owners = lpt_owners(many, p);
        std::vector<double> loads(static_cast<std::size_t>(p), 0.0);
        std::vector<std::size_t> order(many.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return many[a] > many[b]; });
        for (const std::size_t i : order) loads[static_cast<std::size_t>(owners[i])] += many[i];
        const exp::Outcome o = outcome("lpt", many, {p});
        CHECK(o.split_pairs == splits_of(owners));
        CHECK(o.makespan == *std::max_element(loads.begin(), loads.end()));
      }
    }
    // Random: consecutive draws differ with probability 1 − 1/P; over 299
    // pairs the count is Binomial(299, 15/16): 4 sd ≈ 17 around 280.3.
    const auto split = outcome("random", t, {16}, 77).split_pairs;
    CHECK(std::abs(static_cast<double>(split) - 299.0 * 15.0 / 16.0) < 4.0 * std::sqrt(299.0 * 15.0 / 256.0));
  }

  TEST_CASE("compare: overhead is the makespan lost to dispatch") {
    // The hand-worked self schedules of compare_test: 11 with h = 1, 8 free.
    const std::vector<double> t{5, 1, 1, 1, 4, 2, 3, 3};
    CHECK(outcome("self", t, {3, 1.0}).overhead == 3.0);
    CHECK(outcome("self", t, {3, 0.0}).overhead == 0.0);
    // chunk:3: 9 with h = 1, 7 free; guided: 10 and 8.
    CHECK(outcome("chunk:3", t, {3, 1.0}).overhead == 2.0);
    CHECK(outcome("guided", t, {3, 1.0}).overhead == 2.0);
    // Static strategies pay nothing for h, τ or φ.
    CHECK(outcome("block", t, {3, 1.0, 1.0, 1.0}).overhead == 0.0);
    CHECK(outcome("lpt", t, {3, 1.0, 1.0, 1.0}).overhead == 0.0);
  }

  TEST_CASE("compare: fields parse - and bad ones are refused") {
    CHECK(exp::parse_field("iid").kind == exp::Field::Kind::iid);
    const exp::Field f = exp::parse_field("ar1:0.9");
    CHECK(f.kind == exp::Field::Kind::ar1);
    CHECK(f.rho == 0.9);
    CHECK(f.label() == "ar1:0.9");
    CHECK(exp::parse_field("ar1:-0.5").rho == -0.5);
    for (const char* bad : {"ar1:1", "ar1:-1", "ar1:x", "ar1:", "ar2:0.5", "IID", "ar1:nan"}) {
      CAPTURE(bad);
      CHECK_THROWS_AS(exp::parse_field(bad), engine::InputError);
    }
  }

  TEST_CASE("compare: measured times are read in file order and refused when wrong") {
    const fs::path file = write_file("times.txt", "3\n1\n2.5\n0\n");
    const exp::Workload w = exp::measured_workload(file.string(), 1e9);
    CHECK(w.tasks == 4);
    CHECK(*w.measured == std::vector<double>{3, 1, 2.5, 0});
    CHECK(w.expected_total() == 6.5);
    CHECK(w.label() == "times:" + file.string());
    CHECK(w.field.label() == "measured");
    const fs::path csv = write_file("times.csv", "cell,cost\na,4\nb,2\n");
    CHECK(*exp::measured_workload(csv.string() + ":cost", 1e9).measured == std::vector<double>{4, 2});
    CHECK_THROWS_AS(exp::measured_workload(write_file("neg.txt", "1\n-2\n").string(), 1e9), engine::InputError);
    CHECK_THROWS_AS(exp::measured_workload(write_file("zero.txt", "0\n0\n").string(), 1e9), engine::InputError);
    CHECK_THROWS_AS(exp::measured_workload(write_file("empty.txt", "").string(), 1e9), engine::InputError);
    // Every refusal names the file as the times it is: times:FILE.
    const fs::path text = write_file("text.txt", "1\nabc\n");
    CHECK_THROWS_WITH_AS(exp::measured_workload(text.string(), 1e9),
                         ("times:" + text.string() + ": line 2: 'abc' is not a number").c_str(), engine::InputError);
    CHECK_THROWS_AS(exp::measured_workload((lbmc_run.scratch / "missing.txt").string(), 1e9), engine::InputError);
  }

  TEST_CASE("compare: --times runs the measured times - deterministic strategies exactly") {
    const fs::path file = write_file("cells.txt", "5\n1\n1\n1\n4\n2\n3\n3\n");
    const Run run = lbmc_run("compare --times " + file.string() +
                             " --P 3 --strategy block,cyclic,lpt,random,chunk:8 --reps 500 --seed 4 --quiet --strict "
                             "--csv -");
    REQUIRE(run.code == 0);
    const std::string point = ",times:" + file.string() + ",measured,8,3,0,";
    // The hand-worked makespans of compare_test: block 7, cyclic 9, lpt 7.
    CHECK(estimate_of(run.out, point + "block,makespan.mean,") == 7.0);
    CHECK(estimate_of(run.out, point + "cyclic,makespan.mean,") == 9.0);
    CHECK(estimate_of(run.out, point + "lpt,makespan.mean,") == 7.0);
    // One chunk of all 8 tasks: C = W = 20 exactly, the one-chunk reference.
    CHECK(run.out.find(point + "chunk:8,makespan.mean,20,0,") != std::string::npos);
    CHECK(run.out.find(",one-chunk,exact,20,") != std::string::npos);
    // Random varies between replications.
    CHECK(run.out.find(point + "random,makespan.mean,") != std::string::npos);
  }

  TEST_CASE("compare: bad workload options exit 2 with one line and no file") {
    const fs::path target = lbmc_run.scratch / "never.csv";
    const fs::path good = write_file("good.txt", "1\n2\n");
    const fs::path negative = write_file("negative.txt", "1\n-2\n");
    const fs::path blank = write_file("blank.txt", "\n");
    const fs::path words = write_file("words.txt", "1\nfast\n");
    const std::string cases[][2] = {
        {"compare --times " + negative.string(), "negative"},
        {"compare --times " + blank.string(), "--times"},
        {"compare --times " + words.string(), "--times"},
        {"compare --times " + (lbmc_run.scratch / "none.txt").string(), "--times"},
        {"compare --times " + good.string() + " --N 5", "--N"},
        {"compare --times " + good.string() + " --dist exponential:1", "--dist"},
        {"compare --times " + good.string() + " --field ar1:0.5", "--field"},
        {"compare --field ar1:1", "--field"},
        {"compare --field ar1", "--field"},
        {"compare --tau -1", "--tau"},
        {"compare --phi inf", "--phi"},
        {"compare --phi 1e101", "--phi"},
        {"compare --strategy balanced", "--strategy"},
        {"compare --times " + good.string() + " --max-memory 10", "--times"},
    };
    for (const auto& c : cases) {
      CAPTURE(c[0]);
      const Run o = lbmc_run(c[0] + " --csv " + target.string());
      CHECK(o.code == 2);
      CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
      CHECK(o.err.find(c[1]) != std::string::npos);
      CHECK_FALSE(fs::exists(target));
    }
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("compare: the ar1 field keeps the law of every time and correlates neighbours") {
    // Lognormal(0, 1) with ρ = 0.8: the logs form a stationary AR(1) with
    // corr(log t_i, log t_{i+1}) = ρ and mean 0, variance 1.
    exp::Workload w;
    w.law = dist::Lognormal{0.0, 1.0};
    w.field = exp::parse_field("ar1:0.8");
    w.tasks = 200000;
    const exp::CorrelatedTimes source(w);
    engine::Generator gen = engine::block_generator(5, 0);
    std::vector<double> t(static_cast<std::size_t>(w.tasks));
    source.fill(gen, t);
    double s1 = 0.0, s2 = 0.0, s12 = 0.0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const double x = std::log(t[i]);
      s1 += x;
      s2 += x * x;
      if (i > 0) s12 += x * std::log(t[i - 1]);
    }
    const double n = static_cast<double>(t.size());
    const double mean = s1 / n;
    const double lag1 = s12 / (n - 1.0);
    // The mean of an AR(1) has variance (1 + ρ)/(1 − ρ)/n = 9/n.
    CHECK(std::abs(mean) < 4.0 * std::sqrt(9.0 / n));
    CHECK(std::abs(s2 / n - 1.0) < 0.05);
    CHECK(std::abs(lag1 - 0.8) < 0.02);
    // Another law through the quantile map: exponential(1) with ρ = 0.5
    // keeps mean 1 (se of the mean below √(3/n) here).
    w.law = dist::Exponential{1.0};
    w.field = exp::parse_field("ar1:0.5");
    w.tasks = 100000;
    std::vector<double> e(static_cast<std::size_t>(w.tasks));
    exp::CorrelatedTimes(w).fill(gen, e);
    double total = 0.0;
    for (const double x : e) total += x;
    CHECK(std::abs(total / 1e5 - 1.0) < 4.0 * std::sqrt(3.0 / 1e5));
    CHECK(*std::min_element(e.begin(), e.end()) >= 0.0);
  }

  TEST_CASE("compare: choice:D with unit tasks meets the exact power-of-choices law") {
    // N = P = 8 and 20, D = 2, 3: the exact E M of the load profile's chain;
    // a wrong D is hundreds of se away (D = 1 gives E M = 2.67 at N = P = 8).
    const Run run = lbmc_run(
        "compare --dist constant:1 --N 8,20 --P 8,20 --strategy choice:2,choice:3 --reps 40000 --seed 31 --quiet "
        "--strict --csv -");
    REQUIRE(run.code == 0);
    CHECK(lbmc::test::count_of(run.out, ",power-of-choices,exact,") == 8);
    CHECK(run.out.find(",fluid-limit,asymptotic,") != std::string::npos);
    CHECK(run.out.find(",fail\n") == std::string::npos);
  }

  TEST_CASE("compare: self agrees in law with the producer model of dynamic where the two coincide") {
    // Kimura-Ichiyoshi's producer hands out nu = 20 subtasks of a task of
    // size t1 = 40, one every 1/lambda = 0.5, to p = 4 consumers: with fixed
    // counts this is compare's self with N = 20 tasks of mean 2 and h = 0.5.
    const auto mean_and_se = [](const std::string& csv, const std::string& key) {
      const std::size_t at = csv.find(key);
      REQUIRE(at != std::string::npos);
      const std::string rest = csv.substr(at + key.size());
      return std::pair{std::stod(rest), std::stod(rest.substr(rest.find(',') + 1))};
    };
    // Constant subtasks: both schedules are deterministic, C = 12.
    const Run fixed_dynamic = lbmc_run("dynamic --model deterministic --p 4 --t1 40 --nu 20 --lambda 2 --reps 50 "
                                       "--seed 2 --quiet --csv -");
    const Run fixed_compare =
        lbmc_run("compare --dist constant:2 --N 20 --P 4 --strategy self --h 0.5 --reps 50 --seed 2 --quiet --csv -");
    REQUIRE(fixed_dynamic.code == 0);
    REQUIRE(fixed_compare.code == 0);
    CHECK(mean_and_se(fixed_dynamic.out, ",T_p.mean,").first == doctest::Approx(12.0).epsilon(1e-12));
    CHECK(mean_and_se(fixed_compare.out, ",self,makespan.mean,").first == 12.0);
    // Exponential subtasks: two independent estimates of one mean.
    const Run dynamic = lbmc_run("dynamic --model deterministic --r-dist exponential:1 --p 4 --t1 40 --nu 20 "
                                 "--lambda 2 --reps 40000 --seed 3 --quiet --csv -");
    const Run compare = lbmc_run(
        "compare --dist exponential:2 --N 20 --P 4 --strategy self --h 0.5 --reps 40000 --seed 4 --quiet --csv -");
    REQUIRE(dynamic.code == 0);
    REQUIRE(compare.code == 0);
    const auto [d, d_se] = mean_and_se(dynamic.out, ",T_p.mean,");
    const auto [c, c_se] = mean_and_se(compare.out, ",self,makespan.mean,");
    CHECK(std::abs(d - c) < 4.0 * std::hypot(d_se, c_se));
    // Without the dispatch cost the mean drops by more than 20 se of the
    // difference, so a compare that ignored h would be caught.
    const Run free = lbmc_run(
        "compare --dist exponential:2 --N 20 --P 4 --strategy self --h 0 --reps 40000 --seed 4 --quiet --csv -");
    const auto [f, f_se] = mean_and_se(free.out, ",self,makespan.mean,");
    CHECK(d - f > 20.0 * std::hypot(d_se, f_se));
  }

  TEST_CASE("compare: with correlated times cyclic beats block - and one-chunk stays exact") {
    const Run run = lbmc_run(
        "compare --dist lognormal:0,1 --field iid,ar1:0.95 --N 4096 --P 16 --strategy block,cyclic,chunk:4096 "
        "--reps 400 --seed 12 --quiet --strict --csv -");
    REQUIRE(run.code == 0);
    CHECK(run.out.find(",one-chunk,exact,") != std::string::npos);
    CHECK(run.out.find(",fail\n") == std::string::npos);
    const auto row = [&](const std::string& field, const std::string& strategy) {
      const std::string key = ",\"lognormal:0,1\",";
      const std::string tail = field + ",4096,16,0," + strategy + ",efficiency_diff.mean,";
      const std::size_t at = run.out.find(key + tail);
      REQUIRE(at != std::string::npos);
      const std::string line = run.out.substr(at + key.size() + tail.size());
      const double estimate = std::stod(line);
      const double se = std::stod(line.substr(line.find(',') + 1));
      return std::pair{estimate, se};
    };
    // iid: block and cyclic are equal in law (a difference within 4 se);
    // correlated: cyclic's processors sample the whole field, block's each a
    // stretch of it, and cyclic wins by many se.
    const auto [iid, iid_se] = row("iid", "cyclic vs block");
    CHECK(std::abs(iid) < 4.0 * iid_se);
    const auto [ar, ar_se] = row("ar1:0.95", "cyclic vs block");
    CHECK(ar > 10.0 * ar_se);
  }
}

}  // namespace compare_workloads_test
