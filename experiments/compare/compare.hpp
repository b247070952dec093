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
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/driver.hpp"
#include "lbmc/engine/fields.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/rng.hpp"
#include "lbmc/engine/scratch_vector.hpp"
#include "lbmc/engine/statistics.hpp"
#include "compare_workload.hpp"
#include "first_free.hpp"

namespace lbmc::exp {

using engine::ScratchVector;

//! One strategy of a run: its entry of the strategy table
//! (strategy_table.hpp, which holds every fact of it) and its integer
//! parameter, where the entry has one (D of choice:D, K of chunk:K).
struct Strategy {
  std::size_t entry = 0;       //!< index into kStrategyTable
  std::int64_t parameter = 0;  //!< 0 for the entries without one

  friend bool operator==(const Strategy&, const Strategy&) = default;
};

//! The most strategies one run compares.
inline constexpr int kMaxStrategies = 16;

//! The default --strategy list.
inline constexpr const char* kDefaultStrategies = "block,cyclic,random,choice:2,self,guided,balanced-block,lpt";

//! The spelling of a strategy in --strategy and in the output: the entry's
//! name, then :VALUE where it has a parameter (choice:2, chunk:16).
std::string to_string(const Strategy& s);

//! The strategy of the table entry named `name` with `parameter` (0 for an
//! entry without one), unchecked: for tests and one-off use. Throws
//! engine::InputError for a name that is not in the table.
Strategy strategy_named(std::string_view name, std::int64_t parameter = 0);

//! Parses one item of --strategy: NAME, or NAME:VALUE for an entry with a
//! parameter (an integer >= 1). Throws engine::InputError naming the item
//! for an unknown name (the message lists the table's names) or a malformed
//! or out-of-range value.
Strategy parse_strategy(std::string_view item);

//! Parses a comma list of strategies (repeats dropped, order kept). Throws
//! engine::InputError as parse_strategy does, and for an empty list or
//! more than kMaxStrategies.
std::vector<Strategy> parse_strategies(std::string_view text);

//! The strategies as --strategy's help lists them, from the table:
//! "block, cyclic, random, choice:D (1 <= D <= P), ...".
std::string strategy_list_help();

//! One line a strategy for --help, from the table: "  choice:D        each
//! task on ...".
std::string strategy_lines_help();

//! The machine a schedule runs on: P processors, the dispatch cost h (per
//! task of self, per chunk of chunk:K and guided) and the data-movement
//! costs of balanced-block, τ per message and φ per task moved.
struct Machine {
  std::int64_t procs = 1;
  double h = 0.0;
  double tau = 0.0;
  double phi = 0.0;

  //! The same processors with free dispatch and movement.
  Machine without_costs() const { return {procs, 0.0, 0.0, 0.0}; }
  bool has_costs() const { return h != 0.0 || tau != 0.0 || phi != 0.0; }
};

// The facts below follow from the entry's facts in the table (its chunks,
// its dispatch and its checks); the strategies named are today's entries.

//! True for the strategies that are list schedules of single tasks with no
//! idle time while tasks wait (Graham 1966): chunks of one task, and no
//! dispatch cost where a queue dispatches them (`lpt` always, `self` and
//! `chunk:1` when h = 0). They obey
//! C ≤ W/P + (1 − 1/P)·max t_i ≤ (2 − 1/P)·LB.
bool is_list_schedule(const Strategy& s, double h);

//! The most tasks one chunk of `s` holds on N tasks and P processors:
//! min(K, N) for chunk:K, ⌈N/P⌉ for guided (its first chunk), 1 for the
//! task-by-task schedules (self, lpt) and 0 for the others (not list
//! schedules).
std::int64_t largest_chunk(const Strategy& s, std::int64_t tasks, std::int64_t procs);

//! An upper bound on C/LB that holds in every replication, where one is
//! known: 2 − 1/P for the list schedules (is_list_schedule), for chunk:K
//! and guided with h = 0, 1 + (1 − 1/P)·min(K*, P), K* = largest_chunk, and
//! 2 for balanced-block with τ = φ = 0 (a processor's tasks have their
//! midpoints in an interval of work W/P, so its work is at most
//! W/P + max t_i ≤ 2·LB).
//! Proof for the chunked ones: they are list schedules of the chunks, so
//! Graham's argument (1966) gives C ≤ W/P + (1 − 1/P)·T*, T* the largest
//! chunk's total time; T* ≤ K*·max t_i ≤ K*·LB and T* ≤ W ≤ P·LB. With K* = 1
//! this is Graham's 2 − 1/P. With h > 0 a processor can idle while the
//! dispatcher catches up; the same argument then gives only
//! C ≤ W/P + (1 − 1/P)·T* + J·h (J chunks), not a constant multiple of LB,
//! so no bound is given; nor for balanced-block with movement costs, which
//! do not scale with LB. nullopt for block, cyclic, random and choice:D.
std::optional<double> ratio_upper_bound(const Strategy& s, std::int64_t tasks, const Machine& machine);

//! The processors drawn uniformly per task from the replication's
//! generator: 1 for random, D for choice:D, 0 for the others.
std::int64_t draws_per_task(const Strategy& s);

//! Throws engine::InputError ("compare: choice:9 needs 1 <= D <= P = 8")
//! when the parameter of `s` lies outside its range on `procs` processors.
void require_parameter_in_range(const Strategy& s, std::int64_t procs);

//! LB = max(W/P, max_i t_i): no schedule of these times on P processors
//! finishes earlier (some processor does at least the mean work, and the
//! longest task runs somewhere). 0 for no tasks.
double makespan_lower_bound(std::span<const double> times, std::int64_t procs);

//! What one strategy's schedule gave on one replication's times.
struct Outcome {
  double makespan = 0.0;         //!< C
  double overhead = 0.0;         //!< C − C₀, C₀ the makespan with free dispatch and movement
  std::int64_t split_pairs = 0;  //!< neighbouring pairs (i, i + 1) on different processors
};

//! What one schedule runs on: a replication's times (each >= 0), the
//! machine, the strategy's parameter and the replication's generator
//! (random and choice draw from it).
struct Job {
  std::span<const double> times;
  Machine machine;
  std::int64_t parameter = 0;
  engine::Generator* gen = nullptr;
};

//! Executes strategies on a replication's times, reusing its buffers
//! (per processor: loads, counts, the winner tree of first_free.hpp, the
//! balanced layout; per task: lpt's processor of each task, and the order
//! of the tasks by time, sorted as words of a key and an index).
class Scheduler {
 public:
  //! The schedule of `s` on `times` (each >= 0) on `machine`; draws from
  //! `gen` for random and choice. With a dispatch cost h > 0 the queue
  //! schedules run a second time without it, for C₀.
  Outcome run(const Strategy& s, std::span<const double> times, const Machine& machine, engine::Generator& gen);

