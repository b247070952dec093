// `lbmc compare`: which decomposition for a workload (DESIGN §6, "Strategies
// compared"). Every strategy runs on the same N task times in each
// replication (common random numbers), so the paired differences of their
// efficiencies have a much smaller se than either efficiency.
//
// Per (workload: task law or measured times, field, N; P, dispatch cost h,
// strategy): `makespan.mean` (E C), `efficiency.mean` (E[W/(P·C)], the mean
// of the per-replication ratio, with its plain se), `imbalance.mean`
// (E[(C − W/P)/(W/P)]), `makespan_ratio.mean` (E[C/LB], LB = max(W/P,
// max t_i)), `overhead.mean` (E[C − C₀], dispatch and movement time) and
// `split_pairs.mean` (locality lost); and for every strategy A after the
// first listed, B, the paired difference `efficiency_diff.mean` =
// E[eff_A − eff_B] in the row whose strategy column reads `A vs B`.
//
// References, each valid for every replication or exactly in expectation
// (the bounds and one-chunk for any workload, the others for iid times):
//  - bound `lower-bound` (makespan_ratio.mean >= 1, all strategies): no
//    schedule beats LB, so every replication's C/LB is at least 1 and so is
//    its mean; the verdict passes unless the estimate lies more than z_tol·se
//    below 1;
//  - bound `graham-list` (makespan_ratio.mean <= 2 − 1/P, lpt, and self and
//    chunk:1 with h = 0, when N > P): a list schedule never leaves a processor idle while tasks wait,
//    so C <= W/P + (1 − 1/P)·max t_i (Graham 1966) <= (2 − 1/P)·LB. Graham's
//    4/3 − 1/(3P) for LPT (Graham 1969) is relative to the optimal makespan,
//    which LB only bounds from below, so it is not a bound on C/LB (P + 1
//    equal tasks give C_lpt/LB = 2P/(P + 1)) and is not used;
//  - bound `graham-chunks` (makespan_ratio.mean <= 1 + (1 − 1/P)·min(K*, P),
//    chunk:K and guided with h = 0, K* > 1 their largest chunk: K, or ⌈N/P⌉
//    for guided): Graham's argument on the chunks (compare.hpp,
//    ratio_upper_bound) holds in every replication. With h > 0 the dispatcher
//    can keep processors idle and no constant bound on C/LB follows;
//  - bound `balanced-work` (makespan_ratio.mean <= 2, balanced-block with
//    τ = φ = 0): a processor's work is at most W/P + max t_i (compare.hpp);
//  - exact `one-chunk` (chunk:K with K >= N, guided with P = 1): one
//    processor runs every task after the first dispatch, C = W + h, so
//    E C = N·m + h;
//  - exact `power-of-choices` (choice:D, D >= 2, constant tasks V): C = V·M,
//    M the largest task count, whose law follows from the Markov chain of
//    the sorted load profile (a task lands on a processor of load l with
//    probability s_l^D − s_{l+1}^D, s_l the fraction of processors holding
//    at least l; analytic/power_of_choices.hpp), in exact integer counts
//    of the P^{D·N} draw sequences, within a cost cap (N = P up to about 56
//    for D = 2; beyond it a note);
//  - asymptotic `fluid-limit` (the same case): V·Σ_i min(1, P·s_i(N/P)),
//    s_i the fluid limit ds_i/dt = s_{i−1}^D − s_i^D (Azar et al.;
//    Mitzenmacher), informational: it is neither exact nor a bound;
//  - asymptotic `kruskal-weiss` (chunk:K, h = 0, finite variance, N >= K·P):
//    E C ≈ N·m/P + σ·√(2·K·ln P) (Kruskal & Weiss 1985; analytic/
//    chunk_scheduling.hpp), informational: their limit needs N/(K·P) and
//    K/ln P large and IFR task times. Their overhead term h·N/(K·P) charges
//    h to the processor taking each chunk; here h is a serial dispatcher
//    (chunk j starts no earlier than j·h), which costs the processors
//    nothing while it keeps up, so the formula is given for h = 0 only;
//  - exact `list-exponential` (self and chunk:1, h = 0, exponential tasks of
//    mean m):
//    E C = m·((N − P)/P + H_P) for N >= P, m·H_N for N < P (compare.hpp);
//  - exact `max-of-iid` (block, cyclic, lpt, and self, chunk:1 and guided
//    with h = 0, when N <= P): every task has a processor to itself, C = max t_i, and E C is
//    the exact mean of the maximum of N iid task times (analytic/max_of_iid);
//  - exact `processor-sums` (block and cyclic, N > P): when P divides N
//    each processor sums n = N/P iid times, so E C = n·m·(1 + E l) with
//    Salmon's E l of the scattered decomposition; otherwise the processors
//    fall in groups of equal counts (block: ⌈N/P⌉ and one remainder;
//    cyclic: ⌈N/P⌉ and ⌊N/P⌋) and E C = ∫(1 − Π F_n(x)^m) dx
//    (analytic/max_of_sums.hpp); exact where the law of a processor sum is
//    known (exponential, gamma, the integer laws, constant);
//  - exact `multinomial` (random and choice:1 with constant tasks V): C =
//    V·M, M the maximum of a multinomial(N; 1/P, ..., 1/P) count vector
//    (analytic/multinomial_max, as in `lbmc assign`).
// Exact references that would exceed their cost bound are left out with a
// note (exp/references.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "lbmc/analytic/multinomial_max.hpp"
#include "lbmc/analytic/chunk_scheduling.hpp"
#include "lbmc/analytic/list_scheduling.hpp"
#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/analytic/max_of_sums.hpp"
#include "lbmc/analytic/power_of_choices.hpp"
#include "lbmc/analytic/scatter.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/rows.hpp"
#include "lbmc/engine/writers.hpp"
#include "lbmc/exp/command.hpp"
#include "lbmc/exp/references.hpp"
#include "lbmc/exp/report.hpp"
#include "compare.hpp"
#include "strategy_table.hpp"

