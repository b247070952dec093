// `lbmc compare`: which decomposition for a workload. Every strategy is run
// on the same task times in each replication (common random numbers), so
// their differences are measured with far less noise than their levels.
//
// Per replication: N task times t_1..t_N (the workload, compare_workload.hpp:
// iid from a law, a correlated field, or measured times from a file), W =
// Σ t_i, and for each strategy an executed schedule on P processors with
// makespan C (the largest processor finish time):
//  - block:    processor p runs the contiguous tasks [p·c, (p+1)·c), c = ⌈N/P⌉;
//  - cyclic:   task i (0-based) runs on processor i mod P;
//  - random:   each task, in order, on a uniformly random processor;
//  - choice:D: each task, in order, on the processor with the fewest tasks so
//              far among D drawn uniformly with replacement (ties: the first
//              drawn) — the power of D choices by task counts, blind to times;
//  - self:     self-scheduling from a central queue in task order (list
//              scheduling, Graham 1966): task k (1-based) goes to the
//              processor that becomes free first and starts at
//              max(its free time, k·h), h the dispatch cost per task (the
//              dispatcher hands out one task every h);
//  - lpt:      longest processing time first (Graham 1969): tasks by
//              decreasing time, each to the least-loaded processor;
//  - chunk:K:  chunked self-scheduling with a fixed chunk size (Kruskal &
//              Weiss 1985): the central queue hands out K consecutive tasks
//              at a time (the last chunk may be shorter); chunk j (1-based)
//              goes to the processor free first and starts at max(its free
//              time, j·h), h now the dispatch cost per chunk; the processor
//              runs the chunk's tasks back to back. chunk:1 is self;
//  - guided:   guided self-scheduling (Polychronopoulos & Kuck 1987): as
//              chunk:K, but each chunk takes ⌈R/P⌉ of the R tasks still in
//              the queue (N = 10, P = 4: chunks of 3, 2, 2, 1, 1, 1);
//  - balanced-block: contiguous blocks of equal work, from the prefix sums
//              of the known times (Mehrotra–Ranka–Wang 1992, Figure 1, with
//              work in place of element counts): task i goes to processor
//              min(P − 1, ⌊P·(S_i + t_i/2)/W⌋), S_i the work before it, so a
//              processor's work is at most W/P + max t_i. The tasks start in
//              the block layout and move there by Approach 1 (Figure 2): a
//              left then a right pipeline of store-and-forward shifts between
//              neighbours, a stage costing τ + φ·(largest message of the
//              stage, in tasks), φ the cost of moving one task's data. C is
//              that movement time plus the largest balanced work (scheduler.cpp).
// The random draws of `random` and `choice:D` come from the replication's
// generator after the task times, strategy by strategy in the order listed,
// so a run is reproducible from its seed and its strategy list.
//
// Per replication and strategy: the makespan C, q = P·C/W (≥ 1: the
// busiest processor works at least the mean), the efficiency 1/q = W/(P·C),
// the imbalance q − 1 = (C − W/P)/(W/P), the ratio C/LB to the lower
// bound LB = max(W/P, max_i t_i) on every schedule's makespan, the overhead
// C − C₀ (C₀ the same strategy's makespan on the same times with free
// dispatch and data movement: h = τ = φ = 0; the movement time of
// balanced-block, the makespan lost to the dispatcher by self, chunk:K and
// guided, 0 for the others; a delay can also shorten a list schedule —
// Graham's anomalies — so a replication's overhead can be negative), and
// split_pairs, the fraction of the N − 1 neighbouring task pairs (i, i + 1)
// that run on different processors (0: perfect locality; block keeps all
// but P − 1 pairs together, cyclic splits every pair). Rounding of
// the sums can put q or C/LB an ulp or so below 1 (or C/LB above Graham's
// bound); values within (2N + 4)·ε of such a limit are read as the limit, and
// anything further off is kept as it is, so a wrong schedule still shows.
// With W = 0 (every time 0) the efficiency is 1 when C = 0 and 0 when the
// dispatch cost alone made C > 0; the imbalance and C/LB are undefined and
// not recorded (their rows count fewer replications); with N = 1 there are no
// pairs and split_pairs is not recorded.
//
// Strategies are kept in a fixed array of kMaxStrategies slots (the ones not
// listed stay empty), so the sample's fields, merging, checkpoints and MPI
// bytes follow from engine/fields.hpp as for every experiment.
//
// This header holds the experiment: its spec, its sample and statistics,
// and the simulation. Beside it: compare_workload.hpp (where the task times
// come from), machine.hpp (processors and costs), strategy.hpp (a strategy
// as a value, its spelling and the bounds it obeys), strategy_table.hpp
// (every fact of every strategy), scheduler.hpp (the schedules and their
// buffers), first_free.hpp (the winner tree of the list schedules) and
// makespans.hpp (one schedule on fixed times, for tests).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/statistics.hpp"
#include "compare_workload.hpp"
#include "machine.hpp"
#include "strategy.hpp"

