// `lbmc maxload`: Z = max_i X_i of n iid loads (Mehrotra–Ranka–Wang §3;
// Franklin et al.; Salmon).
//
// Per replication the kernel draws n loads and keeps their maximum. The
// statistics of Z, in load units, are its mean, variance and α-quantiles,
// each checked against the exact finite-n value computed from F^n (pass/fail)
// and shown beside the Gumbel approximations: the paper's a_n = b_n =
// √(2 ln n) form and the general norming a_n = F⁻¹(1 − 1/n), b_n = n f(a_n)
// (informational). For exponential loads the papers' m·ln n is shown too.
#include <algorithm>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "lbmc/analytic/frechet.hpp"
#include "lbmc/analytic/gumbel.hpp"
#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/memory_limit.hpp"
#include "lbmc/engine/rows.hpp"
#include "lbmc/exp/command.hpp"
#include "lbmc/exp/device_kernels.hpp"
#include "lbmc/exp/maxload.hpp"
#include "lbmc/exp/references.hpp"
#include "lbmc/exp/report.hpp"

namespace lbmc::exp {
namespace {

using engine::Reference;
using engine::ReferenceKind;

struct MaxLoadPoint {
  dist::LoadLaw law;
  std::int64_t n;
};

// The references of Z's statistics at one point: exact first, then the
// Gumbel (or Frechet) forms, for the mean, the variance and each quantile.
engine::RowInputs references_for(const MaxLoadPoint& point, const std::vector<double>& alphas,
                                 engine::ResultTable& table, const std::vector<std::string>& params) {
  engine::RowInputs refs;
  refs.alphas(alphas);
  // One reference of every statistic from a limit law with mean, variance and quantile.
  const auto add_limit = [&](const char* name, const auto& limit) {
    refs.refs("mean", {{name, ReferenceKind::asymptotic, analytic::mean(limit)}});
    refs.refs("variance", {{name, ReferenceKind::asymptotic, analytic::variance(limit)}});
    for (const double alpha : alphas) {
      refs.refs(engine::quantile_statistic("", alpha), {{name, ReferenceKind::asymptotic, analytic::quantile(limit, alpha)}});
    }
  };
  if (const auto exact = reference_or_note(table, params, "mean", "exact",
                                           [&] { return analytic::moments(analytic::MaxOfIid{point.law, point.n}); })) {
    refs.refs("mean", {{"exact", ReferenceKind::exact, exact->mean}});
    refs.refs("variance", {{"exact", ReferenceKind::exact, exact->variance}});
  }
  for (const double alpha : alphas) {
    const std::string statistic = engine::quantile_statistic("", alpha);
    if (const auto q = reference_or_note(table, params, statistic, "exact",
                                         [&] { return analytic::quantile(analytic::MaxOfIid{point.law, point.n}, alpha); })) {
      refs.refs(statistic, {{"exact", ReferenceKind::exact, *q}});
    }
  }
  const bool spread = dist::variance(point.law) > 0.0;
  const bool frechet = dist::max_domain(point.law) == dist::MaxDomain::frechet;
  if (const auto* pareto = std::get_if<dist::Pareto>(&point.law)) {
    add_limit("frechet", analytic::frechet_limit(*pareto, point.n));
    table.note_unavailable(params, "mean", "gumbel-paper",
                           "the maximum of a law with a polynomial tail is in the Frechet domain of attraction, "
                           "not the Gumbel one: the paper's Gumbel forms do not apply");
  }
  if (point.n >= 2 && spread && !frechet) add_limit("gumbel-paper", analytic::gumbel_paper(point.law, point.n));
  if (const auto norming = analytic::gumbel_norming(point.law, point.n)) add_limit("gumbel-quantile-norming", *norming);
  if (const auto* e = std::get_if<dist::Exponential>(&point.law)) {
    // The papers' E max of n exponentials ≈ m·ln n (Kimura–Ichiyoshi Lemma 1
    // states m·H_n exactly, which is the exact row).
    refs.refs("mean", {{"log-p", ReferenceKind::asymptotic, e->mean * std::log(static_cast<double>(point.n))}});
  }
  return refs;
}

class MaxLoadCommand final : public Command {
 public:
  MaxLoadCommand()
      : Command("maxload", "Z = max_i X_i of n iid loads (Mehrotra §3, Franklin, Salmon)",
                engine::describe<MaxLoadSample>()) {}