namespace lbmc::exp {
namespace {

using analytic::list_exponential_mean_makespan;
using engine::Reference;
using engine::ReferenceKind;

// E C where N and P alone fix each processor's task count (`groups`): when
// P divides N every processor sums n = N/P times (Salmon's E l); otherwise
// the groups of equal counts of the layout (max_of_sums.hpp).
std::optional<double> processor_sums_mean(const dist::LoadLaw& law, ProcessorGroups groups, std::int64_t n,
                                          std::int64_t p) {
  if (n % p != 0) return analytic::max_of_sums_mean(law, groups(n, p));
  const std::int64_t per = n / p;
  const auto l = analytic::scatter_exact_mean(law, per, p);
  if (!l) return std::nullopt;
  const double proc_mean = static_cast<double>(per) * dist::mean(law);
  return proc_mean + proc_mean * *l;
}

// The references of one strategy's makespan.mean at `spec`: those its table
// entry names (strategy_table.hpp), where they hold.
std::vector<Reference> makespan_references(const CompareSpec& spec, const Strategy& s, engine::ResultTable& table,
                                           const std::vector<std::string>& params) {
  const StrategyEntry& entry = entry_of(s);
  const auto applies = [&](Check check) { return (entry.checks & check) != 0; };
  const std::int64_t n = spec.tasks();
  const std::int64_t p = spec.procs();
  const double h = spec.machine.h;
  const std::int64_t most = largest_chunk(s, n, p);
  std::vector<Reference> refs;
  // A value computed within its cost bound, or a note (exp/references.hpp).
  const auto add = [&](const char* name, ReferenceKind kind, auto compute) {
    const auto value = reference_or_note(table, params, "makespan.mean", name,
                                         [&]() -> std::optional<double> { return compute(); });
    if (value && *value) refs.push_back({name, kind, **value});
  };
  // One chunk holds every task: it starts at h on one processor, whatever
  // the times' dependence.
  if (applies(kOneChunk) && most == n) {
    refs.push_back({"one-chunk", ReferenceKind::exact, spec.workload.expected_total() + h});
  }
  // The other references need independent times of a known law.
  if (spec.workload.field.kind != Field::Kind::iid) return refs;
  const dist::LoadLaw& law = spec.workload.law;
  const auto* exponential = std::get_if<dist::Exponential>(&law);
  if (applies(kListExponential) && is_list_schedule(s, h) && exponential) {
    refs.push_back({"list-exponential", ReferenceKind::exact, list_exponential_mean_makespan(n, p, exponential->mean)});
  }
  // With N <= P every task starts at 0 on a processor of its own, unless a
  // chunk holds several or a dispatcher delays them.
  const bool at_zero = (entry.chunks == Chunks::none || most == 1) && (entry.dispatch == Dispatch::none || h == 0.0);
  if (applies(kMaxOfIid) && n <= p && at_zero) {
    add("max-of-iid", ReferenceKind::exact, [&] { return analytic::mean(analytic::MaxOfIid{law, n}); });
  }
  if (entry.processor_groups != nullptr && n > p) {
    add("processor-sums", ReferenceKind::exact, [&] { return processor_sums_mean(law, entry.processor_groups, n, p); });
  }
  // Constant tasks V: C = V·M, M the largest task count; multinomial with
  // one uniform draw a task, else the load profile's Markov chain and its
  // fluid limit (analytic/power_of_choices.hpp).
  const std::int64_t draws = draws_per_task(s);
  if (const auto* c = std::get_if<dist::Constant>(&law)) {
    if (applies(kMultinomial) && draws == 1) {
      add("multinomial", ReferenceKind::exact, [&] { return c->value * analytic::mean(analytic::MultinomialMax{n, p}); });
    }
    if (applies(kPowerOfChoices) && draws >= 2) {
      add("power-of-choices", ReferenceKind::exact, [&]() -> std::optional<double> {
        const auto m = analytic::choice_unit_max_law(n, p, draws);
        return m ? std::optional(c->value * m->mean) : std::nullopt;
      });
      add("fluid-limit", ReferenceKind::asymptotic,
          [&] { return c->value * analytic::choice_fluid_max_mean(n, p, draws); });
    }
  }
  const double sd = std::sqrt(dist::variance(law));
  if (applies(kKruskalWeiss) && h == 0.0 && n / s.parameter >= p && std::isfinite(sd)) {
    refs.push_back({"kruskal-weiss", ReferenceKind::asymptotic,
                    analytic::kruskal_weiss_mean_makespan(n, p, s.parameter, dist::mean(law), sd, 0.0)});
  }
  return refs;
}

// The statistics of `lbmc compare`.
std::vector<engine::StatisticInfo> compare_statistics() {
  return engine::describe<StrategyStats>("per strategy");
}

class CompareCommand final : public Command {
 public:
  CompareCommand()
      : Command("compare", "which decomposition for a workload: every strategy on the same tasks",
                compare_statistics()) {}