  // The schedules, one a strategy: the table (strategy_table.hpp) names them.
  Outcome block(const Job& job);
  Outcome cyclic(const Job& job);
  Outcome random(const Job& job);
  Outcome choice(const Job& job);
  Outcome self(const Job& job);
  Outcome lpt(const Job& job);
  Outcome chunk(const Job& job);
  Outcome guided(const Job& job);
  Outcome balanced_block(const Job& job);

 private:
  // choice's placements into loads_ and counts_; returns the split pairs.
  template <int kChoices>
  std::int64_t place_by_choice(std::span<const double> times, std::int64_t d, engine::Generator& gen);
  // chunk:K (fixed > 0) or guided (fixed = 0).
  Outcome chunked(std::span<const double> times, std::int64_t procs, std::int64_t fixed, double h);

  std::vector<double> loads_;
  std::vector<std::uint32_t> counts_;                  // choice: tasks per processor (N < 2^32)
  FirstFree first_free_;                               // self, lpt, chunk:K, guided
  ScratchVector<std::uint32_t> owner_;                 // lpt: each task's processor
  ScratchVector<std::uint64_t> words_, scratch_words_; // lpt's sort: a time's key with its task's index
  std::vector<std::uint32_t> counts_radix_;
  std::vector<std::int64_t> starts_;                   // balanced-block: first task of each processor
};

//! The makespans of the strategies on fixed times, for tests and one-off
//! use (each allocates its own Scheduler). Preconditions: procs ≥ 1,
//! times ≥ 0, 1 ≤ d ≤ procs, k ≥ 1, h ≥ 0.
double makespan_block(std::span<const double> times, std::int64_t procs);
double makespan_cyclic(std::span<const double> times, std::int64_t procs);
double makespan_random(std::span<const double> times, std::int64_t procs, engine::Generator& gen);
double makespan_choice(std::span<const double> times, std::int64_t procs, std::int64_t d, engine::Generator& gen);
double makespan_self(std::span<const double> times, std::int64_t procs, double h);
double makespan_lpt(std::span<const double> times, std::int64_t procs);
double makespan_chunk(std::span<const double> times, std::int64_t procs, std::int64_t k, double h);
double makespan_guided(std::span<const double> times, std::int64_t procs, double h);
//! The whole outcome of one strategy on fixed times, for tests.
Outcome schedule_outcome(const Strategy& s, std::span<const double> times, const Machine& machine,
                         engine::Generator& gen);

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
  void merge(const StrategyStats& other) { engine::merge_fields(*this, other); }
};

struct CompareSample {
  StrategyStats strategy[kMaxStrategies];  //!< in the order of CompareSpec::strategies

  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.strategy);
  }
  void merge(const CompareSample& other) { engine::merge_fields(*this, other); }
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
//! (block size from the variates per replication). Throws
//! engine::InputError when N < 1 or N or P > 2^32 − 1, P < 1, h, τ or φ is
//! negative or not finite, a choice:D has D > P, a chunk:K has K < 1, there
//! are no or too many strategies, the law can give negative times or has
//! mean ≤ 0, or measured times do not match N.
engine::Simulated<CompareSample> simulate_compare(const CompareSpec& spec, engine::RunPlan plan);


}  // namespace lbmc::exp
