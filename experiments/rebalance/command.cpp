// `lbmc rebalance`: the locality-maintaining balancer (Mehrotra–Ranka–Wang
// 1992, Figures 1-4) and the BDM balancer (JaJa–Ryu), run on simulated
// processors and priced in the cost models of rebalance.hpp.
//
// Statistics per (law, n): D = max_k |V_k|/X̄, Max_L_Shift, Max_R_Shift, the
// packets of Figure 1 (the most any processor sends, per side, and whether
// every processor sends at most one each side, as §5 says happens in
// practice; packet sizes relative to X̄), under approach `fig1`; and per
// schedule (approach 1, 2, 3, bdm): the modelled time a·τ + b·φ, a and b,
// messages and words per processor (the largest and the mean), and the
// replications in which a delivery check failed (must be 0). References:
// the bound 2ξ = 2(1 + c₁λ)τ + 2(c₂λ² + c₁λ)φμ on the mean time of
// approach 1 with the printed constants (0.626, 0.31) and with the limit
// moments of D' (√(π/2) ln 2, π²/12); the matching E D, E D² references.
// `--example cm5` runs §4's example (binomial:4096,0.5, n = 256,
// τ = 140 µs, φ = 0.5 µs) and adds the break-even C(M).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lbmc/analytic/bridge.hpp"
#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/analytic/rebalance_cost.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/rows.hpp"
#include "lbmc/engine/statistics.hpp"
#include "lbmc/exp/command.hpp"
#include "lbmc/exp/rebalance.hpp"
#include "lbmc/exp/report.hpp"

namespace lbmc::exp {
namespace {

using engine::Estimate;
using engine::Reference;
using engine::ReferenceKind;

std::vector<Approach> parse_approaches(const std::string& text) {
  std::vector<std::string> names;
  for (int a = 0; a < kApproaches; ++a) names.emplace_back(to_string(static_cast<Approach>(a)));
  std::vector<Approach> approaches;
  const auto parse = [&](const std::string& t) { return engine::parse_name_list(t, names); };
  for (const auto& name : parse_option("--approach", text, parse)) {
    approaches.push_back(static_cast<Approach>(std::find(names.begin(), names.end(), name) - names.begin()));
  }
  return approaches;
}

const char* integer_counts(const dist::LoadLaw& law) {
  if (!dist::is_integer_valued(law)) {
    return "element counts need an integer law (binomial, poisson, geometric, negbinomial, or a constant or "
           "empirical sample of integers)";
  }
  return dist::support_min(law) >= 0.0 ? nullptr : "element counts must be integers >= 0";
}

// The statistics of `lbmc rebalance`.
std::vector<engine::StatisticInfo> rebalance_statistics() {
  auto list = engine::describe<RebalanceSample>("approach fig1");
  for (auto& s : engine::describe<ApproachStats>("approach 1, 2, 3, bdm")) list.push_back(std::move(s));
  list.push_back({"break_even_C", engine::Estimator::derived, false,
                  "--example cm5, approach 1: the C(M) at which balancing pays, E time/(E max X - mean)",
                  "approach 1, 2, 3, bdm"});
  return list;
}

class RebalanceCommand final : public Command {
 public:
  RebalanceCommand()
      : Command("rebalance", "the locality-maintaining balancer and BDM (Mehrotra §2, §4; JaJa-Ryu)",
                rebalance_statistics()) {}

  void attach(OptionSet& options) override {
    add_dist_option(options, dists_, "law of the element counts, repeatable: an integer law of the table below");
    options.text("--n", n_text_, "processors: list or range, each >= 1").show_default();
    options.text("--tau", tau_text_, "set-up cost of a message (s), in [0, 1e100]; BDM latency").show_default();
    options.text("--phi", phi_text_, "cost per word (s), in [0, 1e100]; BDM sigma").show_default();
    options.text("--approach", approach_text_, "data movement: list of 1, 2, 3 (Figures 2-4), bdm")
        .show_default();
    options.text("--alpha", alpha_text_, "quantile levels of D").show_default();
    options.text("--remainder", remainder_text_,
                 "non-integer mean: first (the first T mod n processors get one more) or spread (floor(g/mean))")
        .show_default();
    options.text("--example", example_, "cm5: Mehrotra §4, setting --dist binomial:4096,0.5 --n 256 --tau 140e-6 --phi 0.5e-6");
    add_run_options(options, run_text_);
    options.footer(
        "Output columns: experiment,dist,n,remainder,approach,statistic,... References:\n"
        "xi-printed, xi-corrected (bound, approach 1): 2(1 + c1 l)tau + 2(c2 l^2 + c1 l)phi mu, l = sigma sqrt(n)/mu,\n"
        "(c1, c2) = (0.626, 0.31) as printed or (sqrt(pi/2) ln 2, pi^2/12).\n");
  }

