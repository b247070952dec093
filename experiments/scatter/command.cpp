// `lbmc scatter`: load imbalance of the scattered decomposition (Salmon).
//
// Per (task law, n, N_proc) the kernel runs N_proc processors of n iid tasks
// and records l = (t_slowest − m_proc)/m_proc and l_obs (m_proc replaced by
// the observed mean over processors). Statistics: `l.mean`, `l.q<c>` for each
// --confidence c, `l_obs.mean`, `l_obs.q<c>`. References: the exact value
// where the processor sum has a known law (normal, exponential → Gamma,
// constant; pass/fail), Salmon's l_c with the l term kept in the logarithm
// (`salmon-log-kept`) and as printed (`salmon-printed`), and the CLT limit
// with the exact normal maximum (`normal-limit`), all three asymptotic.
#include <algorithm>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/analytic/scatter.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/rows.hpp"
#include "lbmc/engine/statistics.hpp"
#include "lbmc/exp/command.hpp"
#include "lbmc/exp/device_kernels.hpp"
#include "lbmc/exp/references.hpp"
#include "lbmc/exp/report.hpp"
#include "lbmc/exp/scatter.hpp"

namespace lbmc::exp {
namespace {

using engine::Reference;
using engine::ReferenceKind;

struct ScatterPoint {
  dist::LoadLaw law;
  std::int64_t tasks;
  std::int64_t procs;
};

// The references of l and l_obs at one point: exact where the processor sum
// has a known law, Salmon's constant in both forms and the CLT limit.
engine::RowInputs references_for(const ScatterPoint& point, const std::vector<double>& confidences,
                                 engine::ResultTable& table, const std::vector<std::string>& params) {
  engine::RowInputs refs;
  refs.alphas(confidences);
  const double scale = analytic::scatter_scale(point.law, point.tasks);  // σ/(√n m)
  const bool normal = std::holds_alternative<dist::Normal>(point.law);
  const auto exact_mean = reference_or_note(table, params, "l.mean", "exact", [&] {
    return analytic::scatter_exact_mean(point.law, point.tasks, point.procs);
  });
  if (exact_mean && *exact_mean) refs.refs("l.mean", {{"exact", ReferenceKind::exact, **exact_mean}});
  // The CLT limit: E l ≈ (σ/(√n m))·E max of N_proc standard normals.
  const Reference limit_mean{"normal-limit", ReferenceKind::asymptotic,
                             scale * analytic::mean(analytic::MaxOfIid{dist::Normal{0.0, 1.0}, point.procs})};
  if (!normal) refs.refs("l.mean", {limit_mean});
  refs.refs("l_obs.mean", {limit_mean});
  for (const double c : confidences) {
    const std::string l_c = engine::quantile_statistic("l", c);
    const std::string obs_c = engine::quantile_statistic("l_obs", c);
    const auto exact = reference_or_note(table, params, l_c, "exact", [&] {
      return analytic::scatter_exact_quantile(point.law, point.tasks, point.procs, c);
    });
    if (exact && *exact) refs.refs(l_c, {{"exact", ReferenceKind::exact, **exact}});
    std::vector<Reference> asymptotic;
    asymptotic.push_back({"salmon-log-kept", ReferenceKind::asymptotic,
                          scale * analytic::salmon_constant_log_kept(point.procs, c)});
    if (const auto printed = analytic::salmon_constant_printed(point.procs, c)) {
      asymptotic.push_back({"salmon-printed", ReferenceKind::asymptotic, scale * *printed});
    }
    const Reference limit{"normal-limit", ReferenceKind::asymptotic,
                          scale * analytic::normal_limit_constant(point.procs, c)};
    if (!normal) asymptotic.push_back(limit);
    refs.refs(l_c, asymptotic);
    if (normal) asymptotic.push_back(limit);
    refs.refs(obs_c, asymptotic);
  }
  return refs;
}

class ScatterCommand final : public Command {
 public:
  ScatterCommand()
      : Command("scatter", "scattered decomposition imbalance (Salmon)", engine::describe<ScatterSample>()) {}

  void attach(OptionSet& options) override {
    add_dist_option(options, dists_, "task-time law (mean > 0), repeatable: any law of the table below");
    options.text("--tasks", tasks_text_, "tasks per processor n: list or range, e.g. 10,100 or 10:10000:*10")
        .show_default();
    options.text("--procs", procs_text_, "processors N_proc: list or range").show_default();
    options.text("--confidence", confidence_text_, "confidences c of the quantile l_c, each in (0,1)")
        .show_default();
    add_stream_options(options, stream_text_, true);
    add_run_options(options, run_text_);
    options.footer(
        "Output columns: experiment,dist,tasks,procs,statistic,... References: exact (normal, exponential (Gamma\n"
        "sums), constant tasks; pass/fail), salmon-log-kept (x^2 = 2 ln[N/((1-c) sqrt(2 pi) x)]), salmon-printed\n"
        "(sqrt(ln[N^2/(2 pi (1-c)^2)])), normal-limit (Phi^-1(c^(1/N))), each times sigma/(sqrt(n) m).\n");
  }

