// `lbmc maxshift`: the prefix shifts of the locality-maintaining balancer
// (Mehrotra–Ranka–Wang §2–§3) against the Brownian-bridge laws.
//
// Statistics per (law, n): W' and D' (mean, second moment, α-quantiles, KS
// distance to each limit law), W'.p_zero, D.p_ge_1 and, for integer loads,
// the mean of Max_R_Shift and Max_L_Shift. References:
//  - asymptotic: the bridge maximum 1 − e^{−2x²} (E = ½√(π/2), E² = ½) for W'
//    and the Kolmogorov law for D' (E = √(π/2) ln 2, E² = π²/12);
//  - corrected: the same shifted by the discrete-monitoring term β/√n,
//    β = −ζ(½)/√(2π) (Siegmund; Broadie–Glasserman–Kou);
//  - exact: P(W' = 0) = 1/n for continuous loads (cycle lemma), Spitzer's
//    E W' for normal loads;
//  - bound: the paper's P(D ≥ 1) ≤ e^{−2μ²/(σ²n)}, beside its two-sided
//    Kolmogorov limit 1 − K(μ/(σ√n)).
// With --cov FILE: the sample covariance of (V_1..V_n) against k(n−l)σ²/n.
//
// For integer loads every event is decided on the integers n·V_k (kernel.cpp,
// IntegerBridge), so the ties at D = 1 and W' = 0 that integer loads make
// common are exact. D.p_ge_1 is reported for laws of positive mean (D counts
// processors, X̄ of them); when every load is 0 nothing moves: D = 0, so the
// event is false, and W' = D' = 0.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lbmc/analytic/bridge.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/ks_distance.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/output_file.hpp"
#include "lbmc/engine/rows.hpp"
#include "lbmc/engine/statistics.hpp"
#include "lbmc/engine/writers.hpp"
#include "lbmc/exp/command.hpp"
#include "lbmc/exp/device_kernels.hpp"
#include "lbmc/exp/maxshift.hpp"
#include "lbmc/exp/report.hpp"

#include <unistd.h>

namespace lbmc::exp {
namespace {

using engine::Reference;
using engine::ReferenceKind;

// A normalised shift (W' or D') and the limit law it is checked against,
// with the reference names of the law itself and of its monitoring-corrected
// shift by beta/sqrt n.
template <class Law>
struct LimitReference {
  const char* variable;
  const char* limit_name;
  const char* corrected_name;
  Law law;
};

constexpr LimitReference<analytic::BridgeMaximum> kWPrime{"W'", "bridge-limit", "bridge-corrected", {}};
constexpr LimitReference<analytic::Kolmogorov> kDPrime{"D'", "kolmogorov-limit", "kolmogorov-corrected", {}};

class MaxShiftCommand final : public Command {
 public:
  MaxShiftCommand()
      : Command("maxshift", "W = max_k V_k, D* = max_k |V_k|, shifts (Mehrotra §3)",
                engine::describe<MaxShiftSample>()) {}

  void attach(OptionSet& options) override {
    add_dist_option(options, dists_, "load law, repeatable: any law of the table below with sigma > 0");
    options.text("--n", n_text_, "processors: list or range, each >= 2").show_default();
    options.text("--alpha", alpha_text_, "quantile levels of W' and D'").show_default();
    options.text("--cov", cov_path_, "write the covariance matrix of (V_1..V_n) as CSV to FILE");
    add_stream_options(options, stream_text_, true);
    add_run_options(options, run_text_);
    options.footer(
        "Output columns: experiment,dist,n,statistic,... W' = max_k V_k/(sigma sqrt n), D' = max_k |V_k|/(sigma sqrt n),\n"
        "D = max_k |V_k|/mean(X). References: bridge-limit, kolmogorov-limit (asymptotic), bridge-corrected,\n"
        "kolmogorov-corrected (shift beta/sqrt n), exact (P(W'=0) = 1/n for continuous laws; spitzer: E W' for\n"
        "normal laws), bound (the paper's P(D >= 1) <= exp(-2 mu^2/(sigma^2 n))).\n"
        "Integer loads are decided exactly on n*V_k; all-zero loads move nothing (D = 0).\n");
  }

