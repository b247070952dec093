// `lbmc assign`: N unit tasks assigned independently and uniformly to P
// processors (Franklin et al. 1994); efficiency = (N/P)/E[max load].
//
// Each (N, P) point is simulated under `--model` (multinomial: the
// assignment the paper describes; poisson: P iid Poisson(N/P) loads, the
// model its numbers are computed with) and checked against that model's
// exact values; the other model's exact value is shown beside it as
// information. With `--group L`, L processors share a queue: the statistics
// are those of the most loaded group, finishing at load/L (fractional time)
// or ⌈load/L⌉ (unit jobs). `--solve-P` reports, per λ, the largest P with
// efficiency >= --target under the Poisson model, next to the paper's
// e^{λ/2}·√(2πλ)/ln 2 carried to the target (franklin_P_approximation).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lbmc/analytic/efficiency_search.hpp"
#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/rows.hpp"
#include "lbmc/exp/assign.hpp"
#include "lbmc/exp/command.hpp"
#include "lbmc/exp/references.hpp"
#include "lbmc/exp/report.hpp"

namespace lbmc::exp {
namespace {

using engine::Reference;
using engine::ReferenceKind;

// The statistics of `lbmc assign`.
std::vector<engine::StatisticInfo> assign_statistics() {
  auto list = engine::describe<AssignSample>();
  list.push_back({"P_max", engine::Estimator::derived, false,
                  "--solve-P: the largest P with efficiency >= --target at each --lambda (Poisson model)", "--solve-P"});
  return list;
}

class AssignCommand final : public Command {
 public:
  AssignCommand() : Command("assign", "N tasks randomly assigned to P processors (Franklin)", assign_statistics()) {}

  void attach(OptionSet& options) override {
    options.text("--N", n_text_, "tasks: list or range").show_default();
    options.text("--P", p_text_, "processors: list or range").show_default();
    options.text("--group", group_text_, "L processors share one queue: list (each L divides every P)")
        .show_default();
    options.text("--model", model_text_, "the models simulated: multinomial, poisson, or both as a comma list")
        .show_default();
    options.flag("--solve-P", solve_p_, "per --lambda, the largest P with efficiency >= --target (Poisson model)");
    options.text("--lambda", lambda_text_, "with --solve-P: tasks per processor N/P, in (0, 1e10]").show_default();
    options.text("--target", target_text_, "with --solve-P: the efficiency to reach").show_default();
    add_run_options(options, run_text_);
    options.footer(
        "Output columns: experiment,model,N,P,group,statistic,... References: exact (the simulated model), and the other\n"
        "model's exact value as information (poisson-model: the paper's model; multinomial). The multinomial is\n"
        "drawn by throwing (N <= 64 P) or by conditional binomials (larger N/P): both exact.");
  }

  std::unique_ptr<CheckedCommand> check(const std::string& command_line) override {
    if (solve_p_) return check_solve_p(command_line);
    const auto tasks = parse_option("--N", n_text_, [](const std::string& t) { return engine::parse_integer_list(t, 1); });
    const auto procs = parse_option("--P", p_text_, [](const std::string& t) { return engine::parse_integer_list(t, 1); });
    const auto groups =
        parse_option("--group", group_text_, [](const std::string& t) { return engine::parse_integer_list(t, 1); });
    for (const std::int64_t group : groups) {
      for (const std::int64_t p : procs) {
        if (p % group != 0) throw engine::InputError(fmt::format("--group {}: does not divide --P {}", group, p));
      }
    }
    std::vector<AssignModel> models;
    for (const auto& name : parse_option("--model", model_text_, [](const std::string& t) {
           return engine::parse_name_list(t, {"multinomial", "poisson"});
         })) {
      models.push_back(name == "poisson" ? AssignModel::poisson : AssignModel::multinomial);
    }
    RunOptions settings = check_run_options(run_text_);
    // Every point within its model's laws, and the most scratch of any
    // point (per thread).
    double scratch = 0.0;
    for (const AssignModel model : models) {
      for (const std::int64_t n : tasks) {
        for (const std::int64_t p : procs) {
          for (const std::int64_t group : groups) {
            require_within_laws(model, n, p, group);
            const std::int64_t bins = p / group;
            scratch = std::max(scratch, assign_scratch_bytes(model, choose_multinomial_method(n, bins), n, bins));
          }
        }
      }
    }
    require_memory(settings, settings.plan.threads * scratch,
                 fmt::format("{} threads x {:.3g} bytes of load counters", settings.plan.threads, scratch));

    return std::make_unique<CheckedExperiment>(std::move(settings), std::vector<engine::InputFile>{},
                                           [=, this](const AppliedRun& applied) {
      Report report("assign", {"model", "N", "P", "group"}, statistics(), applied, command_line);
      for (const AssignModel model : models) {
        for (const std::int64_t n : tasks) {
          for (const std::int64_t p : procs) {
            for (const std::int64_t group : groups) run_point(model, n, p, group, applied, report);
          }
        }
      }
      return report.finish();
    });
  }