  std::unique_ptr<CheckedCommand> check(const std::string& command_line) override {
    if (!example_.empty() && example_ != "cm5") {
      throw engine::InputError(fmt::format("--example: '{}' is not cm5", example_));
    }
    const bool cm5 = example_ == "cm5";
    // §4's example sets the law, n, tau and phi.
    const std::vector<std::string> dists = cm5 ? std::vector<std::string>{"binomial:4096,0.5"} : dists_;
    const std::vector<dist::LoadLaw> laws = parse_laws(dists, integer_counts);
    const auto ns = parse_option("--n", cm5 ? "256" : n_text_,
                                 [](const std::string& t) { return engine::parse_integer_list(t, 1); });
    require_exact_integer_totals(laws, ns);
    const double tau = parse_cost("--tau", cm5 ? "140e-6" : tau_text_);
    const double phi = parse_cost("--phi", cm5 ? "0.5e-6" : phi_text_);
    const std::vector<Approach> approaches = parse_approaches(approach_text_);
    const auto alphas = parse_levels("--alpha", alpha_text_);
    if (remainder_text_ != to_string(Remainder::first) && remainder_text_ != to_string(Remainder::spread)) {
      throw engine::InputError(fmt::format("--remainder: '{}' is not first or spread", remainder_text_));
    }
    const Remainder remainder = remainder_text_ == to_string(Remainder::first) ? Remainder::first : Remainder::spread;
    RunOptions settings = check_run_options(run_text_);
    // Per thread and processor: the count, its prefix sum, the balancer's
    // plan and the schedules' sends and holdings, 64 bytes in all.
    const double most = static_cast<double>(*std::max_element(ns.begin(), ns.end()));
    require_memory(settings, quantile_store_bytes(settings, 1) + settings.plan.threads * 64.0 * most,
                   fmt::format("the sorted D for quantiles, and {} threads x {} processors x 64 bytes",
                               settings.plan.threads, most));
    return std::make_unique<CheckedExperiment>(std::move(settings), input_files(laws), [=, this](const AppliedRun& applied) {
      Report report("rebalance", {"dist", "n", "remainder", "approach"}, statistics(), applied, command_line);
      for (const auto& law : laws) {
        for (const std::int64_t n : ns) {
          const RebalanceSpec spec{law, n, tau, phi, approaches, remainder};
          const std::string label = fmt::format("rebalance dist={} n={}", dist::to_spec(law), n);
          const auto [s, run] = simulate_rebalance(spec, make_plan(applied, label));
          report.record(label, run, static_cast<double>(n));
          if (!s.first_violation.empty()) fmt::print(stderr, "lbmc rebalance: check failed: {}\n", s.first_violation);
          const double level = applied.options().level;
          add_rows(report.table(), spec, s, alphas, level);
          if (cm5) add_break_even(report.table(), spec, s, level);
        }
      }
      return report.finish();
    });
  }

 private:
  static void add_rows(engine::ResultTable& table, const RebalanceSpec& spec, const RebalanceSample& s,
                       const std::vector<double>& alphas, double level) {
    const std::string dist = dist::to_spec(spec.law);
    const std::string n = std::to_string(spec.n);
    const std::string remainder = to_string(spec.remainder);
    const double mu = dist::mean(spec.law);
    const double sigma = dist::standard_deviation(spec.law);
    const bool scaled = mu > 0.0 && sigma > 0.0;
    const double lambda = scaled ? analytic::shift_lambda(mu, sigma, spec.n) : 0.0;
    engine::RowInputs fig1;
    fig1.alphas(alphas);
    if (scaled) add_shift_references(fig1, spec.n, lambda, alphas);
    engine::PointRows fig1_rows(table, {dist, n, remainder, "fig1"}, level);
    engine::emit_rows(fig1_rows, s, fig1);

    for (const Approach a : spec.approaches) {
      const ApproachStats& st = s.approach[static_cast<int>(a)];
      engine::RowInputs in;
      if (a == Approach::pipeline && scaled) {
        const std::pair<const char*, analytic::ShiftConstants> bounds[] = {
            {"xi-printed", analytic::printed_shift_constants()}, {"xi-corrected", analytic::limit_shift_constants()}};
        for (const auto& [name, constants] : bounds) {
          const auto bound = analytic::shift_cost_bound(lambda, mu, constants);
          in.refs("time.mean", {{name, ReferenceKind::bound, bound.time(spec.tau, spec.phi)}});
          in.refs("tau_coef.mean", {{name, ReferenceKind::bound, bound.tau}});
          in.refs("phi_coef.mean", {{name, ReferenceKind::bound, bound.phi}});
        }
      }
      const double reps = static_cast<double>(st.time.count());
      const double failed = reps > 0 ? static_cast<double>(st.violations) / reps : 0.0;
      in.derived("violations", engine::exact_value(failed, st.time.count()), {{"exact", ReferenceKind::exact, 0.0}});
      engine::PointRows rows(table, {dist, n, remainder, to_string(a)}, level);
      engine::emit_rows(rows, st, in);
    }
  }