  void attach(OptionSet& options) override {
    add_dist_option(options, dists_, "load law, repeatable: any law of the table below");
    options.text("--n", n_text_, "processors: list or range, e.g. 16,64 or 16:4096:*2").show_default();
    options.text("--alpha", alpha_text_, "quantile levels of Z, e.g. 0.5,0.95").show_default();
    options.text("--method", method_text_,
                 "brute: draw n loads; direct: draw Z by inverting F^n; auto: direct for continuous laws when "
                 "n >= 64, for integer laws (n >= 2) when the table of Z is small or cheaper than n draws")
        .show_default();
    add_stream_options(options, stream_text_, true);
    add_run_options(options, run_text_);
    options.footer(
        "Output columns: experiment,dist,n,method,statistic,... References: exact (from F^n; pass/fail),\n"
        "gumbel-paper (a_n=b_n=sqrt(2 ln n)),\n"
        "gumbel-quantile-norming (a_n=F^-1(1-1/n), b_n=n f(a_n); continuous laws in the Gumbel domain),\n"
        "log-p (exponential), frechet (pareto: a_n = XM n^(1/ALPHA); the Gumbel forms do not apply).\n");
  }

  std::unique_ptr<CheckedCommand> check(const std::string& command_line) override {
    const std::vector<dist::LoadLaw> laws = parse_laws(dists_);
    const auto ns = parse_option("--n", n_text_, [](const std::string& t) { return engine::parse_integer_list(t, 1); });
    const auto alphas = parse_levels("--alpha", alpha_text_);
    if (method_text_ != "auto" && method_text_ != "brute" && method_text_ != "direct") {
      throw engine::InputError(fmt::format("--method: '{}' is not brute, direct or auto", method_text_));
    }
    RunOptions settings = check_run_options(run_text_);
    std::tie(settings.plan.stream, settings.plan.device) = check_stream(stream_text_);
    if (settings.plan.stream == engine::Stream::philox) check_counter_stream(laws, settings.plan.device);
    if (settings.plan.device == engine::Device::cuda) {
      require_device(ns, "--n", [](std::int64_t n) { return device_kernel_bytes(n, engine::block_size_for(n), 1); });
    }
    require_memory(settings, quantile_store_bytes(settings, 1), "the sorted maxima for quantiles");
    return std::make_unique<CheckedExperiment>(std::move(settings), input_files(laws), [=, this](const AppliedRun& applied) {
      Report report("maxload", {"dist", "n", "method"}, statistics(), applied, command_line);
      for (const auto& law : laws) {
        for (const std::int64_t n : ns) run_point({law, n}, alphas, applied, report);
      }
      return report.finish();
    });
  }

 private:
  // --rng philox and --device cuda: brute force, on laws whose samplers
  // take the counter-based stream.
  void check_counter_stream(const std::vector<dist::LoadLaw>& laws, engine::Device device) const {
    const char* option = device == engine::Device::cuda ? "--device cuda" : "--rng philox";
    if (method_text_ == "direct") {
      throw engine::InputError(fmt::format("{}: --method direct draws from pcg64; give --method brute or auto", option));
    }
    require_counter_stream_laws(laws, option);
  }

  void run_point(const MaxLoadPoint& point, const std::vector<double>& alphas, const AppliedRun& applied,
                 Report& report) {
    const RunOptions& settings = applied.options();
    const std::string spec = dist::to_spec(point.law);
    // The direct method draws from pcg64: under --rng philox, auto is brute.
    const MaxMethod method = method_text_ == "brute" || settings.plan.stream == engine::Stream::philox
                                 ? MaxMethod::brute
                             : method_text_ == "direct" ? MaxMethod::direct
                                                        : choose_max_method(point.law, point.n);
    const char* method_name = method == MaxMethod::direct ? "direct" : "brute";
    const std::vector<std::string> params{spec, std::to_string(point.n), method_name};
    const engine::RowInputs refs = references_for(point, alphas, report.table(), params);
    const std::string label = fmt::format("maxload dist={} n={} method={}", spec, point.n, method_name);
    const auto plan = make_plan(applied, label);

    const auto [total, run] = simulate_max_load(point.law, point.n, plan, method);
    // Variates drawn per replication: n loads, or the one maximum.
    report.record(label, run, method == MaxMethod::direct ? 1.0 : static_cast<double>(point.n));
    engine::PointRows rows(report.table(), params, settings.level);
    engine::emit_rows(rows, total, refs);
  }

  std::vector<std::string> dists_{"normal:0,1"};
  std::string n_text_ = "16,64,256,1024";
  std::string alpha_text_ = "0.95";
  std::string method_text_ = "auto";
  StreamText stream_text_;
  RunOptionsText run_text_;
};

}  // namespace

std::unique_ptr<Command> make_maxload_command() { return std::make_unique<MaxLoadCommand>(); }

}  // namespace lbmc::exp