 private:
  void run_point(AssignModel model, std::int64_t tasks, std::int64_t processors, std::int64_t group,
                 const AppliedRun& applied, Report& report) {
    const std::vector<std::string> params{to_string(model), std::to_string(tasks), std::to_string(processors),
                                          std::to_string(group)};
    const std::int64_t groups = processors / group;
    std::string label = fmt::format("assign model={} N={} P={} group={}", to_string(model), tasks, processors, group);
    if (model == AssignModel::multinomial) {
      label += fmt::format(" ({})", to_string(choose_multinomial_method(tasks, groups)));
    }
    const auto [s, run] = simulate_assign(model, tasks, processors, group, make_plan(applied, label));
    const double per_rep = model == AssignModel::multinomial &&
                                   choose_multinomial_method(tasks, groups) == MultinomialMethod::throwing
                               ? static_cast<double>(tasks)
                               : static_cast<double>(groups);
    report.record(label, run, per_rep);

    const AssignModel other = model == AssignModel::poisson ? AssignModel::multinomial : AssignModel::poisson;
    const char* other_name = other == AssignModel::poisson ? "poisson-model" : "multinomial";
    auto& table = report.table();
    const auto exact = reference_or_note(table, params, "max.*, efficiency*", "exact",
                                         [&] { return assign_exact(model, tasks, processors, group); });
    const auto info = reference_or_note(table, params, "max.*, efficiency*", other_name,
                                        [&] { return assign_exact(other, tasks, processors, group); });
    // The rows' references: exact, then the other model's value, each when available.
    engine::RowInputs in;
    const auto refs = [&](const char* statistic, auto value_of) {
      if (exact) in.refs(statistic, {{"exact", ReferenceKind::exact, value_of(*exact)}});
      if (info) in.refs(statistic, {{other_name, ReferenceKind::asymptotic, value_of(*info)}});
    };
    const double lambda = static_cast<double>(tasks) / static_cast<double>(processors);
    const auto L = static_cast<double>(group);
    refs("max.mean", [](const AssignExact& v) { return v.mean; });
    refs("max.variance", [](const AssignExact& v) { return v.variance; });
    // Efficiency λ/E[M/L] = λL/E[M], by the delta method.
    in.scale("efficiency", lambda * L);
    refs("efficiency", [&](const AssignExact& v) { return lambda * L / v.mean; });
    if (group > 1) {
      in.scale("efficiency_unit", lambda);
      refs("efficiency_unit", [&](const AssignExact& v) { return lambda / v.unit_time; });
    } else {
      in.omit("efficiency_unit");
    }
    engine::PointRows rows(table, params, applied.options().level);
    engine::emit_rows(rows, s, in);
  }

  std::unique_ptr<CheckedCommand> check_solve_p(const std::string& command_line) {
    const auto lambdas = parse_option("--lambda", lambda_text_, engine::parse_real_list);
    for (double l : lambdas) {
      if (!(l > 0.0 && l <= dist::kMaxIntegerMean)) {
        throw engine::InputError(fmt::format("--lambda: {} must be in (0, 1e10], poisson:LAMBDA's range", l));
      }
    }
    const double target = parse_option("--target", target_text_, engine::parse_real);
    if (!(target > 0.0 && target < 1.0)) throw engine::InputError(fmt::format("--target: '{}' must be in (0,1)", target_text_));
    return std::make_unique<CheckedExperiment>(check_run_options(run_text_), std::vector<engine::InputFile>{},
                                           [=, this](const AppliedRun& applied) {
      Report report("assign", {"model", "lambda", "target"}, statistics(), applied, command_line);
      for (const double lambda : lambdas) {
        const std::vector<std::string> params{"poisson", engine::format_number(lambda), engine::format_number(target)};
        const auto p = reference_or_note(report.table(), params, "P_max", "exact",
                                         [&] { return analytic::largest_P_for_efficiency(lambda, target); });
        if (p) table_row(report, params, static_cast<double>(*p), analytic::franklin_P_approximation(lambda, target));
      }
      return report.finish();
    });
  }

  static void table_row(Report& report, const std::vector<std::string>& params, double p, double approx) {
    report.table().add(params, "P_max", engine::exact_value(p), {{"franklin-approx", ReferenceKind::asymptotic, approx}});
  }

  std::string n_text_ = "1000";
  std::string p_text_ = "10,100,250,1000";
  std::string group_text_ = "1";
  std::string model_text_ = "multinomial";
  bool solve_p_ = false;
  std::string lambda_text_ = "10";
  std::string target_text_ = "0.5";
  RunOptionsText run_text_;
};

}  // namespace

std::unique_ptr<Command> make_assign_command() { return std::make_unique<AssignCommand>(); }

}  // namespace lbmc::exp