  std::unique_ptr<CheckedCommand> check(const std::string& command_line) override {
    const std::vector<dist::LoadLaw> laws = parse_laws(dists_, [](const dist::LoadLaw& law) {
      return dist::standard_deviation(law) > 0.0 ? nullptr : "the shifts are normalised by sigma, which is 0";
    });
    const auto ns = parse_option("--n", n_text_, [](const std::string& t) { return engine::parse_integer_list(t, 2); });
    require_exact_integer_totals(laws, ns);
    const auto alphas = parse_levels("--alpha", alpha_text_);
    RunOptions settings = check_run_options(run_text_);
    std::tie(settings.plan.stream, settings.plan.device) = check_stream(stream_text_);
    const bool on_device = settings.plan.device == engine::Device::cuda;
    if (settings.plan.stream == engine::Stream::philox) {
      require_counter_stream_laws(laws, on_device ? "--device cuda" : "--rng philox");
    }
    if (on_device) {
      if (!cov_path_.empty()) {
        throw engine::InputError("--device cuda: --cov needs every replication's bridge, which a GPU does not "
                                 "return; leave out --cov or --device cuda");
      }
      // Integer loads leave the most values a replication.
      require_device(ns, "--n", [](std::int64_t n) {
        return device_kernel_bytes(n, engine::block_size_for(n), kDeviceIntegerShiftValues);
      });
    }
    // Per thread the prefix sums of n loads, and the n bridge indices once.
    const double most = static_cast<double>(*std::max_element(ns.begin(), ns.end()));
    require_memory(settings, quantile_store_bytes(settings, 2) + (settings.plan.threads + 1) * 8.0 * most,
                   fmt::format("the sorted W' and D' for quantiles, and {} threads x {} prefix sums of 8 bytes",
                               settings.plan.threads, most));
    if (!cov_path_.empty()) {
      const double physical = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGE_SIZE));
      for (const std::int64_t n : ns) {
        if (covariance_bytes(n) > physical / 2) {
          throw engine::InputError(fmt::format("--cov with --n {}: the covariance needs {:.1f} GiB, more than half of "
                                               "this machine's memory",
                                               n, covariance_bytes(n) / 0x1p30));
        }
      }
    }
    return std::make_unique<CheckedExperiment>(std::move(settings), input_files(laws), [=, this](const AppliedRun& applied) {
      std::optional<engine::OutputFile> cov_file;
      if (!cov_path_.empty()) cov_file.emplace("--cov", cov_path_);
      Report report("maxshift", {"dist", "n"}, statistics(), applied, command_line);
      std::string cov_csv = "dist,n,k,l,estimate,exact\n";
      for (const auto& law : laws) {
        for (const std::int64_t n : ns) run_point(law, n, alphas, applied, report, cov_file ? &cov_csv : nullptr);
      }
      if (cov_file) cov_file->commit(cov_csv);
      return report.finish();
    });
  }

 private:
  void run_point(const dist::LoadLaw& law, std::int64_t n, const std::vector<double>& alphas,
                 const AppliedRun& applied, Report& report, std::string* cov_csv) {
    const RunOptions& settings = applied.options();
    const std::string spec = dist::to_spec(law);
    const std::vector<std::string> params{spec, std::to_string(n)};
    const std::string label = fmt::format("maxshift dist={} n={}", spec, n);
    const auto [s, run] = simulate_max_shift(law, n, cov_csv != nullptr, make_plan(applied, label));
    report.record(label, run, static_cast<double>(n));
    engine::PointRows rows(report.table(), params, settings.level);

    engine::RowInputs in;
    in.alphas(alphas);
    if (std::holds_alternative<dist::Normal>(law)) {
      in.refs("W'.mean", {{"spitzer", ReferenceKind::exact, analytic::spitzer_bridge_mean_normal(n)}});
    }
    add_variable(in, kWPrime, n, s.w_prime_values, alphas, settings.level);
    if (dist::is_continuous(law)) in.refs("W'.p_zero", {{"exact", ReferenceKind::exact, analytic::bridge_p_max_zero(n)}});
    add_variable(in, kDPrime, n, s.d_prime_values, alphas, settings.level);

    // D = max_k |V_k|/X̄ counts processors, which needs loads of positive mean.
    const double mu = dist::mean(law);
    if (mu > 0.0) {
      const double y = mu / (dist::standard_deviation(law) * std::sqrt(static_cast<double>(n)));
      const double two_sided = analytic::cdf(boost::math::complement(analytic::Kolmogorov{}, y));  // 1 − K(y)
      // Mehrotra et al. bound P(D >= 1) by the one-sided tail e^{-2y^2}.
      const Reference paper{"paper-bound", ReferenceKind::bound, std::exp(-2.0 * y * y), true,
                            "the paper applies a one-sided tail to the two-sided maximum; "
                            "kolmogorov-limit is the two-sided limit (docs/papers.md)"};
      in.refs("D.p_ge_1", {paper, {"kolmogorov-limit", ReferenceKind::asymptotic, two_sided}});
    } else {
      in.omit("D.p_ge_1");
    }
    if (cov_csv != nullptr) add_covariance(in, rows.params(), law, n, *s.covariance, *cov_csv);
    engine::emit_rows(rows, s, in);
  }