  void attach(OptionSet& options) override {
    dist_option_ = add_dist_option(options, dists_, "task-time law (values >= 0, mean > 0), repeatable: any law of the table below");
    field_option_ = options.text("--field", field_text_,
                                 "dependence of neighbouring times, comma list: iid, ar1:RHO (-1 < RHO < 1; a "
                                 "Gaussian AR(1) copula, on the log of lognormal times)")
                        .show_default();
    times_option_ = options.text("--times", times_spec_,
                                 "measured times in task order instead of --dist: FILE (one per line) or FILE:COLUMN "
                                 "(CSV); N is their count");
    n_option_ = options.text("--N", n_text_, "tasks N: list or range, each >= 1").show_default();
    options.text("--P", p_text_, "processors P: list or range, each >= 1").show_default();
    options.text("--strategy", strategy_text_,
                 "strategies, comma list of " + strategy_list_help() +
                     "; the first is the baseline of the paired differences")
        .show_default();
    options.text("--h", h_text_, "dispatch costs (each in [0, 1e100]), list or range: per task of self, per chunk of chunk:K and guided; "
                 "task (chunk) j starts no earlier than j*h")
        .show_default();
    options.text("--tau", tau_text_, "balanced-block: cost of one message between neighbours, in [0, 1e100]")
        .show_default();
    options.text("--phi", phi_text_, "balanced-block: cost of moving one task's data one link, in [0, 1e100]")
        .show_default();
    add_run_options(options, run_text_, "1e4");
    options.footer(
        "Output columns: experiment,dist,field,N,P,h,strategy,statistic,... Each replication fills N task times once\n"
        "and runs every strategy on them (common random numbers). Times: iid from --dist; --field ar1:RHO makes\n"
        "neighbours alike (t_i = F^-1(Phi(z_i)), z an AR(1) with correlation RHO, the same law F for every time);\n"
        "--times FILE uses measured times, the same in every replication (dist column times:FILE, field measured).\n"
        "W = sum of times, C = makespan, LB = max(W/P, max t_i). Statistics: makespan.mean, efficiency.mean =\n"
        "E[W/(P C)], imbalance.mean = E[(C - W/P)/(W/P)], makespan_ratio.mean = E[C/LB], overhead.mean = E[C - C0]\n"
        "(C0 with h = tau = phi = 0: dispatch and movement time on the makespan), split_pairs.mean = fraction of\n"
        "neighbouring tasks (i, i+1) on different processors (0 = full locality); rows with strategy \"A vs B\" (B the\n"
        "first listed): efficiency_diff.mean = E[eff_A - eff_B], paired on the same times.\n"
        "Strategies (tasks i and processors p counted from 0):\n" +
        strategy_lines_help() +
        "References: lower-bound (bound, makespan_ratio >= 1), graham-list (bound, makespan_ratio <= 2 - 1/P for\n"
        "lpt, and self and chunk:1 with h = 0; Graham 1966), graham-chunks (bound, makespan_ratio <= 1 + (1 - 1/P)\n"
        "min(K*, P) for chunk:K and guided with h = 0, K* the largest chunk), balanced-work (bound, makespan_ratio\n"
        "<= 2 for balanced-block with tau = phi = 0), one-chunk (exact, chunk:K and guided with every task in one\n"
        "chunk: N m + h, any field). With iid times only: list-exponential (exact, self and chunk:1 with h = 0,\n"
        "exponential tasks: m((N-P)/P + H_P), m H_N for N < P), max-of-iid (exact, block, cyclic, lpt, and self,\n"
        "chunk:1 and guided with h = 0, when N <= P: C = max t_i), processor-sums (exact, block and cyclic for\n"
        "N > P: the largest processor sum, n m (1 + E l) with Salmon's l when P | N), multinomial (exact, random and\n"
        "choice:1 with constant tasks), power-of-choices (exact, choice:D with D >= 2 and constant tasks: the\n"
        "load profile's Markov chain, within a cost cap), fluid-limit (asymptotic, the same: sum_i min(1, P s_i(N/P)),\n"
        "ds_i/dt = s_{i-1}^D - s_i^D),\n"
        "kruskal-weiss (asymptotic, chunk:K with h = 0 and N >= K P: N m/P + sd sqrt(2 K ln P)). When every time is\n"
        "0, efficiency is 1 (or 0 if dispatch alone took time) and the replication adds nothing to imbalance and\n"
        "makespan_ratio.\n");
  }