  // The references of D's mean, second moment and quantiles: the paper's
  // printed constants and the Kolmogorov law of D·mu/(sigma sqrt n), as it is
  // and corrected for discrete monitoring.
  static void add_shift_references(engine::RowInputs& in, std::int64_t n, double lambda,
                                   const std::vector<double>& alphas) {
    const analytic::Kolmogorov kolmogorov{};
    const auto printed = analytic::printed_shift_constants();
    const auto corrected = analytic::monitoring_corrected(kolmogorov, n);
    in.refs("D.mean", {{"paper-0.626", ReferenceKind::paper, printed.first * lambda},
                       {"kolmogorov-limit", ReferenceKind::asymptotic, analytic::mean(kolmogorov) * lambda},
                       {"kolmogorov-corrected", ReferenceKind::corrected, analytic::mean(corrected) * lambda}});
    in.refs("D.second_moment",
            {{"paper-0.31", ReferenceKind::paper, printed.second * lambda * lambda},
             {"kolmogorov-limit", ReferenceKind::asymptotic, analytic::second_moment(kolmogorov) * lambda * lambda},
             {"kolmogorov-corrected", ReferenceKind::corrected, analytic::second_moment(corrected) * lambda * lambda}});
    for (const double alpha : alphas) {
      in.refs(engine::quantile_statistic("D", alpha),
              {{"kolmogorov-limit", ReferenceKind::asymptotic, analytic::quantile(kolmogorov, alpha) * lambda}});
    }
  }

  // §4: load balancing pays when C(M)·(E max X − μ) >= the cost of the data
  // movement. The estimate uses the simulated mean time of approach 1 and
  // the exact E max X; the references are the paper's printed value and its
  // formula (σ√(2 ln n), the bound 2ξ) with printed and corrected constants.
  static void add_break_even(engine::ResultTable& table, const RebalanceSpec& spec, const RebalanceSample& s,
                             double level) {
    const ApproachStats& a1 = s.approach[static_cast<int>(Approach::pipeline)];
    if (a1.time.count() == 0) return;
    const double mu = dist::mean(spec.law);
    const double sigma = dist::standard_deviation(spec.law);
    const double lambda = analytic::shift_lambda(mu, sigma, spec.n);
    const double excess = analytic::mean(analytic::MaxOfIid{spec.law, spec.n}) - mu;
    const double gumbel = sigma * std::sqrt(2.0 * std::log(static_cast<double>(spec.n)));
    const auto printed = analytic::shift_cost_bound(lambda, mu, analytic::printed_shift_constants());
    const auto limit = analytic::shift_cost_bound(lambda, mu, analytic::limit_shift_constants());
    const std::vector<std::string> params{dist::to_spec(spec.law), std::to_string(spec.n), to_string(spec.remainder),
                                          "1"};
    table.add(params, "break_even_C",
              engine::normal_estimate(a1.time.mean() / excess, a1.time.mean_se() / excess, a1.time.count(), level),
              {{"paper-printed", ReferenceKind::paper, 6.458e-6},
               {"xi-printed-gumbel", ReferenceKind::asymptotic, printed.time(spec.tau, spec.phi) / gumbel},
               {"xi-printed-exact-max", ReferenceKind::asymptotic, printed.time(spec.tau, spec.phi) / excess},
               {"xi-corrected-exact-max", ReferenceKind::asymptotic, limit.time(spec.tau, spec.phi) / excess}});
  }

  std::vector<std::string> dists_{"binomial:4096,0.5"};
  std::string n_text_ = "16,64,256";
  std::string tau_text_ = "140e-6";
  std::string phi_text_ = "0.5e-6";
  std::string approach_text_ = "1,2,3,bdm";
  std::string alpha_text_ = "0.95";
  std::string remainder_text_ = "first";
  std::string example_;
  RunOptionsText run_text_;
};

}  // namespace

std::unique_ptr<Command> make_rebalance_command() { return std::make_unique<RebalanceCommand>(); }

}  // namespace lbmc::exp