namespace lbmc::exp {

//! One strategy's per-replication statistics.
struct StrategyStats {
  engine::Moments makespan;        //!< C
  engine::Moments efficiency;      //!< W/(P·C)
  engine::Moments imbalance;       //!< (C − W/P)/(W/P), replications with W > 0
  engine::Moments ratio;           //!< C/LB, replications with LB > 0
  engine::Moments efficiency_diff; //!< its efficiency minus the first strategy's (not for the first)
  engine::Moments overhead;        //!< C − C₀
  engine::Moments split_pairs;     //!< fraction of neighbouring pairs split, replications with N >= 2

  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.makespan, s.efficiency, s.imbalance, s.ratio, s.efficiency_diff, s.overhead, s.split_pairs);
  }
  //! --target-rse watches the makespan, the efficiency and C/LB; not the
  //! imbalance or the paired differences, whose mean can be 0 (a perfect
  //! schedule, two strategies equal in law), where no relative se is reached.
  static constexpr auto statistics() {
    using namespace engine::stat;
    using S = StrategyStats;
    return std::array{
        mean("makespan.mean", &S::makespan, "E C, the makespan").watched(),
        mean("efficiency.mean", &S::efficiency, "E[W/(P C)]").watched(),
        mean("imbalance.mean", &S::imbalance, "E[(C - W/P)/(W/P)], replications with W > 0"),
        mean("makespan_ratio.mean", &S::ratio, "E[C/LB], LB = max(W/P, max t_i)").watched(),
        mean("overhead.mean", &S::overhead, "E[C - C0], C0 with h = tau = phi = 0: dispatch and movement time"),
        mean("split_pairs.mean", &S::split_pairs,
             "E of the fraction of neighbouring tasks (i, i+1) on different processors (0: full locality)"),
        mean("efficiency_diff.mean", &S::efficiency_diff,
             "rows \"A vs B\", B the first strategy listed: E[eff_A - eff_B] on the same times"),
    };
  }
};

struct CompareSample {
  StrategyStats strategy[kMaxStrategies];  //!< in the order of CompareSpec::strategies

  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.strategy);
  }
};

struct CompareSpec {
  Workload workload;  //!< how the N task times of a replication arise
  Machine machine;
  std::vector<Strategy> strategies;

  std::int64_t tasks() const { return workload.tasks; }
  std::int64_t procs() const { return machine.procs; }
};

//! The strategies of `spec` ranked by efficiency.mean, highest first (ties
//! keep the listed order), one indented line each with its se, for stderr
//! after a point (not part of the CSV):
//!   ranking by efficiency.mean (+- se):
//!     1  lpt       0.7172 +- 0.0017
//!     2  self      0.5542 +- 0.0012
std::string efficiency_ranking(const CompareSpec& spec, const CompareSample& sample);

//! Variates per replication: N task times (drawn, or copied for measured
//! times), plus N·draws_per_task for each strategy (N per random, N·D per
//! choice:D; the throughput figure on stderr).
double compare_variates_per_rep(const CompareSpec& spec);

//! Bytes one thread holds for a replication, rounded up: per task
//! kCompareTaskBytes (its time; lpt's words, their radix-sort copies and
//! each task's processor: 20), per processor kCompareProcessorBytes (a
//! load, a count, a balanced block's start: 20; the winner tree's nodes,
//! each a time and an id, up to 4 per processor: 48), and the radix sort's
//! 32 KiB of counts.
inline constexpr int kCompareTaskBytes = 32;
inline constexpr int kCompareProcessorBytes = 72;
double compare_thread_bytes(std::int64_t tasks, std::int64_t procs);

//! Simulates every strategy of `spec` on common task times under `plan`
//! (about 2^16 units of work a block: N draws and N steps per strategy,
//! engine::block_size_for). Throws
//! engine::InputError when N < 1 or N or P > 2^32 − 1, P < 1, h, τ or φ is
//! negative or not finite, a choice:D has D > P, a chunk:K has K < 1, there
//! are no or too many strategies, the law can give negative times or has
//! mean ≤ 0, or measured times do not match N.
engine::Simulated<CompareSample> simulate_compare(const CompareSpec& spec, engine::RunPlan plan);

}  // namespace lbmc::exp