  std::unique_ptr<CheckedCommand> check(const std::string& command_line) override {
    const std::vector<dist::LoadLaw> laws = parse_laws(dists_, [](const dist::LoadLaw& law) {
      if (std::holds_alternative<dist::Empirical>(law)) dist::require_nonnegative(law, "task times must be >= 0");
      return dist::mean(law) > 0.0 ? nullptr : "task times need a mean > 0";
    });
    const auto tasks =
        parse_option("--tasks", tasks_text_, [](const std::string& t) { return engine::parse_integer_list(t, 1); });
    const auto procs =
        parse_option("--procs", procs_text_, [](const std::string& t) { return engine::parse_integer_list(t, 1); });
    const auto confidences = parse_levels("--confidence", confidence_text_);
    RunOptions settings = check_run_options(run_text_);
    std::tie(settings.plan.stream, settings.plan.device) = check_stream(stream_text_);
    const bool on_device = settings.plan.device == engine::Device::cuda;
    if (settings.plan.stream == engine::Stream::philox) {
      require_counter_stream_laws(laws, on_device ? "--device cuda" : "--rng philox");
    }
    if (on_device) {
      std::vector<std::int64_t> draws;
      for (const std::int64_t n : tasks) {
        for (const std::int64_t p : procs) {
          draws.push_back(static_cast<std::int64_t>(std::min(0x1p62, static_cast<double>(n) * static_cast<double>(p))));
        }
      }
      require_device(draws, "--tasks x --procs", [](std::int64_t n) {
        return device_kernel_bytes(n, engine::block_size_for(n), kDeviceScatterValues);
      });
    }
    require_memory(settings, quantile_store_bytes(settings, 2), "the sorted l and l_obs for quantiles");
    return std::make_unique<CheckedExperiment>(std::move(settings), input_files(laws), [=, this](const AppliedRun& applied) {
      Report report("scatter", {"dist", "tasks", "procs"}, statistics(), applied, command_line);
      for (const auto& law : laws) {
        for (const std::int64_t n : tasks) {
          for (const std::int64_t p : procs) run_point({law, n, p}, confidences, applied, report);
        }
      }
      return report.finish();
    });
  }

 private:
  static void run_point(const ScatterPoint& point, const std::vector<double>& confidences,
                        const AppliedRun& applied, Report& report) {
    const std::string spec = dist::to_spec(point.law);
    const std::vector<std::string> params{spec, std::to_string(point.tasks), std::to_string(point.procs)};
    const engine::RowInputs refs = references_for(point, confidences, report.table(), params);
    const std::string label = fmt::format("scatter dist={} tasks={} procs={}", spec, point.tasks, point.procs);
    const auto plan = make_plan(applied, label);

    const auto [total, run] = simulate_scatter(point.law, point.tasks, point.procs, plan);
    report.record(label, run, static_cast<double>(point.tasks) * static_cast<double>(point.procs));
    engine::PointRows rows(report.table(), params, applied.options().level);
    engine::emit_rows(rows, total, refs);
    note_undefined_l_obs(total, params, report.table());
  }

  // l_obs = (max t_p − t̄)/t̄ is undefined where every task time was 0; its
  // rows are over the other replications, and the table says how many.
  static void note_undefined_l_obs(const ScatterSample& total, const std::vector<std::string>& params,
                                   engine::ResultTable& table) {
    const std::int64_t reps = total.l.count();
    const std::int64_t undefined = reps - total.l_obs.count();
    if (undefined == 0) return;
    table.notes.push_back(fmt::format(
        "{} l_obs: undefined (every task time 0, so t_mean = 0) in {} of {} replications; l_obs's rows are "
        "over the other {}, conditional on t_mean > 0",
        table.describe(params), undefined, reps, reps - undefined));
  }

  std::vector<std::string> dists_{"exponential:1"};
  std::string tasks_text_ = "10,100";
  std::string procs_text_ = "100";
  std::string confidence_text_ = "0.99";
  RunOptionsText run_text_;
  StreamText stream_text_;
};

}  // namespace

std::unique_ptr<Command> make_scatter_command() { return std::make_unique<ScatterCommand>(); }

}  // namespace lbmc::exp