  std::unique_ptr<CheckedCommand> check(const std::string& command_line) override {
    RunOptions settings = check_run_options(run_text_);
    const std::vector<Workload> workloads = parse_workloads(settings.memory_limit);
    const auto procs =
        parse_option("--P", p_text_, [](const std::string& t) { return engine::parse_integer_list(t, 1); });
    const std::vector<Strategy> strategies = parse_option("--strategy", strategy_text_, parse_strategies);
    const std::int64_t fewest = *std::min_element(procs.begin(), procs.end());
    for (const Strategy& s : strategies) {
      const StrategyEntry& e = entry_of(s);
      if (e.parameter_at_most_procs && s.parameter > fewest) {
        throw engine::InputError(
            fmt::format("--strategy {}: {} = {} exceeds --P {}", to_string(s), e.parameter, s.parameter, fewest));
      }
    }
    const std::vector<double> costs = parse_costs("--h", h_text_);
    const double tau = parse_cost("--tau", tau_text_);
    const double phi = parse_cost("--phi", phi_text_);
    std::int64_t most_tasks = 0;
    for (const Workload& w : workloads) most_tasks = std::max(most_tasks, w.tasks);
    const std::int64_t most_procs = *std::max_element(procs.begin(), procs.end());
    require_memory(settings, settings.plan.threads * compare_thread_bytes(most_tasks, most_procs),
                   fmt::format("{} threads x ({} tasks x {} bytes + {} processors x {} bytes + 32 KiB)",
                               settings.plan.threads, most_tasks, kCompareTaskBytes, most_procs, kCompareProcessorBytes));

    std::vector<engine::InputFile> inputs;
    for (const Workload& w : workloads) {
      if (w.file) engine::add_input(inputs, *w.file);
    }
    return std::make_unique<CheckedExperiment>(std::move(settings), std::move(inputs), [=, this](const AppliedRun& applied) {
      Report report("compare", {"dist", "field", "N", "P", "h", "strategy"}, statistics(), applied, command_line);
      for (const Workload& workload : workloads) {
        for (const std::int64_t p : procs) {
          for (const double h : costs) run_point({workload, {p, h, tau, phi}, strategies}, applied, report);
        }
      }
      return report.finish();
    });
  }

