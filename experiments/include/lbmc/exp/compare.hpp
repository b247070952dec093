// `lbmc compare`: which decomposition for a workload. Every strategy is run
// on the same task times in each replication (common random numbers), so
// their differences are measured with far less noise than their levels.
//
// Per replication: N task times t_1..t_N drawn iid from the task law (mean
// m > 0, values >= 0), W = Σ t_i, and for each strategy an executed schedule
// on P processors with makespan C (the largest processor finish time):
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
//              the queue (N = 10, P = 4: chunks of 3, 2, 2, 1, 1, 1).
// The random draws of `random` and `choice:D` come from the replication's
// generator after the task times, strategy by strategy in the order listed,
// so a run is reproducible from its seed and its strategy list.
//
// Per replication and strategy: the makespan C, q = P·C/W (≥ 1: the
// busiest processor works at least the mean), the efficiency 1/q = W/(P·C),
// the imbalance q − 1 = (C − W/P)/(W/P), and the ratio C/LB to the lower
// bound LB = max(W/P, max_i t_i) on every schedule's makespan. Rounding of
// the sums can put q or C/LB an ulp or so below 1 (or C/LB above Graham's
// bound); values within (2N + 4)·ε of such a limit are read as the limit, and
// anything further off is kept as it is, so a wrong schedule still shows.
// With W = 0 (every time 0) the efficiency is 1 when C = 0 and 0 when the
// dispatch cost alone made C > 0; the imbalance and C/LB are undefined and
// not recorded (their rows count fewer replications).
//
// Strategies are kept in a fixed array of kMaxStrategies slots (the ones not
// listed stay empty), so the sample's fields, merging, checkpoints and MPI
// bytes follow from engine/fields.hpp as for every experiment.
#pragma once

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

namespace lbmc::exp {

enum class StrategyKind { block, cyclic, random, choice, self, lpt, chunk, guided };

struct Strategy {
  StrategyKind kind = StrategyKind::block;
  std::int64_t d = 0;  //!< choice:D only: processors probed per task
  std::int64_t k = 0;  //!< chunk:K only: tasks per chunk

  friend bool operator==(const Strategy&, const Strategy&) = default;
};

//! The most strategies one run compares.
inline constexpr int kMaxStrategies = 16;

//! The default --strategy list.
inline constexpr const char* kDefaultStrategies = "block,cyclic,random,choice:2,self,lpt";

//! The spelling of a strategy in --strategy and in the output: block,
//! cyclic, random, choice:D, self, lpt, chunk:K, guided.
std::string to_string(const Strategy& s);

//! Parses a comma list of strategies (repeats dropped, order kept). Throws
//! engine::InputError naming the item for an unknown name, a malformed or
//! out-of-range D or K (D, K >= 1), an empty list or more than kMaxStrategies.
std::vector<Strategy> parse_strategies(std::string_view text);

//! True for the strategies that are list schedules of single tasks with no
//! idle time while tasks wait (Graham 1966): `lpt` always, `self` and
//! `chunk:1` when h = 0. They obey C ≤ W/P + (1 − 1/P)·max t_i ≤ (2 − 1/P)·LB.
bool is_list_schedule(const Strategy& s, double h);

//! The most tasks one chunk of `s` holds on N tasks and P processors:
//! min(K, N) for chunk:K, ⌈N/P⌉ for guided (its first chunk), 1 for the
//! task-by-task schedules (self, lpt) and 0 for the others (not chunked).
std::int64_t largest_chunk(const Strategy& s, std::int64_t tasks, std::int64_t procs);

//! An upper bound on C/LB that holds in every replication, where one is
//! known: 2 − 1/P for the list schedules (is_list_schedule), and for chunk:K
//! and guided with h = 0, 1 + (1 − 1/P)·min(K*, P), K* = largest_chunk.
//! Proof for the chunked ones: they are list schedules of the chunks, so
//! Graham's argument (1966) gives C ≤ W/P + (1 − 1/P)·T*, T* the largest
//! chunk's total time; T* ≤ K*·max t_i ≤ K*·LB and T* ≤ W ≤ P·LB. With K* = 1
//! this is Graham's 2 − 1/P. With h > 0 a processor can idle while the
//! dispatcher catches up; the same argument then gives only
//! C ≤ W/P + (1 − 1/P)·T* + J·h (J chunks), not a constant multiple of LB,
//! so no bound is given. nullopt for block, cyclic, random and choice:D.
std::optional<double> ratio_upper_bound(const Strategy& s, std::int64_t tasks, std::int64_t procs, double h);

//! Uniform integer in [0, bound), bound ≥ 1, without bias: Lemire's
//! multiply-shift with rejection (Lemire 2019); one generator output unless
//! rejected (probability below bound/2^64).
std::uint64_t uniform_below(engine::Generator& gen, std::uint64_t bound);

//! LB = max(W/P, max_i t_i): no schedule of these times on P processors
//! finishes earlier (some processor does at least the mean work, and the
//! longest task runs somewhere). 0 for no tasks.
double makespan_lower_bound(std::span<const double> times, std::int64_t procs);

//! Makespans of the strategies on fixed times (see the note at the top);
//! each allocates its own scratch, for tests and one-off use. Preconditions:
//! procs ≥ 1, times ≥ 0, 1 ≤ d ≤ procs, h ≥ 0.
double makespan_block(std::span<const double> times, std::int64_t procs);
double makespan_cyclic(std::span<const double> times, std::int64_t procs);
double makespan_random(std::span<const double> times, std::int64_t procs, engine::Generator& gen);
double makespan_choice(std::span<const double> times, std::int64_t procs, std::int64_t d, engine::Generator& gen);
double makespan_self(std::span<const double> times, std::int64_t procs, double h);
double makespan_lpt(std::span<const double> times, std::int64_t procs);
//! Preconditions as above and k ≥ 1.
double makespan_chunk(std::span<const double> times, std::int64_t procs, std::int64_t k, double h);
double makespan_guided(std::span<const double> times, std::int64_t procs, double h);

//! Executes strategies on a replication's times, reusing its buffers
//! (per processor: loads, counts, a heap; per task: a sorted copy and
//! radix keys for lpt).
class Scheduler {
 public:
  //! The makespan of `s` on `times` with `procs` processors and dispatch
  //! cost `h` (used by self, chunk:K and guided); draws from `gen` for random and choice.
  double makespan(const Strategy& s, std::span<const double> times, std::int64_t procs, double h,
                  engine::Generator& gen);

