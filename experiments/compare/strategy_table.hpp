// The strategies of `lbmc compare` as data: one entry per strategy, holding
// every fact that the rest of the command derives from it: parsing and
// printing of --strategy, its help and the --help list, the variates per
// replication, the range check of the parameter, which schedules pay the
// dispatch cost, the bounds on C/LB (ratio_upper_bound, is_list_schedule,
// largest_chunk), the references of the makespan (command.cpp) and the
// schedule the kernel runs. Adding a strategy means one entry here, its
// schedule (a Scheduler member, scheduler.cpp) and its tests.
//
// The entries' order is that of --help and of the names in error messages.
// The facts, and what each decides:
//  - name, parameter: --strategy spells the entry NAME, or NAME:VALUE with
//    an integer VALUE >= 1 where `parameter` names one (D, K); with
//    parameter_at_most_procs the value must also be <= P.
//  - help: one line of --help (a '\n' continues it on an indented line).
//  - draws: processors drawn uniformly per task from the replication's
//    generator, after the task times (the variates per replication on
//    stderr; 1 and >= 2 select the references of random placement).
//  - dispatch: `queue` when a central queue hands out the tasks or chunks,
//    one every h (Scheduler::run then runs it again with h = 0 for C₀);
//    `none` when the placement needs no dispatcher (h is not paid).
//  - chunks: how the strategy cuts the tasks when it is a list schedule
//    (Graham 1966) of chunks, each to the processor free first: one task
//    at a time, K (the parameter) at a time, or guided's ⌈R/P⌉ of the R
//    tasks left; `none` for the strategies that are not list schedules.
//    Graham's bounds on C/LB follow (compare.hpp, ratio_upper_bound).
//  - checks: the references and bounds that apply (command.cpp states when
//    each holds):
//      kOneChunk         exact `one-chunk`, when one chunk holds every task;
//      kListExponential  exact `list-exponential`, list schedules in task
//                        order with exponential tasks (is_list_schedule);
//      kMaxOfIid         exact `max-of-iid` for N <= P, where every task then
//                        starts at 0 on a processor of its own (single-task
//                        chunks or no chunks, and h = 0 for a queue);
//      kMultinomial      exact `multinomial` (constant tasks, one draw a task);
//      kPowerOfChoices   exact `power-of-choices` and asymptotic
//                        `fluid-limit` (constant tasks, two or more draws);
//      kKruskalWeiss     asymptotic `kruskal-weiss` (chunks of K, h = 0);
//      kBalancedWork     bound `balanced-work` (C/LB <= 2 with τ = φ = 0).
//  - processor_groups: where N and P alone fix each processor's task count
//    (block, cyclic), the groups of equal counts: exact `processor-sums`.
//  - schedule: the Scheduler member that runs it.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "lbmc/analytic/max_of_sums.hpp"
#include "scheduler.hpp"
#include "strategy.hpp"

