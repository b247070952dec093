// The strategies of `lbmc compare` from their table (strategy_table.hpp):
// their spelling, the parser of --strategy, its help, and the facts that
// follow from the entries' (compare.hpp has the model and the proofs).
#include <algorithm>

#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"
#include "strategy_table.hpp"

namespace lbmc::exp {

namespace {

// NAME, or NAME:PARAMETER (choice:D).
std::string form_of(const StrategyEntry& e) {
  return e.parameter.empty() ? std::string(e.name) : fmt::format("{}:{}", e.name, e.parameter);
}

// The range of the parameter as --help states it: "1 <= D <= P", "K >= 1".
std::string range_of(const StrategyEntry& e) {
  return e.parameter_at_most_procs ? fmt::format("1 <= {} <= P", e.parameter) : fmt::format("{} >= 1", e.parameter);
}

// Every strategy's form, comma separated: the names of error messages.
std::string strategy_names() {
  std::string names;
  for (const StrategyEntry& e : kStrategyTable) names += (names.empty() ? "" : ", ") + form_of(e);
  return names;
}

// The integer parameter of NAME:VALUE, >= 1.
std::int64_t parameter_of(std::string_view item, std::size_t prefix, std::string_view name) {
  std::int64_t value = 0;
  try {
    value = engine::parse_integer(item.substr(prefix));
  } catch (const engine::InputError&) {
    throw engine::InputError(fmt::format("'{}': {} must be an integer >= 1", item, name));
  }
  if (value < 1) throw engine::InputError(fmt::format("'{}': {} must be >= 1", item, name));
  return value;
}

// Chunks of one task: one_task, or chunks of K with K = 1.
bool single_task_chunks(const Strategy& s) {
  const Chunks chunks = entry_of(s).chunks;
  return chunks == Chunks::one_task || (chunks == Chunks::parameter && s.parameter == 1);
}

}  // namespace

std::string to_string(const Strategy& s) {
  const StrategyEntry& e = entry_of(s);
  return e.parameter.empty() ? std::string(e.name) : fmt::format("{}:{}", e.name, s.parameter);
}

Strategy strategy_named(std::string_view name, std::int64_t parameter) {
  for (std::size_t i = 0; i < kStrategyTable.size(); ++i) {
    if (kStrategyTable[i].name == name) return {i, parameter};
  }
  throw engine::InputError(fmt::format("'{}' is not a strategy ({})", name, strategy_names()));
}

Strategy parse_strategy(std::string_view item) {
  for (std::size_t i = 0; i < kStrategyTable.size(); ++i) {
    const StrategyEntry& e = kStrategyTable[i];
    if (e.parameter.empty()) {
      if (item == e.name) return {i, 0};
    } else if (item.size() > e.name.size() && item.starts_with(e.name) && item[e.name.size()] == ':') {
      return {i, parameter_of(item, e.name.size() + 1, e.parameter)};
    }
  }
  throw engine::InputError(fmt::format("'{}' is not a strategy ({})", item, strategy_names()));
}

std::vector<Strategy> parse_strategies(std::string_view text) {
  std::vector<Strategy> strategies;
  for (const std::string_view item : engine::split(text, ',')) {
    const Strategy s = parse_strategy(item);
    if (std::find(strategies.begin(), strategies.end(), s) == strategies.end()) strategies.push_back(s);
  }
  if (strategies.size() > static_cast<std::size_t>(kMaxStrategies)) {
    throw engine::InputError(fmt::format("'{}': at most {} strategies", text, kMaxStrategies));
  }
  return strategies;
}

std::string strategy_list_help() {
  std::string text;
  for (const StrategyEntry& e : kStrategyTable) {
    text += (text.empty() ? "" : ", ") + form_of(e);
    if (!e.parameter.empty()) text += fmt::format(" ({})", range_of(e));
  }
  return text;
}

std::string strategy_lines_help() {
  constexpr int kWidth = 16;
  std::string text;
  for (const StrategyEntry& e : kStrategyTable) {
    std::string help(e.help);
    for (std::size_t at = help.find('\n'); at != std::string::npos; at = help.find('\n', at + 1)) {
      help.insert(at + 1, std::string(kWidth + 2, ' '));
    }
    text += fmt::format("  {:<{}}{}\n", form_of(e), kWidth, help);
  }
  return text;
}

bool is_list_schedule(const Strategy& s, double h) {
  return single_task_chunks(s) && (entry_of(s).dispatch == Dispatch::none || h == 0.0);
}

std::int64_t largest_chunk(const Strategy& s, std::int64_t tasks, std::int64_t procs) {
  switch (entry_of(s).chunks) {
    case Chunks::none: return 0;
    case Chunks::one_task: return 1;
    case Chunks::parameter: return std::min(s.parameter, tasks);
    case Chunks::guided: return tasks / procs + static_cast<std::int64_t>(tasks % procs != 0);
  }
  return 0;
}

std::optional<double> ratio_upper_bound(const Strategy& s, std::int64_t tasks, const Machine& machine) {
  const StrategyEntry& e = entry_of(s);
  const double p = static_cast<double>(machine.procs);
  if ((e.checks & kBalancedWork) != 0) {
    // W/P + max t_i <= 2·LB (compare.hpp); movement costs do not scale with LB.
    if (machine.tau == 0.0 && machine.phi == 0.0) return 2.0;
    return std::nullopt;
  }
  // Graham's argument on the chunks (compare.hpp): 1 + (1 − 1/P)·min(K*, P),
  // 2 − 1/P for single tasks (Graham 1966); none while a dispatcher with
  // h > 0 can keep processors idle.
  if (e.chunks == Chunks::none || (e.dispatch == Dispatch::queue && machine.h != 0.0)) return std::nullopt;
  const std::int64_t most = largest_chunk(s, tasks, machine.procs);
  if (most <= 1) return 2.0 - 1.0 / p;
  return 1.0 + (1.0 - 1.0 / p) * static_cast<double>(std::min(most, machine.procs));
}

std::int64_t draws_per_task(const Strategy& s) {
  switch (entry_of(s).draws) {
    case Draws::none: return 0;
    case Draws::one: return 1;
    case Draws::parameter: return s.parameter;
  }
  return 0;
}

void require_parameter_in_range(const Strategy& s, std::int64_t procs) {
  const StrategyEntry& e = entry_of(s);
  if (e.parameter.empty()) return;
  if (e.parameter_at_most_procs && (s.parameter < 1 || s.parameter > procs)) {
    throw engine::InputError(fmt::format("compare: {} needs 1 <= {} <= P = {}", to_string(s), e.parameter, procs));
  }
  if (s.parameter < 1) throw engine::InputError(fmt::format("compare: {} needs {}", to_string(s), range_of(e)));
}

}  // namespace lbmc::exp
