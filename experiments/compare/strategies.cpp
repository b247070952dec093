// The strategies of `lbmc compare` as names and facts: their spelling, the
// parser of --strategy, and the bounds that hold for every replication
// (compare.hpp has the model and the proofs).
#include <algorithm>

#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"
#include "compare.hpp"

namespace lbmc::exp {

namespace {

const char* kind_name(StrategyKind kind) {
  switch (kind) {
    case StrategyKind::block: return "block";
    case StrategyKind::cyclic: return "cyclic";
    case StrategyKind::random: return "random";
    case StrategyKind::choice: return "choice";
    case StrategyKind::self: return "self";
    case StrategyKind::lpt: return "lpt";
    case StrategyKind::chunk: return "chunk";
    case StrategyKind::guided: return "guided";
    case StrategyKind::balanced_block: return "balanced-block";
  }
  return "";
}

constexpr const char* kStrategyNames = "block, cyclic, random, choice:D, self, lpt, chunk:K, guided, balanced-block";

// The integer parameter of NAME:VALUE (D or K), >= 1.
std::int64_t parameter_of(std::string_view item, std::size_t prefix, const char* name) {
  std::int64_t value = 0;
  try {
    value = engine::parse_integer(item.substr(prefix));
  } catch (const engine::InputError&) {
    throw engine::InputError(fmt::format("'{}': {} must be an integer >= 1", item, name));
  }
  if (value < 1) throw engine::InputError(fmt::format("'{}': {} must be >= 1", item, name));
  return value;
}

}  // namespace

std::string to_string(const Strategy& s) {
  if (s.kind == StrategyKind::choice) return fmt::format("choice:{}", s.d);
  if (s.kind == StrategyKind::chunk) return fmt::format("chunk:{}", s.k);
  return kind_name(s.kind);
}

std::vector<Strategy> parse_strategies(std::string_view text) {
  std::vector<Strategy> strategies;
  for (const std::string_view item : engine::split(text, ',')) {
    Strategy s;
    if (item.substr(0, 7) == "choice:") {
      s.kind = StrategyKind::choice;
      s.d = parameter_of(item, 7, "D");
    } else if (item.substr(0, 6) == "chunk:") {
      s.kind = StrategyKind::chunk;
      s.k = parameter_of(item, 6, "K");
    } else {
      bool known = false;
      for (const StrategyKind kind : {StrategyKind::block, StrategyKind::cyclic, StrategyKind::random,
                                      StrategyKind::self, StrategyKind::lpt, StrategyKind::guided,
                                      StrategyKind::balanced_block}) {
        if (item == kind_name(kind)) {
          s.kind = kind;
          known = true;
        }
      }
      if (!known) throw engine::InputError(fmt::format("'{}' is not a strategy ({})", item, kStrategyNames));
    }
    if (std::find(strategies.begin(), strategies.end(), s) == strategies.end()) strategies.push_back(s);
  }
  if (strategies.size() > static_cast<std::size_t>(kMaxStrategies)) {
    throw engine::InputError(fmt::format("'{}': at most {} strategies", text, kMaxStrategies));
  }
  return strategies;
}

bool is_list_schedule(const Strategy& s, double h) {
  if (s.kind == StrategyKind::lpt) return true;
  return h == 0.0 && (s.kind == StrategyKind::self || (s.kind == StrategyKind::chunk && s.k == 1));
}

std::int64_t largest_chunk(const Strategy& s, std::int64_t tasks, std::int64_t procs) {
  switch (s.kind) {
    case StrategyKind::self:
    case StrategyKind::lpt: return 1;
    case StrategyKind::chunk: return std::min(s.k, tasks);
    case StrategyKind::guided: return tasks / procs + static_cast<std::int64_t>(tasks % procs != 0);
    default: return 0;
  }
}

std::optional<double> ratio_upper_bound(const Strategy& s, std::int64_t tasks, const Machine& machine) {
  const double p = static_cast<double>(machine.procs);
  if (s.kind == StrategyKind::balanced_block) {
    // W/P + max t_i <= 2·LB (compare.hpp); movement costs do not scale with LB.
    if (machine.tau == 0.0 && machine.phi == 0.0) return 2.0;
    return std::nullopt;
  }
  if (is_list_schedule(s, machine.h)) return 2.0 - 1.0 / p;  // Graham (1966)
  if (machine.h != 0.0 || (s.kind != StrategyKind::chunk && s.kind != StrategyKind::guided)) return std::nullopt;
  // Graham's argument on the chunks (compare.hpp): 1 + (1 − 1/P)·min(K*, P).
  const std::int64_t most = largest_chunk(s, tasks, machine.procs);
  if (most <= 1) return 2.0 - 1.0 / p;
  return 1.0 + (1.0 - 1.0 / p) * static_cast<double>(std::min(most, machine.procs));
}

}  // namespace lbmc::exp
