// `lbmc compare`: the strategies' schedules on fixed times (known answers
// worked by hand below, and independent re-implementations with
// std::priority_queue for larger cases), the exact mean makespan of list
// scheduling with exponential tasks, agreement of the cyclic strategy with
// `scatter`, the variance reduction of the paired differences, and the
// command line (thread independence, bad input).
//
// Hand-worked schedules of t = 5 1 1 1 4 2 3 3 (W = 20) on P = 3:
//   block  (chunks of 3): 5+1+1 = 7, 1+4+2 = 7, 3+3 = 6                  -> 7
//   cyclic: t0+t3+t6 = 9, t1+t4+t7 = 8, t2+t5 = 3                         -> 9
//   self, h = 0 (free times after each task): [5,0,0] [5,1,0] [5,1,1]
//     [5,2,1] [5,2,5] [5,4,5] [5,7,5] [8,7,5]                             -> 8
//   self, h = 1 (task k starts >= k): [6,0,0] [6,3,0] [6,3,4] [6,5,4]
//     [6,5,9] [6,8,9] [10,8,9] [10,11,9]                                  -> 11
//   lpt (5 4 3 3 2 1 1 1): [5,4,3] [5,4,6] [5,6,6] [6,6,6] [7,6,6] [7,7,6] -> 7
// Chunked schedules of the same times on P = 3 (chunk totals; free times
// after each chunk; chunk j starts >= j·h):
//   chunk:3, h = 0: [5 1 1]=7 [1 4 2]=7 [3 3]=6 (the short last chunk)
//     [7,0,0] [7,7,0] [7,7,6]                                             -> 7
//   chunk:3, h = 1: starts 1, 2, 3: [8,0,0] [8,9,0] [8,9,9]               -> 9
//   chunk:2, h = 0: 6 2 6 6: [6,0,0] [6,2,0] [6,2,6] [6,8,6]              -> 8
//   chunk:2, h = 1: starts 1, 2, 3, max(4, 4): [7,0,0] [7,4,0] [7,4,9]
//     [7,10,9]                                                            -> 10
//   chunk:3 on P = 2, h = 2: starts 2, 4, max(9, 6) = 9: [9,0] [9,11]
//     [15,11]                                                             -> 15
//   guided (⌈R/P⌉ of R left: 3 2 1 1 1 tasks, totals 7 5 2 3 3), h = 0:
//     [7,0,0] [7,5,0] [7,5,2] [7,5,5] [7,8,5]                             -> 8
//   guided, h = 1: starts 1, 2, 3, max(5, 4), max(7, 5):
//     [8,0,0] [8,7,0] [8,7,5] [8,7,8] [8,10,8]                            -> 10
//   guided on t = 1 1 1 1 1 1 1 1 1 9, P = 4: chunks of 3 2 2 1 1 1
//     (totals 3 2 2 1 1 9): [3,2,2,1] [3,2,2,2] [3,11,2,2]                -> 11
// Graham's tight LPT case (Graham 1969): t = 3 3 2 2 2 on P = 2 gives 7
// against the optimum 6, the ratio 4/3 − 1/(3P) = 7/6.
// E C of list scheduling with exponential tasks: 7 + H_8 = 7 + 761/280 at
// N = 64, P = 8, m = 1 (H_8 = 761/280 exactly).
// Statistical tests: fixed seeds, tolerances of 4 standard errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <numeric>
#include <queue>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "lbmc/analytic/scatter.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/rng.hpp"
#include "lbmc/analytic/chunk_scheduling.hpp"
#include "lbmc/analytic/list_scheduling.hpp"
#include "compare/compare.hpp"
#include "compare/makespans.hpp"
#include "compare/scheduler.hpp"
#include "compare/strategy.hpp"
#include "compare/strategy_table.hpp"
#include "lbmc/exp/scatter.hpp"
#include "support/files.hpp"
#include "support/task_times.hpp"

namespace compare_test {

using namespace lbmc;
namespace fs = std::filesystem;

namespace {

using lbmc::test::slurp;

using exp::Strategy;

const std::vector<double> kTimes{5, 1, 1, 1, 4, 2, 3, 3};

// A workload of the schedule-bound tests: task times, processors, the
// makespan lower bound, the total work and the rounding tolerance of sums.
struct BoundCase {
  std::vector<double> times;
  std::int64_t p = 0;
  double lb = 0.0, total = 0.0, tol = 0.0;
};

// Calls check on n = 1, 5, 37, 300 draws of each law (seed seed_base + n)
// for each p.
template <class Check>
void for_each_bound_case(std::initializer_list<const char*> specs, std::initializer_list<std::int64_t> ps,
                         std::uint64_t seed_base, Check check) {
  for (const char* spec : specs) {
    for (const std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{37}, std::size_t{300}}) {
      for (const std::int64_t p : ps) {
        CAPTURE(spec);
        CAPTURE(n);
        CAPTURE(p);
        BoundCase w{lbmc::test::draw_times(spec, n, seed_base + n), p};
        w.lb = exp::makespan_lower_bound(w.times, p);
        w.total = std::accumulate(w.times.begin(), w.times.end(), 0.0);
        w.tol = (2.0 * static_cast<double>(n) + 4.0) * std::numeric_limits<double>::epsilon();
        check(w);
      }
    }
  }
}

// List scheduling by an independent method: a priority queue of free times.
double reference_list(const std::vector<double>& times, std::int64_t procs, double h) {
  std::priority_queue<double, std::vector<double>, std::greater<>> free(std::greater<>{},
                                                                        std::vector<double>(static_cast<std::size_t>(procs), 0.0));
  double most = 0.0;
  double k = 0.0;
  for (const double t : times) {
    k += 1.0;
    const double start = std::max(free.top(), k * h);
    free.pop();
    free.push(start + t);
    most = std::max(most, start + t);
  }
  return most;
}

// Chunked list scheduling by the same independent method: chunk sizes from
// `fixed` (chunk:K) or ⌈R/P⌉ (guided, fixed = 0), chunk j starting at
// max(free, j·h).
double reference_chunks(const std::vector<double>& times, std::int64_t procs, std::int64_t fixed, double h) {
  std::vector<double> totals;
  std::size_t first = 0;
  while (first < times.size()) {
    const std::size_t left = times.size() - first;
    const auto p = static_cast<std::size_t>(procs);
    const std::size_t size = fixed > 0 ? std::min(left, static_cast<std::size_t>(fixed)) : (left + p - 1) / p;
    double total = 0.0;
    for (std::size_t i = first; i < first + size; ++i) total += times[i];
    totals.push_back(total);
    first += size;
  }
  return reference_list(totals, procs, h);
}

double reference_lpt(std::vector<double> times, std::int64_t procs) {
  std::sort(times.begin(), times.end(), std::greater<>());
  return reference_list(times, procs, 0.0);
}

// Graham's lpt by an independent method: a stable sort of the task
// indices, longest first, and a priority queue of (load, id), equal loads
// to the lowest id; the makespan and the neighbouring pairs split.
exp::Outcome reference_lpt_outcome(const std::vector<double>& times, std::int64_t procs) {
  std::vector<std::size_t> order(times.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return times[a] > times[b]; });
  using Load = std::pair<double, std::int64_t>;
  std::priority_queue<Load, std::vector<Load>, std::greater<>> free;
  for (std::int64_t p = 0; p < procs; ++p) free.push({0.0, p});
  std::vector<std::int64_t> owner(times.size());
  double most = 0.0;
  for (const std::size_t i : order) {
    auto [load, p] = free.top();
    free.pop();
    owner[i] = p;
    load += times[i];
    most = std::max(most, load);
    free.push({load, p});
  }
  std::int64_t split = 0;
  for (std::size_t i = 1; i < owner.size(); ++i) split += static_cast<std::int64_t>(owner[i] != owner[i - 1]);
  return {most, 0.0, split};
}