namespace lbmc::exp {

enum class Draws { none, one, parameter };
enum class Dispatch { none, queue };
enum class Chunks { none, one_task, parameter, guided };

//! The references and bounds a strategy is checked against (bit flags).
enum Check : unsigned {
  kOneChunk = 1u << 0,
  kListExponential = 1u << 1,
  kMaxOfIid = 1u << 2,
  kMultinomial = 1u << 3,
  kPowerOfChoices = 1u << 4,
  kKruskalWeiss = 1u << 5,
  kBalancedWork = 1u << 6,
};

using ProcessorGroups = std::vector<analytic::SumGroup> (*)(std::int64_t tasks, std::int64_t procs);
using Schedule = Outcome (Scheduler::*)(const Job&);

struct StrategyEntry {
  std::string_view name = {};
  std::string_view parameter = {};  // empty: none
  bool parameter_at_most_procs = false;
  std::string_view help = {};
  Draws draws = Draws::none;
  Dispatch dispatch = Dispatch::none;
  Chunks chunks = Chunks::none;
  unsigned checks = 0;
  ProcessorGroups processor_groups = nullptr;
  Schedule schedule = nullptr;
};

inline constexpr std::array kStrategyTable{
    StrategyEntry{.name = "block",
                  .help = "chunks of c = ceil(N/P) contiguous tasks: processor p runs [p c, (p+1) c)",
                  .checks = kMaxOfIid,
                  .processor_groups = analytic::block_groups,
                  .schedule = &Scheduler::block},
    StrategyEntry{.name = "cyclic",
                  .help = "task i on processor i mod P",
                  .checks = kMaxOfIid,
                  .processor_groups = analytic::cyclic_groups,
                  .schedule = &Scheduler::cyclic},
    StrategyEntry{.name = "random",
                  .help = "each task on a uniformly drawn processor",
                  .draws = Draws::one,
                  .checks = kMultinomial,
                  .schedule = &Scheduler::random},
    StrategyEntry{.name = "choice",
                  .parameter = "D",
                  .parameter_at_most_procs = true,
                  .help = "each task on the processor with the fewest tasks among D drawn uniformly (ties: the\n"
                          "first drawn): the power of D choices",
                  .draws = Draws::parameter,
                  .checks = kMultinomial | kPowerOfChoices,
                  .schedule = &Scheduler::choice},
    StrategyEntry{.name = "self",
                  .help = "list scheduling from a central queue in task order (Graham); task k (from 1) starts >= k*h",
                  .dispatch = Dispatch::queue,
                  .chunks = Chunks::one_task,
                  .checks = kListExponential | kMaxOfIid,
                  .schedule = &Scheduler::self},
    StrategyEntry{.name = "lpt",
                  .help = "longest processing time first, each task to the least loaded processor (Graham)",
                  .chunks = Chunks::one_task,
                  .checks = kMaxOfIid,
                  .schedule = &Scheduler::lpt},
    StrategyEntry{.name = "chunk",
                  .parameter = "K",
                  .help = "self-scheduling of K tasks at a time (Kruskal-Weiss); chunk j (from 1) starts >= j*h",
                  .dispatch = Dispatch::queue,
                  .chunks = Chunks::parameter,
                  .checks = kOneChunk | kListExponential | kMaxOfIid | kKruskalWeiss,
                  .schedule = &Scheduler::chunk},
    StrategyEntry{.name = "guided",
                  .help = "chunks of ceil(remaining/P) (Polychronopoulos-Kuck); chunk j (from 1) starts >= j*h",
                  .dispatch = Dispatch::queue,
                  .chunks = Chunks::guided,
                  .checks = kOneChunk | kMaxOfIid,
                  .schedule = &Scheduler::guided},
    StrategyEntry{.name = "balanced-block",
                  .help = "contiguous blocks of equal work from the prefix sums, task i to floor(P (S_i + t_i/2)/W);\n"
                          "reached from block by Mehrotra's approach 1, a stage costing tau + phi * tasks of its\n"
                          "largest message",
                  .checks = kBalancedWork,
                  .schedule = &Scheduler::balanced_block},
};

//! The entry of `s`.
inline const StrategyEntry& entry_of(const Strategy& s) { return kStrategyTable[s.entry]; }

// What the table's readers rely on: names written once; a parameter's
// facts only where there is one; and no queue schedule that draws, since a
// queue schedule runs twice when h > 0 (for C₀) and a second run that drew
// would shift every later strategy's draws.
consteval bool table_is_consistent() {
  for (std::size_t i = 0; i < kStrategyTable.size(); ++i) {
    const StrategyEntry& e = kStrategyTable[i];
    for (std::size_t j = 0; j < i; ++j) {
      if (kStrategyTable[j].name == e.name) return false;
    }
    const bool uses_parameter =
        e.parameter_at_most_procs || e.draws == Draws::parameter || e.chunks == Chunks::parameter;
    if (e.parameter.empty() && uses_parameter) return false;
    if (e.dispatch == Dispatch::queue && e.draws != Draws::none) return false;
    if (e.name.empty() || e.help.empty()) return false;
  }
  return true;
}
static_assert(table_is_consistent());

}  // namespace lbmc::exp
