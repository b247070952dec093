// The modes of `lbmc dynamic` (see command.cpp): the points of each mode,
// their simulations and their rows.
//
// Standard errors of T_p.mean carry a floating-point floor of L·2^−52·T̄, L the
// expected number of leaf subtasks: the event simulation adds L production
// and execution times one at a time, so a deterministic run matches its
// closed form only to that rounding (it has no sampling noise at all).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lbmc/analytic/dynamic.hpp"
#include "lbmc/analytic/harmonic.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/rows.hpp"
#include "lbmc/engine/writers.hpp"
#include "lbmc/exp/dynamic_command.hpp"
#include "lbmc/exp/dynamic_search.hpp"

namespace lbmc::exp {
namespace {

using engine::Estimate;
using engine::Reference;
using engine::ReferenceKind;

std::string format_lambda(double lambda) { return std::isfinite(lambda) ? engine::format_number(lambda) : "inf"; }

std::string format_fanout(const std::vector<std::int64_t>& fanout) { return fmt::format("{}", fmt::join(fanout, "x")); }

std::vector<std::string> params_of(const DynamicModel& m) {
  return {to_string(m.model),
          dist::to_spec(subtask_law(m)),
          dist::to_spec(production_law(m)),
          std::to_string(m.p),
          engine::format_number(m.t1),
          engine::format_number(m.nu),
          format_lambda(m.lambda),
          std::to_string(levels(m)),
          format_fanout(m.fanout.empty() ? std::vector<std::int64_t>{m.p} : m.fanout)};
}

std::string label_of(const DynamicModel& m) {
  const auto v = params_of(m);
  return fmt::format("dynamic model={} p={} t1={} nu={} lambda={} fanout={}", v[0], v[3], v[4], v[5], v[6], v[8]);
}

// The fan-outs of `levels` levels over p leaves: for one level {p}; else the
// root degree nearest (in log) to Theorem 4's p^{1/L}(ln p)^{1/(L−1)} among
// the divisors, then each level the divisor nearest to an equal split; every
// level but the last keeps at least 2 consumers for each level below it.
std::vector<std::int64_t> theorem4_fanout(std::int64_t p, int levels) {
  std::vector<std::int64_t> fanout;
  std::int64_t rest = p;
  for (int level = 0; level < levels; ++level) {
    const int left = levels - level;
    if (left == 1) {
      fanout.push_back(rest);
      break;
    }
    const double want = level == 0 ? analytic::theorem4_root_degree(static_cast<double>(p), levels)
                                   : std::pow(static_cast<double>(rest), 1.0 / left);
    std::int64_t best = 1;
    for (std::int64_t d = 1; d <= rest >> (left - 1); ++d) {
      if (rest % d != 0) continue;
      if (std::abs(std::log(static_cast<double>(d) / want)) < std::abs(std::log(static_cast<double>(best) / want)))
        best = d;
    }
    fanout.push_back(best);
    rest /= best;
  }
  return fanout;
}

std::vector<std::int64_t> equal_fanout(std::int64_t p, int levels) {
  const auto d = static_cast<std::int64_t>(std::llround(std::pow(static_cast<double>(p), 1.0 / levels)));
  return std::vector<std::int64_t>(static_cast<std::size_t>(levels), d);
}

// t1 = κ p² ln p/λ (--kappa).
double t1_of(std::int64_t p, double kappa, double lambda) {
  if (p < 2) throw engine::InputError("--kappa: p = 1 gives t1 = 0 (use --t1)");
  const auto pd = static_cast<double>(p);
  return kappa * pd * pd * std::log(pd) / lambda;
}

std::vector<double> t1_values(const DynamicOptions& o, std::int64_t p, double lambda) {
  if (!o.t1.empty()) return o.t1;
  std::vector<double> values;
  for (const double kappa : o.kappa) values.push_back(t1_of(p, kappa, lambda));
  return values;
}

DynamicModel base_model(const DynamicOptions& o, SubtaskModel model, std::int64_t p, double t1, double lambda) {
  DynamicModel m;
  m.model = model;
  m.p = p;
  m.t1 = t1;
  m.lambda = lambda;
  m.r_law = o.r_law;
  m.u_law = o.u_law;
  if (o.levels > 1) m.fanout = o.fanout.empty() ? equal_fanout(p, o.levels) : o.fanout;
  return m;
}

// visit(base) for each point of the grid model × p × lambda × t1, in that
// order (the rows' order).
template <class Visit>
void for_each_base_model(const DynamicOptions& o, Visit visit) {
  for (const SubtaskModel model : o.models)
    for (const std::int64_t p : o.p)
      for (const double lambda : o.lambda)
        for (const double t1 : t1_values(o, p, lambda)) visit(base_model(o, model, p, t1, lambda));
}

double auto_nu(const DynamicModel& m) {
  if (!std::isfinite(m.lambda)) return 1.0;
  return std::max(1.0, std::round(m.lambda * m.t1 / static_cast<double>(m.p)));
}

// E T_p with the rounding floor of the se (top of this file).
Estimate mean_estimate(double mean, double se, std::int64_t reps, double leaves, double level) {
  return engine::normal_estimate(mean, std::max(se, leaves * 0x1.0p-52 * std::abs(mean)), reps, level);
}

// η = t1/(p·T̄) with the delta-method se (efficiency_of).
Estimate efficiency_estimate(const DynamicModel& m, const Estimate& t, double level) {
  const engine::MeanSummary eta = efficiency_of(m, {t.value, t.se});
  return engine::normal_estimate(eta.mean, eta.se, t.reps, level);
}

// T_p.mean against `t_refs` and the efficiency `eta_name` against `eta_refs`.
void add_point_rows(const DynamicModel& m, const Estimate& t, const std::vector<Reference>& t_refs,
                    const std::string& eta_name, const std::vector<Reference>& eta_refs, const RunOptions& settings,
                    Report& report) {
  const auto params = params_of(m);
  report.table().add(params, "T_p.mean", t, t_refs);
  report.table().add(params, eta_name, efficiency_estimate(m, t, settings.level), eta_refs);
}

void run_points(const DynamicOptions& o, const AppliedRun& applied, Report& report) {
  const RunOptions& settings = applied.options();
  for_each_base_model(o, [&](const DynamicModel& base) {
    const std::vector<double> nus = o.nu.empty() ? std::vector<double>{auto_nu(base)} : o.nu;
    for (const double nu : nus) {
      DynamicModel m = base;
      m.nu = nu;
      const double leaves = DynamicSimulator(m).expected_leaves();
      const std::string label = label_of(m);
      const auto [s, run] = simulate_dynamic(m, make_plan(applied, label));
      report.record(label, run, leaves);
      report.table().add(params_of(m), "rho", engine::exact_value(rho(m)), {});
      const Estimate t = mean_estimate(s.t_p.mean(), s.t_p.mean_se(), s.t_p.count(), leaves, settings.level);
      const PointReferences refs = point_references(m);
      add_point_rows(m, t, refs.t_p, "eta", refs.eta, settings, report);
    }
  });
}

// ν_opt, ρ_opt, η_max and T_p.mean at ν_opt; returns the held-out η.
engine::MeanSummary add_optimum_rows(const DynamicModel& base, const NuOptimum& opt, const RunOptions& settings,
                                    Report& report) {
  const double z = engine::normal_critical(settings.level);
  const auto params = params_of(opt.model);
  const std::int64_t reps = opt.t_p.reps;
  const double center = base.lambda * base.t1 / static_cast<double>(base.p);
  const std::vector<Reference> nu_refs{{"rho-1", ReferenceKind::asymptotic, center}};
  report.table().add(params, "nu_opt", {opt.nu, (opt.nu_high - opt.nu_low) / (2.0 * z), opt.nu_low, opt.nu_high, reps},
                     nu_refs);
  const double rho_opt = rho(opt.model);
  const double rho_low = rho_opt * opt.nu / opt.nu_high;
  const double rho_high = rho_opt * opt.nu / opt.nu_low;
  report.table().add(params, "rho_opt", {rho_opt, (rho_high - rho_low) / (2.0 * z), rho_low, rho_high, reps},
                     {{"rho-1", ReferenceKind::asymptotic, 1.0}});
  const double leaves = DynamicSimulator(opt.model).expected_leaves();
  const Estimate t = mean_estimate(opt.t_p.value, opt.t_p.se, reps, leaves, settings.level);
  const PointReferences refs = point_references(opt.model);
  std::vector<Reference> eta_refs;
  for (const Reference& r : refs.eta)
    if (r.kind == ReferenceKind::exact) eta_refs.push_back(r);
  for (const Reference& r : max_efficiency_references(base)) eta_refs.push_back(r);
  add_point_rows(opt.model, t, refs.t_p, "eta_max", eta_refs, settings, report);
  return held_out_efficiency(opt);
}

void run_optimize(const DynamicOptions& o, const AppliedRun& applied, Report& report) {
  const RunOptions& settings = applied.options();
  for_each_base_model(o, [&](const DynamicModel& base) {
    const std::string label = label_of(base) + " (nu search)";
    const NuOptimum opt = optimize_nu(base, make_plan(applied, label), settings.level);
    report.record(label + " held-out", opt.held_out_run, DynamicSimulator(opt.model).expected_leaves());
    add_optimum_rows(base, opt, settings, report);
  });
}

// Lemma 1: MC of E max of p Exp(1), drawing the p variates while
// p·reps <= 2e8 (max.mean), else by direct inversion (max.mean_direct).
void run_lemma1(const DynamicOptions& o, const AppliedRun& applied, Report& report) {
  const RunOptions& settings = applied.options();
  for (const std::int64_t p : o.p) {
    const std::vector<std::string> params{"exponential", "exponential:1", "", std::to_string(p), "", "", "", "1", ""};
    const Reference log_p{"log-p", ReferenceKind::asymptotic, analytic::lemma1_expected_max_log(p, 1.0)};
    const double exact = analytic::lemma1_expected_max(p, 1.0);
    const bool direct = static_cast<double>(p) * static_cast<double>(settings.plan.reps) > 2e8;
    const std::string label = fmt::format("dynamic lemma1 p={}{}", p, direct ? " (direct)" : "");
    const auto [m, run] = simulate_max_exponential(p, direct, make_plan(applied, label));
    report.record(label, run, direct ? 1.0 : static_cast<double>(p));
    report.table().add(params, direct ? "max.mean_direct" : "max.mean",
                       engine::mean_estimate(m, settings.level),
                       {{"harmonic", ReferenceKind::exact, exact}, log_p});
  }
}

void run_isoefficiency(const DynamicOptions& o, const AppliedRun& applied, Report& report) {
  const RunOptions& settings = applied.options();
  const double kappa = o.kappa.empty() ? 1.0 : o.kappa.front();
  for (const SubtaskModel model : o.models)
    for (const double lambda : o.lambda) {
      IsoefficiencySweep sweep(o.levels, kappa / lambda);
      for (const std::int64_t p : o.p) {
        const auto pd = static_cast<double>(p);
        DynamicModel base = base_model(o, model, p, sweep.start(pd), lambda);
        if (o.levels > 1) base.fanout = theorem4_fanout(p, o.levels);
        const std::string label = label_of(base) + " (isoefficiency)";
        const IsoefficiencyPoint iso =
            isoefficiency_t1(base, o.eta0, o.tol, make_plan(applied, label), settings.level, sweep.slope());
        report.record(label + " held-out", iso.optimum.held_out_run,
                      DynamicSimulator(iso.optimum.model).expected_leaves());
        const double se = iso.t1 * iso.log_t1_se;
        report.table().add(params_of(iso.optimum.model), "t1_iso",
                           engine::normal_estimate(iso.t1, se, iso.optimum.t_p.reps, settings.level), {});
        add_optimum_rows(iso.optimum.model, iso.optimum, settings, report);
        sweep.add(pd, iso);
      }
      const std::vector<double>& ps = sweep.p();
      if (ps.size() < 2) continue;
      const double alpha = analytic::isoefficiency_alpha(o.levels);
      const double beta = analytic::isoefficiency_beta(o.levels);
      const ExponentFit fit = fit_isoefficiency(ps, sweep.t1(), beta);
      const std::vector<std::string> params{to_string(model), "", "", fmt::format("{}-{}", o.p.front(), o.p.back()),
                                            "", "", format_lambda(lambda), std::to_string(o.levels), ""};
      const auto n = static_cast<std::int64_t>(ps.size());
      const auto row = [&](const char* stat, double v, double se, double theory) {
        report.table().add(params, stat, engine::normal_estimate(v, se, n, settings.level),
                           {{"theorem3", ReferenceKind::asymptotic, theory}});
      };
      if (ps.size() >= 3) {
        row("alpha", fit.alpha, fit.alpha_se, alpha);
        row("beta", fit.beta, fit.beta_se, beta);
        row("alpha_harmonic", fit.alpha_harmonic, fit.alpha_harmonic_se, alpha);
        row("beta_harmonic", fit.beta_harmonic, fit.beta_harmonic_se, beta);
      }
      row("alpha_fixed_beta", fit.alpha_fixed_beta, fit.alpha_fixed_beta_se, alpha);
    }
}

void run_fanouts(const DynamicOptions& o, const AppliedRun& applied, Report& report) {
  const RunOptions& settings = applied.options();
  for_each_base_model(o, [&](const DynamicModel& base) {
    const std::int64_t p = base.p;
    double best_eta = -1.0;
    std::int64_t best = 0;
    for (std::int64_t d = 2; d < p; ++d) {
      if (p % d != 0) continue;
      DynamicModel two_level = base;
      two_level.fanout = {d, p / d};
      const std::string label = label_of(two_level) + " (nu search)";
      const NuOptimum opt = optimize_nu(two_level, make_plan(applied, label), settings.level);
      report.record(label + " held-out", opt.held_out_run, DynamicSimulator(opt.model).expected_leaves());
      const engine::MeanSummary e = add_optimum_rows(two_level, opt, settings, report);
      if (e.mean > best_eta) {
        best_eta = e.mean;
        best = d;
      }
    }
    if (best == 0) throw engine::InputError(fmt::format("--p {}: no root degree 1 < p_1 < p", p));
    DynamicModel m = base;
    m.fanout = {best, p / best};
    auto params = params_of(m);
    params[5] = "";
    const auto pd = static_cast<double>(p);
    report.table().add(params, "p1_opt", engine::exact_value(static_cast<double>(best)),
                       {{"theorem4", ReferenceKind::asymptotic, analytic::theorem4_root_degree(pd, 2)},
                        {"equal-degree", ReferenceKind::asymptotic, std::sqrt(pd)}});
  });
}

}  // namespace

double largest_nu(const DynamicOptions& o) {
  if (!o.nu.empty()) return *std::max_element(o.nu.begin(), o.nu.end());
  // Lemma 1 draws p exponentials; the searches choose their own ν.
  if (o.mode != DynamicMode::points) return 1.0;
  double most = 1.0;
  for (const std::int64_t p : o.p)
    for (const double lambda : o.lambda)
      for (const double t1 : t1_values(o, p, lambda)) {
        DynamicModel m;
        m.p = p;
        m.t1 = t1;
        m.lambda = lambda;
        most = std::max(most, auto_nu(m));
      }
  return most;
}

void run_dynamic(const DynamicOptions& options, const AppliedRun& applied, Report& report) {
  switch (options.mode) {
    case DynamicMode::lemma1: return run_lemma1(options, applied, report);
    case DynamicMode::isoefficiency: return run_isoefficiency(options, applied, report);
    case DynamicMode::optimize_fanout: return run_fanouts(options, applied, report);
    case DynamicMode::optimize_nu: return run_optimize(options, applied, report);
    case DynamicMode::points: return run_points(options, applied, report);
  }
}

}  // namespace lbmc::exp