void check_lpt_against_reference(const std::vector<double>& times, std::int64_t procs) {
  engine::Generator unused;
  const exp::Outcome got = exp::schedule_outcome(exp::parse_strategy("lpt"), times, {procs}, unused);
  const exp::Outcome want = reference_lpt_outcome(times, procs);
  CHECK(got.makespan == want.makespan);
  CHECK(got.split_pairs == want.split_pairs);
}

exp::CompareSample simulate(const std::string& spec, std::int64_t tasks, std::int64_t procs, const std::string& strategies,
                            std::int64_t reps, std::uint64_t seed, double h = 0.0) {
  const exp::CompareSpec s{exp::drawn_workload(dist::parse_load_law(spec), tasks), {procs, h}, exp::parse_strategies(strategies)};
  return exp::simulate_compare(s, engine::RunPlan::fixed(seed, reps, 2)).sample;
}

// A chunk:K with K = 0 made by hand (the parser refuses it).
void simulate_compare_k0() {
  const exp::CompareSpec s{exp::drawn_workload(dist::Exponential{1.0}, 4), {4}, {exp::strategy_named("chunk", 0)}};
  (void)exp::simulate_compare(s, engine::RunPlan::fixed(1, 10, 1));
}

using Outcome = lbmc::test::Captured;
const lbmc::test::LbmcRunner lbmc_run{lbmc::test::scratch_folder("compare_test")};

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("compare: hand-worked makespans of every strategy") {
    CHECK(exp::makespan_block(kTimes, 3) == 7.0);
    CHECK(exp::makespan_cyclic(kTimes, 3) == 9.0);
    CHECK(exp::makespan_self(kTimes, 3, 0.0) == 8.0);
    CHECK(exp::makespan_self(kTimes, 3, 1.0) == 11.0);
    CHECK(exp::makespan_lpt(kTimes, 3) == 7.0);
    CHECK(exp::makespan_lower_bound(kTimes, 3) == 20.0 / 3.0);
    // Graham's tight case for LPT: 7 against the optimum 6.
    CHECK(exp::makespan_lpt(std::vector<double>{3, 3, 2, 2, 2}, 2) == 7.0);
    // One processor: every strategy runs everything; with h the last task
    // starts at N·h at the earliest.
    engine::Generator gen = engine::block_generator(1, 0);
    for (const double c : {exp::makespan_block(kTimes, 1), exp::makespan_cyclic(kTimes, 1), exp::makespan_self(kTimes, 1, 0.0),
                           exp::makespan_lpt(kTimes, 1), exp::makespan_random(kTimes, 1, gen),
                           exp::makespan_choice(kTimes, 1, 1, gen)}) {
      CHECK(c == 20.0);
    }
    CHECK(exp::makespan_self(std::vector<double>{0, 0, 0}, 1, 2.5) == 7.5);
    // At least as many processors as tasks: block, cyclic, self and lpt give
    // each task its own processor.
    for (const std::int64_t p : {8, 9, 100}) {
      CHECK(exp::makespan_block(kTimes, p) == 5.0);
      CHECK(exp::makespan_cyclic(kTimes, p) == 5.0);
      CHECK(exp::makespan_self(kTimes, p, 0.0) == 5.0);
      CHECK(exp::makespan_lpt(kTimes, p) == 5.0);
    }
    // Block with N not a multiple of the chunk: 10 tasks on 4 processors in
    // chunks of 3 (3, 3, 3, 1).
    const std::vector<double> ten{1, 1, 1, 1, 1, 1, 1, 1, 1, 9};
    CHECK(exp::makespan_block(ten, 4) == 9.0);
    CHECK(exp::makespan_cyclic(ten, 4) == 11.0);  // tasks 1, 5, 9 on processor 1
  }

  TEST_CASE("compare: hand-worked makespans of chunk:K and guided") {
    CHECK(exp::makespan_chunk(kTimes, 3, 3, 0.0) == 7.0);
    CHECK(exp::makespan_chunk(kTimes, 3, 3, 1.0) == 9.0);
    CHECK(exp::makespan_chunk(kTimes, 3, 2, 0.0) == 8.0);
    CHECK(exp::makespan_chunk(kTimes, 3, 2, 1.0) == 10.0);
    CHECK(exp::makespan_chunk(kTimes, 2, 3, 2.0) == 15.0);
    CHECK(exp::makespan_guided(kTimes, 3, 0.0) == 8.0);
    CHECK(exp::makespan_guided(kTimes, 3, 1.0) == 10.0);
    const std::vector<double> ten{1, 1, 1, 1, 1, 1, 1, 1, 1, 9};
    CHECK(exp::makespan_guided(ten, 4, 0.0) == 11.0);
    // One chunk holds everything: W after the first dispatch.
    for (const std::int64_t k : {8, 9, 1000}) {
      CHECK(exp::makespan_chunk(kTimes, 3, k, 0.0) == 20.0);
      CHECK(exp::makespan_chunk(kTimes, 3, k, 0.5) == 20.5);
    }
    CHECK(exp::makespan_guided(kTimes, 1, 0.25) == 20.25);
    // Guided with N <= P: chunks of one task, each on its own processor.
    CHECK(exp::makespan_guided(kTimes, 8, 0.0) == 5.0);
    CHECK(exp::makespan_guided(kTimes, 8, 1.0) == 11.0);  // task k starts at k: the last, 8 + 3
    CHECK(exp::largest_chunk(exp::parse_strategy("guided"), 10, 4) == 3);
    CHECK(exp::largest_chunk(exp::parse_strategy("chunk:4"), 10, 4) == 4);
    CHECK(exp::largest_chunk(exp::parse_strategy("chunk:40"), 10, 4) == 10);
    CHECK(exp::largest_chunk(exp::parse_strategy("self"), 10, 4) == 1);
    CHECK(exp::largest_chunk(exp::parse_strategy("block"), 10, 4) == 0);
  }

  TEST_CASE("compare: chunk:1 is self value for value - chunks agree with a priority-queue schedule") {
    for (const char* spec : {"exponential:1", "geometric:0.2", "pareto:3,1", "uniform:0,1"}) {
      CAPTURE(spec);
      const std::vector<double> times = lbmc::test::draw_times(spec, 1000, 9);
      for (const std::int64_t p : {1, 3, 16, 2000}) {
        CAPTURE(p);
        for (const double h : {0.0, 0.01, 0.3}) {
          CAPTURE(h);
          CHECK(exp::makespan_chunk(times, p, 1, h) == exp::makespan_self(times, p, h));
          for (const std::int64_t k : {2, 7, 64}) {
            CAPTURE(k);
            CHECK(exp::makespan_chunk(times, p, k, h) == reference_chunks(times, p, k, h));
          }
          CHECK(exp::makespan_guided(times, p, h) == reference_chunks(times, p, 0, h));
        }
      }
    }
    // And in a simulation: the same makespan, efficiency and C/LB in every
    // replication, so the paired difference is exactly 0.
    const exp::CompareSpec spec{exp::drawn_workload(dist::parse_load_law("lognormal:0,1"), 50), {4}, exp::parse_strategies("self,chunk:1")};
    const auto s = exp::simulate_compare(spec, engine::RunPlan::fixed(3, 500, 2)).sample;
    CHECK(s.strategy[0].makespan.mean() == s.strategy[1].makespan.mean());
    CHECK(s.strategy[0].ratio.mean() == s.strategy[1].ratio.mean());
    CHECK(s.strategy[1].efficiency_diff.mean() == 0.0);
    CHECK(s.strategy[1].efficiency_diff.variance() == 0.0);
  }

  TEST_CASE("compare: random and choice follow their draws - ties to the first drawn") {
    const std::vector<double> times = lbmc::test::draw_times("exponential:1", 500, 3);
    for (const std::int64_t p : {1, 2, 7, 64}) {
      CAPTURE(p);
      engine::Generator gen = engine::block_generator(11, static_cast<std::uint64_t>(p));
      engine::Generator copy = gen;
      std::vector<double> loads(static_cast<std::size_t>(p), 0.0);
      for (const double t : times) loads[engine::uniform_below(copy, static_cast<std::uint64_t>(p))] += t;
      CHECK(exp::makespan_random(times, p, gen) == *std::max_element(loads.begin(), loads.end()));
      CHECK(static_cast<bool>(gen == copy));  // the same number of draws
      for (const std::int64_t d : {std::int64_t{1}, std::int64_t{2}, p}) {
        CAPTURE(d);
        copy = gen;
        std::fill(loads.begin(), loads.end(), 0.0);
        std::vector<std::int64_t> counts(static_cast<std::size_t>(p), 0);
        engine::HalfWordDraws halves(copy);
        for (const double t : times) {
          std::vector<std::uint64_t> drawn;
          for (std::int64_t k = 0; k < d; ++k) drawn.push_back(halves.below(static_cast<std::uint32_t>(p)));
          std::uint64_t best = drawn[0];
          for (const std::uint64_t j : drawn) {
            if (counts[j] < counts[best]) best = j;  // strictly fewer: a tie keeps the earlier draw
          }
          ++counts[best];
          loads[best] += t;
        }
        CHECK(exp::makespan_choice(times, p, d, gen) == *std::max_element(loads.begin(), loads.end()));
        CHECK(static_cast<bool>(gen == copy));
      }
    }
    // choice:2 on unit tasks keeps the counts within a few of each other;
    // random does not (N = 4096 on P = 64: mean 64).
    const std::vector<double> unit(4096, 1.0);
    engine::Generator gen = engine::block_generator(5, 0);
    CHECK(exp::makespan_choice(unit, 64, 2, gen) <= 68.0);
    CHECK(exp::makespan_random(unit, 64, gen) >= 70.0);
  }

  TEST_CASE("compare: self and lpt agree with a priority-queue list schedule - radix sort included") {
    // 20000 tasks pass the radix sort's threshold (2^14); 100 do not.
    for (const std::size_t n : {std::size_t{100}, std::size_t{20000}}) {
      for (const char* spec : {"exponential:1", "geometric:0.2", "pareto:3,1", "uniform:0,1"}) {
        CAPTURE(n);
        CAPTURE(spec);
        const std::vector<double> times = lbmc::test::draw_times(spec, n, 7);
        for (const std::int64_t p : {1, 3, 16, 1000}) {
          CAPTURE(p);
          CHECK(exp::makespan_self(times, p, 0.0) == reference_list(times, p, 0.0));
          CHECK(exp::makespan_self(times, p, 0.01) == reference_list(times, p, 0.01));
          CHECK(exp::makespan_lpt(times, p) == reference_lpt(times, p));
        }
      }
    }
  }

  TEST_CASE("compare: lpt places each task as a stable sort and a queue of loads do - equal times and near ties included") {
    // Above 2^14 tasks the radix sort: narrow laws make long runs of keys
    // equal in their high bits, integer and constant laws equal times.
    for (const std::size_t n : {std::size_t{100}, std::size_t{20000}, std::size_t{70000}}) {
      for (const char* spec : {"exponential:1", "uniform:1,1.00001", "poisson:3", "constant:2", "pareto:1.5,1"}) {
        CAPTURE(n);
        CAPTURE(spec);
        const std::vector<double> times = lbmc::test::draw_times(spec, n, 13);
        for (const std::int64_t p : {1, 3, 1000}) {
          CAPTURE(p);
          check_lpt_against_reference(times, p);
        }
      }
    }
    // One long task stretches the keys' range, so that the narrow law's
    // times agree in many high bits: long runs for the radix sort's second
    // stage.
    std::vector<double> stretched = lbmc::test::draw_times("uniform:1,1.00001", 70000, 17);
    stretched[0] = 100.0;
    check_lpt_against_reference(stretched, 3);
    // Times a few ulps apart (and equal ones) beside a long task: every
    // word then shares its key bits with thousands of others, and whole
    // keys order them, read back batch after batch.
    std::vector<double> crowded(70000);
    engine::Generator gen = engine::block_generator(19, 0);
    for (double& t : crowded) t = std::nextafter(1.0, 2.0) + static_cast<double>(engine::uniform_below(gen, 4096)) * 0x1p-52;
    crowded[0] = 100.0;
    check_lpt_against_reference(crowded, 3);
    check_lpt_against_reference(crowded, 1000);
  }

  TEST_CASE("compare: every schedule respects the lower bound and list schedules Graham's") {
    engine::Generator gen = engine::block_generator(21, 0);
    exp::Scheduler scheduler;
    const auto all = exp::parse_strategies("block,cyclic,random,choice:1,choice:3,self,lpt,balanced-block");
    const auto check_case = [&](const BoundCase& w) {
      for (const Strategy& s : all) {
        CAPTURE(exp::to_string(s));
        const double c = scheduler.run(s, w.times, {w.p}, gen).makespan;
        CHECK(c >= w.lb * (1.0 - w.tol));
        const auto n = static_cast<std::int64_t>(w.times.size());
        if (const auto upper = exp::ratio_upper_bound(s, n, {w.p}); upper && w.lb > 0.0) {
          CHECK(c / w.lb <= *upper * (1.0 + w.tol));
        }
        if (exp::is_list_schedule(s, 0.0)) {
          // Graham (1966): C <= W/P + (1 - 1/P) max t_i.
          const double longest = *std::max_element(w.times.begin(), w.times.end());
          const auto pd = static_cast<double>(w.p);
          CHECK(c <= (w.total / pd + (1.0 - 1.0 / pd) * longest) * (1.0 + w.tol));
        }
      }
    };
    for_each_bound_case({"exponential:1", "pareto:2.5,1", "poisson:0.5", "constant:0.1", "lognormal:0,2"}, {3, 8}, 100,
                        check_case);
  }

  TEST_CASE("compare: chunked schedules respect Graham's bound on their chunks") {
    // C <= W/P + (1 - 1/P)·T* + J·h (T* the largest chunk total, J chunks),
    // and with h = 0 C/LB <= ratio_upper_bound.
    exp::Scheduler scheduler;
    engine::Generator unused;
    const auto chunked = exp::parse_strategies("chunk:1,chunk:2,chunk:5,chunk:64,guided");
    const auto check_case = [&](const BoundCase& w) {
      const std::size_t n = w.times.size();
      for (const double h : {0.0, 0.2}) {
        CAPTURE(h);
        for (const Strategy& s : chunked) {
          CAPTURE(exp::to_string(s));
          // The chunk totals, as the strategy cuts them.
          std::vector<double> totals;
          for (std::size_t first = 0; first < n;) {
            const std::size_t left = n - first;
            const auto pp = static_cast<std::size_t>(w.p);
            // chunk:K carries K; guided has no parameter.
            const std::size_t size =
                s.parameter > 0 ? std::min(left, static_cast<std::size_t>(s.parameter)) : (left + pp - 1) / pp;
            const auto chunk = w.times.begin() + static_cast<std::ptrdiff_t>(first);
            totals.push_back(std::accumulate(chunk, chunk + static_cast<std::ptrdiff_t>(size), 0.0));
            first += size;
          }
          const double most = *std::max_element(totals.begin(), totals.end());
          const auto pd = static_cast<double>(w.p);
          const double c = scheduler.run(s, w.times, {w.p, h}, unused).makespan;
          CHECK(c >= w.lb * (1.0 - w.tol));
          const double graham = w.total / pd + (1.0 - 1.0 / pd) * most + static_cast<double>(totals.size()) * h;
          CHECK(c <= graham * (1.0 + w.tol));
          const auto upper = exp::ratio_upper_bound(s, static_cast<std::int64_t>(n), {w.p, h});
          CHECK(upper.has_value() == (h == 0.0));
          if (upper && w.lb > 0.0) CHECK(c / w.lb <= *upper * (1.0 + w.tol));
        }
      }
    };
    for_each_bound_case({"exponential:1", "pareto:2.5,1", "poisson:0.5", "lognormal:0,2"}, {1, 3, 8}, 200, check_case);
    // The bound's values: 2 - 1/P for chunk:1, 1 + (1 - 1/P)·min(K*, P).
    const auto upper = [](const char* s, std::int64_t n, const exp::Machine& machine) {
      return exp::ratio_upper_bound(exp::parse_strategy(s), n, machine);
    };
    CHECK(*upper("chunk:1", 100, {8, 0.0}) == 2.0 - 1.0 / 8.0);
    CHECK(*upper("chunk:3", 100, {8, 0.0}) == 1.0 + 7.0 / 8.0 * 3.0);
    CHECK(*upper("chunk:30", 100, {8, 0.0}) == 8.0);
    CHECK(*upper("guided", 20, {8, 0.0}) == 1.0 + 7.0 / 8.0 * 3.0);
    CHECK(*upper("guided", 8, {8, 0.0}) == 2.0 - 1.0 / 8.0);
    CHECK(*upper("lpt", 100, {8, 0.5}) == 2.0 - 1.0 / 8.0);  // lpt pays no dispatch cost
    CHECK(*upper("balanced-block", 100, {8, 0.5}) == 2.0);
    CHECK_FALSE(upper("balanced-block", 100, {8, 0.0, 1.0}).has_value());
    CHECK_FALSE(upper("self", 100, {8, 0.5}).has_value());
    CHECK_FALSE(upper("chunk:3", 100, {8, 0.5}).has_value());
    for (const char* none : {"block", "cyclic", "random", "choice:2"}) {
      CHECK_FALSE(upper(none, 100, {8, 0.0}).has_value());
    }
    // The bound is tight: P = 2, chunk:2, t = 1 1 0 puts the first chunk (2)
    // on one processor, C = 2 against LB = max(2/2, 1) = 1, and the bound is
    // 1 + (1/2)·2 = 2.
    CHECK(exp::makespan_chunk(std::vector<double>{1, 1, 0}, 2, 2, 0.0) == 2.0);
    CHECK(exp::makespan_lower_bound(std::vector<double>{1, 1, 0}, 2) == 1.0);
  }

  TEST_CASE("compare: strategies parse and print - and bad ones are refused") {
    const auto all = exp::parse_strategies(exp::kDefaultStrategies);
    REQUIRE(all.size() == 8);
    std::string joined;
    for (const Strategy& s : all) {
      if (!joined.empty()) joined += ',';
      joined += exp::to_string(s);
    }
    CHECK(joined == exp::kDefaultStrategies);
    CHECK(all[3] == exp::strategy_named("choice", 2));
    CHECK(all[6] == exp::strategy_named("balanced-block"));
    CHECK(exp::to_string(all[6]) == "balanced-block");
    CHECK(exp::parse_strategies("lpt,self,lpt").size() == 2);
    CHECK(exp::parse_strategies("choice:1e1")[0].parameter == 10);
    const auto chunked = exp::parse_strategies("chunk:4,guided,chunk:1,chunk:4");
    REQUIRE(chunked.size() == 3);
    CHECK(chunked[0] == exp::strategy_named("chunk", 4));
    CHECK(chunked[1] == exp::strategy_named("guided"));
    CHECK(exp::to_string(chunked[0]) == "chunk:4");
    CHECK(exp::to_string(chunked[1]) == "guided");
    CHECK(exp::is_list_schedule(chunked[2], 0.0));
    CHECK_FALSE(exp::is_list_schedule(chunked[2], 0.1));
    CHECK_FALSE(exp::is_list_schedule(chunked[0], 0.0));
    CHECK_FALSE(exp::is_list_schedule(chunked[1], 0.0));
    for (const char* bad : {"", "lpt,", "fifo", "choice", "choice:", "choice:0", "choice:-1", "choice:1.5", "Block",
                            "chunk", "chunk:", "chunk:0", "chunk:-2", "chunk:1.5", "guided:2", "balanced", "balanced-block:2",
                            "block,cyclic,random,self,lpt,choice:1,choice:2,choice:3,choice:4,choice:5,choice:6,"
                            "choice:7,choice:8,choice:9,choice:10,choice:11,choice:12"}) {
      CAPTURE(bad);
      CHECK_THROWS_AS(exp::parse_strategies(bad), engine::InputError);
    }
    CHECK(exp::is_list_schedule(exp::parse_strategy("lpt"), 1.0));
    CHECK(exp::is_list_schedule(exp::parse_strategy("self"), 0.0));
    CHECK_FALSE(exp::is_list_schedule(exp::parse_strategy("self"), 0.5));
    CHECK_FALSE(exp::is_list_schedule(exp::parse_strategy("cyclic"), 0.0));
    CHECK_FALSE(exp::is_list_schedule(exp::parse_strategy("balanced-block"), 0.0));
  }

  TEST_CASE("compare: the strategy table drives parsing - printing - help - draws and dispatch") {
    std::string names_error;
    try {
      (void)exp::parse_strategy("fifo");
    } catch (const engine::InputError& e) {
      names_error = e.what();
    }
    const Outcome help = lbmc_run("compare --help");
    REQUIRE(help.code == 0);
    const std::vector<double> times = lbmc::test::draw_times("exponential:1", 40, 31);
    for (std::size_t i = 0; i < exp::kStrategyTable.size(); ++i) {
      const exp::StrategyEntry& e = exp::kStrategyTable[i];
      CAPTURE(e.name);
      const std::string name(e.name);
      const std::string form = e.parameter.empty() ? name : name + ":" + std::string(e.parameter);
      const std::string item = e.parameter.empty() ? name : name + ":3";
      const Strategy s = exp::parse_strategy(item);
      CHECK(s.entry == i);
      CHECK(s.parameter == (e.parameter.empty() ? 0 : 3));
      CHECK(exp::to_string(s) == item);
      CHECK(exp::strategy_named(e.name, s.parameter) == s);
      CHECK(names_error.find(form) != std::string::npos);
      CHECK(exp::strategy_list_help().find(form) != std::string::npos);
      const std::string first_line(e.help.substr(0, e.help.find('\n')));
      CHECK(help.out.find("  " + form + std::string(16 - form.size(), ' ') + first_line + "\n") != std::string::npos);
      // The processors drawn per task: the generator moves by the draws
      // only where the table says the strategy draws.
      engine::Generator gen = engine::block_generator(8, i);
      const engine::Generator before = gen;
      (void)exp::schedule_outcome(s, times, {8}, gen);
      CHECK(static_cast<bool>(gen == before) == (exp::draws_per_task(s) == 0));
      // Only the queue schedules pay the dispatch cost: h = 1 delays each of
      // their 40 tasks' (or chunks') dispatch, and leaves the others alone.
      engine::Generator free_gen = engine::block_generator(8, i);
      engine::Generator paid_gen = free_gen;
      const exp::Outcome free = exp::schedule_outcome(s, times, {8, 0.0}, free_gen);
      const exp::Outcome paid = exp::schedule_outcome(s, times, {8, 1.0}, paid_gen);
      const bool queued = e.dispatch == exp::Dispatch::queue;
      CHECK((paid.makespan > free.makespan) == queued);
      CHECK(paid.overhead == (queued ? paid.makespan - free.makespan : 0.0));
    }
    CHECK(exp::strategy_list_help() ==
          "block, cyclic, random, choice:D (1 <= D <= P), self, lpt, chunk:K (K >= 1), guided, balanced-block");
    const exp::CompareSpec spec{exp::drawn_workload(dist::Exponential{1.0}, 10), {8},
                                exp::parse_strategies("block,random,choice:3,self")};
    CHECK(exp::compare_variates_per_rep(spec) == 10.0 + 10.0 + 30.0);
    CHECK_THROWS_WITH_AS(exp::require_parameter_in_range(exp::strategy_named("choice", 9), 8),
                         "compare: choice:9 needs 1 <= D <= P = 8", engine::InputError);
    CHECK_THROWS_WITH_AS(exp::require_parameter_in_range(exp::strategy_named("chunk", 0), 8),
                         "compare: chunk:0 needs K >= 1", engine::InputError);
    CHECK_NOTHROW(exp::require_parameter_in_range(exp::strategy_named("choice", 8), 8));
    CHECK_THROWS_AS(exp::strategy_named("fifo"), engine::InputError);
  }

  TEST_CASE("compare: the exact mean makespan of list scheduling with exponential tasks") {
    const double h8 = 761.0 / 280.0;
    CHECK(analytic::list_exponential_mean_makespan(64, 8, 1.0) == doctest::Approx(7.0 + h8).epsilon(1e-15));
    CHECK(analytic::list_exponential_mean_makespan(64, 8, 2.5) == doctest::Approx(2.5 * (7.0 + h8)).epsilon(1e-15));
    CHECK(analytic::list_exponential_mean_makespan(8, 8, 1.0) == doctest::Approx(h8).epsilon(1e-15));
    CHECK(analytic::list_exponential_mean_makespan(3, 8, 1.0) == doctest::Approx(11.0 / 6.0).epsilon(1e-15));
    CHECK(analytic::list_exponential_mean_makespan(5, 1, 1.0) == doctest::Approx(5.0).epsilon(1e-15));
    CHECK_THROWS_AS(analytic::list_exponential_mean_makespan(0, 8, 1.0), engine::InputError);
  }

  TEST_CASE("compare: Kruskal-Weiss's asymptotic makespan of chunk:K") {
    // N m/P + h N/(K P) + sd sqrt(2 K ln P): 512 + 16 + sqrt(32 ln 8).
    CHECK(analytic::kruskal_weiss_mean_makespan(4096, 8, 16, 1.0, 1.0, 0.5) ==
          doctest::Approx(512.0 + 16.0 + std::sqrt(32.0 * std::log(8.0))).epsilon(1e-15));
    // One processor: the whole work, no spread term.
    CHECK(analytic::kruskal_weiss_mean_makespan(100, 1, 4, 2.0, 3.0, 0.0) == 200.0);
    CHECK_THROWS_AS(analytic::kruskal_weiss_mean_makespan(100, 8, 0, 1.0, 1.0, 0.0), engine::InputError);
    CHECK_THROWS_AS(analytic::kruskal_weiss_mean_makespan(100, 8, 4, 1.0, -1.0, 0.0), engine::InputError);
    CHECK_THROWS_AS(analytic::kruskal_weiss_mean_makespan(100, 8, 4, 1.0, 1.0,
                                                          std::numeric_limits<double>::infinity()),
                    engine::InputError);
  }

  TEST_CASE("compare: the simulation refuses bad specs") {
    const auto run = [](const std::string& spec, std::int64_t n, std::int64_t p, const std::string& strategies,
                        double h) { return simulate(spec, n, p, strategies, 10, 1, h); };
    CHECK_THROWS_AS(run("exponential:1", 0, 4, "block", 0.0), engine::InputError);
    CHECK_THROWS_AS(run("exponential:1", 4, 0, "block", 0.0), engine::InputError);
    CHECK_THROWS_AS(run("exponential:1", 4, 4, "choice:5", 0.0), engine::InputError);
    CHECK_THROWS_AS(run("exponential:1", 4, 4, "self", -1.0), engine::InputError);
    CHECK_THROWS_AS(run("exponential:1", 4, 4, "self", std::numeric_limits<double>::infinity()), engine::InputError);
    CHECK_THROWS_AS(run("normal:5,1", 4, 4, "block", 0.0), engine::InputError);
    CHECK_THROWS_AS(run("constant:0", 4, 4, "block", 0.0), engine::InputError);
    CHECK_THROWS_AS(simulate_compare_k0(), engine::InputError);
    CHECK_NOTHROW(run("poisson:0.1", 4, 4, "choice:4,self", 0.5));
    CHECK_NOTHROW(run("poisson:0.1", 4, 4, "chunk:9,guided", 0.5));
  }

  TEST_CASE("compare: all-zero task times give efficiency 1 or 0 and no imbalance") {
    // poisson:1e-9: every time is 0 in practice. With h > 0, self still
    // takes N·h, so its efficiency is 0.
    const auto s = simulate("poisson:1e-9", 5, 2, "block,self", 100, 3, 0.5);
    CHECK(s.strategy[0].efficiency.mean() == 1.0);
    CHECK(s.strategy[0].imbalance.count() == 0);
    CHECK(s.strategy[0].ratio.count() == 0);
    CHECK(s.strategy[1].makespan.mean() == 2.5);
    CHECK(s.strategy[1].efficiency.mean() == 0.0);
    CHECK(s.strategy[1].efficiency_diff.mean() == -1.0);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("compare: self with exponential tasks matches the exact list-scheduling mean") {
    const auto s = simulate("exponential:1", 64, 8, "self", 20000, 301);
    const auto& c = s.strategy[0].makespan;
    REQUIRE(c.count() == 20000);
    const double exact = analytic::list_exponential_mean_makespan(64, 8, 1.0);
    CHECK(std::abs(c.mean() - exact) <= 4 * c.mean_se());
    // Power: a wrong harmonic term (H_7, H_9, the papers' ln P) is detected.
    for (const double wrong : {7.0 + 363.0 / 140.0, 7.0 + 7129.0 / 2520.0, 7.0 + std::log(8.0)}) {
      CHECK(std::abs(c.mean() - wrong) > 4 * c.mean_se());
    }
    // With a dispatch cost the makespan grows: at least N·h.
    const auto slow = simulate("exponential:1", 64, 8, "self", 2000, 302, 0.5);
    CHECK(slow.strategy[0].makespan.mean() > 32.0);
  }

  TEST_CASE("compare: cyclic agrees in law with scatter") {
    // N = n·P: cyclic gives each processor n iid tasks, Salmon's model, so
    // E C = n·m·(1 + E l), l of `lbmc scatter`, whose E l is exact for
    // exponential tasks.
    constexpr std::int64_t n = 10;
    constexpr std::int64_t p = 100;
    const auto s = simulate("exponential:1", n * p, p, "cyclic,block", 20000, 303);
    const engine::RunPlan plan = engine::RunPlan::fixed(304, 20000, 2);
    const auto scatter = exp::simulate_scatter(dist::Exponential{1.0}, n, p, plan).sample;
    const double nd = static_cast<double>(n);
    for (const auto* c : {&s.strategy[0].makespan, &s.strategy[1].makespan}) {
      const double combined = std::sqrt(c->mean_se() * c->mean_se() + nd * nd * scatter.l.mean_se() * scatter.l.mean_se());
      CHECK(std::abs(c->mean() - nd * (1.0 + scatter.l.mean())) <= 4 * combined);
      const double exact = nd * (1.0 + *analytic::scatter_exact_mean(dist::Exponential{1.0}, n, p));
      CHECK(std::abs(c->mean() - exact) <= 4 * c->mean_se());
    }
  }

  TEST_CASE("compare: the paired difference has a smaller se than either efficiency") {
    // Heavy tails make the task times, shared by all strategies, the main
    // source of each efficiency's variation; the paired difference removes
    // it. (With light tails and many tasks per processor the gain can
    // vanish: each strategy's own split of the tasks dominates.)
    const auto s = simulate("lognormal:0,2", 32, 8, exp::kDefaultStrategies, 20000, 305);
    const auto& first = s.strategy[0].efficiency;
    for (int i = 1; i < 6; ++i) {
      CAPTURE(i);
      const auto& other = s.strategy[i].efficiency;
      const auto& diff = s.strategy[i].efficiency_diff;
      REQUIRE(diff.count() == 20000);
      CHECK(diff.mean() == doctest::Approx(other.mean() - first.mean()).epsilon(1e-9));
      CHECK(diff.mean_se() < std::min(first.mean_se(), other.mean_se()));
      // Independent runs would give sqrt(se_A^2 + se_B^2).
      CHECK(diff.mean_se() < 0.75 * std::hypot(first.mean_se(), other.mean_se()));
    }
  }

  TEST_CASE("compare: same seed gives identical CSV for 1 and 2 threads") {
    const std::string args =
        "compare --dist exponential:1 --dist geometric:0.3 --N 7,100 --P 4 --h 0,0.01 --strategy "
        "block,cyclic,random,choice:2,self,lpt,chunk:3,guided --reps 3000 --seed 17 --quiet --csv -";
    const std::string csv = lbmc::test::same_output_at_1_and_2_threads(lbmc_run, args);
    CHECK(csv.rfind("experiment,dist,field,N,P,h,strategy,statistic,estimate,se,", 0) == 0);
    CHECK(csv.find(",choice:2 vs block,efficiency_diff.mean,") != std::string::npos);
    const Outcome other = lbmc_run("compare --dist exponential:1 --N 7,100 --P 4 --reps 3000 --seed 18 --quiet --csv -");
    CHECK(other.out != csv);
  }

  TEST_CASE("compare: --h is a sweep with its own column - the task times shared across it") {
    const Outcome run = lbmc_run(
        "compare --dist exponential:1 --N 40 --P 4 --h 0,0.5,2 --strategy block,self,chunk:4,guided --reps 2000 "
        "--seed 23 --quiet --csv -");
    REQUIRE(run.code == 0);
    // The row of a point and statistic, its first reference's line.
    const auto row = [&](const std::string& h, const std::string& strategy, const std::string& statistic) {
      const std::string key = ",exponential:1,iid,40,4," + h + "," + strategy + "," + statistic + ",";
      const std::size_t at = run.out.find(key);
      REQUIRE(at != std::string::npos);
      return run.out.substr(at + key.size(), run.out.find('\n', at) - at - key.size());
    };
    const auto estimate = [&](const std::string& h, const std::string& strategy) {
      return std::stod(row(h, strategy, "makespan.mean"));
    };
    // Block ignores h and, on the same seed, sees the same times at every h.
    CHECK(estimate("0", "block") == estimate("0.5", "block"));
    CHECK(estimate("0", "block") == estimate("2", "block"));
    // A dispatch cost only delays: the makespans grow with h; at h = 2 self
    // takes at least N·h = 80, chunk:4 at least its 10 chunks' 10·h = 20.
    for (const char* s : {"self", "chunk:4", "guided"}) {
      CAPTURE(s);
      CHECK(estimate("0", s) <= estimate("0.5", s));
      CHECK(estimate("0.5", s) <= estimate("2", s));
    }
    CHECK(estimate("2", "self") >= 80.0);
    CHECK(estimate("2", "chunk:4") >= 20.0);
    // Graham's bounds only at h = 0.
    CHECK(run.out.find(",40,4,0,self,makespan_ratio.mean,") != std::string::npos);
    CHECK(run.out.find(",40,4,0,chunk:4,makespan_ratio.mean,") != std::string::npos);
    CHECK(run.out.find(",graham-chunks,") != std::string::npos);
    for (const char* h : {"0.5", "2"}) {
      for (const char* s : {"self", "chunk:4", "guided"}) {
        CAPTURE(h);
        CAPTURE(s);
        const std::string key = std::string(",40,4,") + h + "," + s + ",makespan_ratio.mean,";
        std::size_t rows = 0;
        for (std::size_t at = run.out.find(key); at != std::string::npos; at = run.out.find(key, at + 1)) {
          ++rows;
          const std::string line = run.out.substr(at, run.out.find('\n', at) - at);
          CHECK(line.find(",graham-") == std::string::npos);
        }
        CHECK(rows == 1);  // the lower bound only
      }
    }
  }

  TEST_CASE("compare: exact references and bounds pass under --strict") {
    const Outcome run = lbmc_run(
        "compare --dist exponential:1 --dist constant:2 --dist gamma:2,1 --dist poisson:3 --N 4,64,70 --P 8 --reps 20000 --seed 19 "
        "--strict --quiet --csv -");
    CHECK(run.code == 0);
    for (const char* ref : {",list-exponential,exact,", ",max-of-iid,exact,", ",processor-sums,exact,",
                            ",multinomial,exact,", ",lower-bound,bound,", ",graham-list,bound,"}) {
      CAPTURE(ref);
      CHECK(run.out.find(ref) != std::string::npos);
    }
    CHECK(run.out.find(",fail\n") == std::string::npos);
    // 70 tasks on 8 processors: block holds 9 9 9 9 9 9 9 7, cyclic 9 9 9 9 9 9 8 8.
    for (const char* law : {"exponential:1", "poisson:3"}) {
      for (const char* s : {"block", "cyclic"}) {
        CAPTURE(law);
        CAPTURE(s);
        const std::string key = std::string(",") + law + ",iid,70,8,0," + s + ",makespan.mean,";
        const std::size_t at = run.out.find(key);
        REQUIRE(at != std::string::npos);
        CHECK(run.out.substr(at, run.out.find('\n', at) - at).find(",processor-sums,exact,") != std::string::npos);
      }
    }
    // The chunked schedules' references.
    const Outcome chunked = lbmc_run(
        "compare --dist exponential:1 --dist uniform:0,2 --N 4,64 --P 8 --strategy self,chunk:1,chunk:4,chunk:40,guided "
        "--reps 20000 --seed 20 --strict --quiet --csv -");
    CHECK(chunked.code == 0);
    for (const char* ref : {",chunk:1,makespan.mean,", ",chunk:1,makespan_ratio.mean,", ",list-exponential,exact,",
                            ",guided,makespan.mean,", ",max-of-iid,exact,", ",one-chunk,exact,",
                            ",kruskal-weiss,asymptotic,", ",graham-chunks,bound,"}) {
      CAPTURE(ref);
      CHECK(chunked.out.find(ref) != std::string::npos);
    }
    CHECK(chunked.out.find(",fail\n") == std::string::npos);
  }
}