 private:
  double block(std::span<const double> times, std::int64_t procs);
  double cyclic(std::span<const double> times, std::int64_t procs);
  double random(std::span<const double> times, std::int64_t procs, engine::Generator& gen);
  double choice(std::span<const double> times, std::int64_t procs, std::int64_t d, engine::Generator& gen);
  double self(std::span<const double> times, std::int64_t procs, double h);
  double lpt(std::span<const double> times, std::int64_t procs);
  // chunk:K (fixed > 0) or guided (fixed = 0).
  double chunked(std::span<const double> times, std::int64_t procs, std::int64_t fixed, double h);

  std::vector<double> loads_;
  std::vector<std::int64_t> counts_;
  std::vector<double> heap_;
  std::vector<double> sorted_;
  std::vector<std::uint64_t> keys_, scratch_;  // lpt's radix sort
  std::vector<std::size_t> counts_radix_;
};

//! One strategy's per-replication statistics.
struct StrategyStats {
  engine::Moments makespan;        //!< C
  engine::Moments efficiency;      //!< W/(P·C)
  engine::Moments imbalance;       //!< (C − W/P)/(W/P), replications with W > 0
  engine::Moments ratio;           //!< C/LB, replications with LB > 0
  engine::Moments efficiency_diff; //!< its efficiency minus the first strategy's (not for the first)

  template <class Self>
  static auto fields(Self& s) {
    return std::tie(s.makespan, s.efficiency, s.imbalance, s.ratio, s.efficiency_diff);
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

//! The means --target-rse waits for: each strategy's makespan, efficiency
//! and C/LB. The imbalance and the paired differences are left out: their
//! mean can be 0 (a perfect schedule, two strategies equal in law), where no
//! relative se is ever reached.
std::vector<engine::MeanSummary> reported_means(const CompareSample& s);

struct CompareSpec {
  dist::LoadLaw law;
  std::int64_t tasks = 1;  //!< N
  std::int64_t procs = 1;  //!< P
  std::vector<Strategy> strategies;
  double h = 0.0;  //!< dispatch cost per task of self, per chunk of chunk:K and guided
};

//! The strategies of `spec` ranked by efficiency.mean, highest first (ties
//! keep the listed order), one indented line each with its se, for stderr
//! after a point (not part of the CSV):
//!   ranking by efficiency.mean (+- se):
//!     1  lpt       0.7172 +- 0.0017
//!     2  self      0.5542 +- 0.0012
std::string efficiency_ranking(const CompareSpec& spec, const CompareSample& sample);

//! Variates drawn per replication: N task times, plus N per random and N·D
//! per choice:D strategy (the throughput figure on stderr).
double compare_variates_per_rep(const CompareSpec& spec);

//! Bytes one thread holds for a replication: per task 32 (its time, lpt's
//! sorted copy and the two key arrays of its radix sort), per processor 24
//! (a load, a count and a heap entry), and the radix sort's 2 MiB of counts.
double compare_thread_bytes(std::int64_t tasks, std::int64_t procs);

//! Simulates every strategy of `spec` on common task times under `plan`
//! (block size from the variates per replication). Throws
//! engine::InputError when N < 1, P < 1, h < 0 or not finite, a choice:D has
//! D > P, a chunk:K has K < 1, there are no or too many strategies, or the law can give negative
//! times or has mean ≤ 0.
engine::Simulated<CompareSample> simulate_compare(const CompareSpec& spec, engine::RunPlan plan);


}  // namespace lbmc::exp