 private:
  // The workloads to run, in the order of the loops: each law, each field,
  // each N; or the one measured file, read within `memory_budget` bytes
  // (--max-memory or what the machine allows).
  std::vector<Workload> parse_workloads(double memory_budget) const {
    if (times_option_.given()) {
      for (const DeclaredOption& other : {dist_option_, field_option_, n_option_}) {
        if (other.given()) {
          throw engine::InputError(fmt::format("--times gives the task times and their count: {} cannot be used with it",
                                               other.name()));
        }
      }
      return {parse_option("--times", times_spec_, [&](const std::string& spec) {
        return measured_workload(spec, memory_budget);
      })};
    }
    const std::vector<dist::LoadLaw> laws = parse_laws(dists_, [](const dist::LoadLaw& law) -> const char* {
      parse_option("--dist", std::string(), [&](const std::string&) {
        dist::require_nonnegative(law, "task times must be >= 0");
        return 0;
      });
      return dist::mean(law) > 0.0 ? nullptr : "task times need a mean > 0";
    });
    const std::vector<Field> fields = parse_option("--field", field_text_, [](const std::string& text) {
      std::vector<Field> parsed;
      for (const std::string_view item : engine::split(text, ',')) {
        const Field f = parse_field(item);
        if (std::find(parsed.begin(), parsed.end(), f) == parsed.end()) parsed.push_back(f);
      }
      return parsed;
    });
    const auto tasks =
        parse_option("--N", n_text_, [](const std::string& t) { return engine::parse_integer_list(t, 1); });
    std::vector<Workload> workloads;
    for (const dist::LoadLaw& law : laws) {
      for (const Field& field : fields) {
        for (const std::int64_t n : tasks) workloads.push_back(drawn_workload(law, n, field));
      }
    }
    return workloads;
  }


  static void run_point(const CompareSpec& spec, const AppliedRun& applied, Report& report) {
    const RunOptions& settings = applied.options();
    const std::string law = spec.workload.label();
    const std::string field = spec.workload.field.label();
    const std::string n = std::to_string(spec.tasks());
    const std::string p = std::to_string(spec.procs());
    const std::string h = engine::format_number(spec.machine.h);
    const std::string label = fmt::format("compare dist={} field={} N={} P={} h={}", law, field, n, p, h);
    const auto [sample, run] = simulate_compare(spec, make_plan(applied, label));
    report.record(label, run, compare_variates_per_rep(spec));
    // A readable ranking on stderr, not in the CSV; a slice's partial sample
    // ranks nothing.
    if (!settings.quiet && !settings.slice) std::fputs(efficiency_ranking(spec, sample).c_str(), stderr);

    const std::string first = to_string(spec.strategies.front());
    for (std::size_t i = 0; i < spec.strategies.size(); ++i) {
      const Strategy& s = spec.strategies[i];
      const StrategyStats& st = sample.strategy[i];
      const std::vector<std::string> params{law, field, n, p, h, to_string(s)};
      engine::RowInputs in;
      in.refs("makespan.mean", makespan_references(spec, s, report.table(), params));
      // C >= LB in every replication; C <= (2 - 1/P)·LB for list schedules,
      // 1 + (1 - 1/P)·min(K*, P) for chunked ones (h = 0), 2·LB for
      // balanced-block without movement costs.
      in.refs("makespan_ratio.mean", {{"lower-bound", ReferenceKind::bound, 1.0, false}});
      // With N <= P every list schedule of single tasks gives each task its
      // own processor, C = LB in every replication, and the upper bound says
      // nothing more.
      const std::int64_t most = largest_chunk(s, spec.tasks(), spec.procs());
      if (const auto upper = ratio_upper_bound(s, spec.tasks(), spec.machine)) {
        if ((entry_of(s).checks & kBalancedWork) != 0) {
          in.refs("makespan_ratio.mean", {{"balanced-work", ReferenceKind::bound, *upper, true}});
        } else if (most > 1) {
          in.refs("makespan_ratio.mean", {{"graham-chunks", ReferenceKind::bound, *upper, true}});
        } else if (spec.tasks() > spec.procs()) {
          in.refs("makespan_ratio.mean", {{"graham-list", ReferenceKind::bound, *upper, true}});
        }
      }
      in.omit("efficiency_diff.mean");  // rows of their own, below
      engine::PointRows rows(report.table(), params, settings.level);
      engine::emit_rows(rows, st, in);
    }
    for (std::size_t i = 1; i < spec.strategies.size(); ++i) {
      const std::vector<std::string> params{law, field, n, p, h, to_string(spec.strategies[i]) + " vs " + first};
      engine::PointRows rows(report.table(), params, settings.level);
      rows.mean("efficiency_diff.mean", sample.strategy[i].efficiency_diff);
    }
  }

  std::vector<std::string> dists_{"exponential:1"};
  std::string field_text_ = "iid";
  std::string times_spec_;
  std::string n_text_ = "1000";
  std::string p_text_ = "16";
  std::string strategy_text_ = kDefaultStrategies;
  std::string h_text_ = "0";
  std::string tau_text_ = "140e-6";
  std::string phi_text_ = "0.5e-6";
  RunOptionsText run_text_;
  DeclaredOption dist_option_;
  DeclaredOption field_option_;
  DeclaredOption times_option_;
  DeclaredOption n_option_;
};

}  // namespace

std::unique_ptr<Command> make_compare_command() { return std::make_unique<CompareCommand>(); }

}  // namespace lbmc::exp