TEST_SUITE("fast") {
  TEST_CASE("compare: the ranking by efficiency - highest first - ties in listed order - se to two digits") {
    exp::CompareSpec spec{exp::drawn_workload(dist::Exponential{1.0}, 10), {2}, exp::parse_strategies("block,self,chunk:16,lpt")};
    exp::CompareSample sample;
    const double values[4][2] = {{0.5, 0.7}, {0.8, 0.9}, {0.6, 0.6}, {0.8, 0.9}};
    for (int s = 0; s < 4; ++s) {
      for (const double v : values[s]) sample.strategy[s].efficiency.add(v);
    }
    // Means 0.6, 0.85, 0.6, 0.85; se 0.1, 0.05, 0, 0.05.
    CHECK(exp::efficiency_ranking(spec, sample) ==
          "  ranking by efficiency.mean (+- se):\n"
          "    1  self      0.850 +- 0.050\n"
          "    2  lpt       0.850 +- 0.050\n"
          "    3  block     0.60 +- 0.10\n"
          "    4  chunk:16  0.6000 +- 0.0000\n");
    // On stderr after each point, unless --quiet; never in the CSV.
    const Outcome loud = lbmc_run("compare --N 20 --P 4 --h 0,1 --reps 200 --seed 3 --csv -");
    REQUIRE(loud.code == 0);
    CHECK(lbmc::test::count_of(loud.err, "ranking by efficiency.mean") == 2);
    CHECK(loud.out.find("ranking") == std::string::npos);
    const Outcome quiet = lbmc_run("compare --N 20 --P 4 --reps 200 --seed 3 --quiet --csv -");
    CHECK(quiet.err.find("ranking") == std::string::npos);
  }

  TEST_CASE("compare: bad input exits 2 with one line and no file") {
    const fs::path target = lbmc_run.scratch / "never.csv";
    const char* cases[][2] = {
        {"compare --N 0", "--N"},
        {"compare --P 0", "--P"},
        {"compare --N 1.5", "--N"},
        {"compare --strategy fifo", "--strategy"},
        {"compare --strategy choice:0", "--strategy"},
        {"compare --strategy chunk:0", "--strategy"},
        {"compare --strategy self,chunk:x", "--strategy"},
        {"compare --P 4,16 --strategy choice:5", "--strategy"},
        {"compare --h -1", "--h"},
        {"compare --h nan", "--h"},
        {"compare --h 0,-0.5", "--h"},
        {"compare --h 0,x", "--h"},
        {"compare --h 0,1e300", "--h"},
        {"compare --dist normal:5,1", "--dist"},
        {"compare --dist uniform:-1,1", "--dist"},
        {"compare --dist constant:0", "--dist"},
        {"compare --reps 0", "--reps"},
    };
    for (const auto& c : cases) {
      CAPTURE(c[0]);
      const Outcome o = lbmc_run(std::string(c[0]) + " --csv " + target.string());
      CHECK(o.code == 2);
      CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
      CHECK(o.err.find(c[1]) != std::string::npos);
      CHECK_FALSE(fs::exists(target));
    }
  }
}

}  // namespace compare_test