  // The references of a shift's mean, second moment and quantiles, and its
  // KS distances to the limit law and the corrected one (exact stores only).
  template <class Law>
  static void add_variable(engine::RowInputs& in, const LimitReference<Law>& ref, std::int64_t n,
                           const engine::QuantileStore& values, const std::vector<double>& alphas, double level) {
    const std::string var = ref.variable;
    const Law& limit = ref.law;
    const analytic::Shifted<Law> corrected = analytic::monitoring_corrected(limit, n);
    in.refs(var + ".mean", {{ref.limit_name, ReferenceKind::asymptotic, analytic::mean(limit)},
                            {ref.corrected_name, ReferenceKind::corrected, analytic::mean(corrected)}});
    in.refs(var + ".second_moment",
            {{ref.limit_name, ReferenceKind::asymptotic, analytic::second_moment(limit)},
             {ref.corrected_name, ReferenceKind::corrected, analytic::second_moment(corrected)}});
    for (double alpha : alphas) {
      in.refs(engine::quantile_statistic(var, alpha),
              {{ref.limit_name, ReferenceKind::asymptotic, analytic::quantile(limit, alpha)},
               {ref.corrected_name, ReferenceKind::corrected, analytic::quantile(corrected, alpha)}});
    }
    if (values.exact()) {
      // KS distance to each law; its se is the expected distance under the
      // reference law itself, E(√R·D_R) → √(π/2) ln 2 (the Kolmogorov mean).
      const auto sorted = values.result().sorted_values();
      const auto r = static_cast<double>(sorted.size());
      const double se = analytic::mean(analytic::Kolmogorov{}) / std::sqrt(r);
      const double limit_ks = engine::ks_distance(sorted, [&](double x) { return analytic::cdf(limit, x); });
      const double corrected_ks =
          engine::ks_distance(sorted, [&](double x) { return analytic::cdf(corrected, x); });
      in.derived(var + ".ks", engine::normal_estimate(limit_ks, se, values.count(), level),
                 {{ref.limit_name, ReferenceKind::asymptotic, 0.0}});
      in.derived(var + ".ks", engine::normal_estimate(corrected_ks, se, values.count(), level),
                 {{ref.corrected_name, ReferenceKind::corrected, 0.0}});
    }
  }

  static void add_covariance(engine::RowInputs& in, const std::vector<std::string>& params, const dist::LoadLaw& law,
                             std::int64_t n, const BridgeCovariance& cov, std::string& csv) {
    const Eigen::MatrixXd c = cov.covariance();
    const double sigma = dist::standard_deviation(law);
    double max_abs = 0.0;
    double max_rel = 0.0;
    for (std::int64_t k = 1; k <= n; ++k) {
      for (std::int64_t l = 1; l <= n; ++l) {
        const double exact = analytic::bridge_covariance(std::min(k, l), std::max(k, l), n, sigma);
        const double estimate = c(k - 1, l - 1);
        max_abs = std::max(max_abs, std::abs(estimate - exact));
        if (exact != 0.0) max_rel = std::max(max_rel, std::abs(estimate - exact) / std::abs(exact));
        csv += fmt::format("{},{},{},{},{},{}\n", engine::csv_field(params[0]), n, k, l, engine::format_number(estimate),
                           engine::format_number(exact));
      }
    }
    in.derived("V.cov_max_abs_error", engine::exact_value(max_abs, cov.count));
    in.derived("V.cov_max_rel_error", engine::exact_value(max_rel, cov.count));
  }

  std::vector<std::string> dists_{"normal:0,1"};
  std::string n_text_ = "16,64,256,1024";
  std::string alpha_text_ = "0.95";
  std::string cov_path_;
  StreamText stream_text_;
  RunOptionsText run_text_;
};

}  // namespace

std::unique_ptr<Command> make_maxshift_command() { return std::make_unique<MaxShiftCommand>(); }

}  // namespace lbmc::exp
