// A strategy of `lbmc compare` as a value (an entry of the strategy table
// and its parameter), its spelling on the command line and in the output,
// and the facts that follow from its entry: whether it is a list schedule,
// its largest chunk, the bound on C/LB it obeys in every replication, its
// draws per task and its parameter's range. The table itself, with every
// fact of every strategy, is strategy_table.hpp; the model is compare.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "machine.hpp"

namespace lbmc::exp {

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

}  // namespace lbmc::exp
