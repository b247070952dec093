// The references of `lbmc dynamic` (Kimura–Ichiyoshi 1990, §3), per point:
//  T_p.mean  exact: deterministic closed form (both regimes); exponential
//            death-chain recursion (ν <= kExactExponentialNuMax, U_n ≡ 1/λ);
//  eta       exact (t1/(p·exact T_p)); proposition1 = 1/(1 + ρp²/(λt1))
//            (deterministic); theorem1-log-p and theorem1-harmonic =
//            1/(1 + ρp² L/(λt1)), L = ln p or H_p, for ρ > 1 (Theorem 1 (i)),
//            and theorem1-work (corrected) with L = H_p − 1, the work-
//            conservation form (analytic/dynamic.hpp, LogTerm);
//            for ρ <= 1 theorem1-ii-log-p, theorem1-ii-harmonic =
//            1/(1 + p² L/(λt1)), which the paper states as an asymptotic upper
//            bound on η (not checked: "≳" has no constant); theorem2-bound
//            η >= 1/(1 + ρp²(ln p + 1)/(λt1)) and corollary1-bound
//            η >= 1 − p(ln p + 1)/ν, both for ρ >= 1 and every model
//            (Theorem 2's moderate diversity is the modeller's promise; a law
//            that breaks it can fail them);
//  eta_max   deterministic: the exact optimum over integer ν (a bound: the
//            search cannot beat it) and proposition1 1/(1 + p²/(λt1));
//            others: theorem1-ii-log-p, theorem1-ii-harmonic (ρ ≃ 1).
// Only single-level models with their own laws get exact values; the
// asymptotic forms are shown for any law (the paper's claims are about them).
#include <cmath>

#include "lbmc/analytic/dynamic.hpp"
#include "lbmc/exp/dynamic_command.hpp"

namespace lbmc::exp {
namespace {

using engine::Reference;
using engine::ReferenceKind;

analytic::DynamicParams analytic_params(const DynamicModel& m) { return {m.p, m.t1, m.nu, m.lambda}; }

Reference efficiency_ref(const char* name, ReferenceKind kind, double inverse, bool upper = true) {
  return {name, kind, 1.0 / inverse, upper};
}

std::optional<double> exact_completion_time(const DynamicModel& m) {
  if (levels(m) != 1 || !uses_model_laws(m)) return std::nullopt;
  const analytic::DynamicParams params = analytic_params(m);
  switch (m.model) {
    case SubtaskModel::deterministic: return analytic::deterministic_completion_time(params);
    case SubtaskModel::exponential:
      if (m.nu > kExactExponentialNuMax) return std::nullopt;
      return std::isfinite(m.lambda) ? analytic::exponential_mean_completion_time(params)
                                     : analytic::exponential_mean_completion_time_instant(m.p, m.t1, m.nu);
    case SubtaskModel::uniform: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

PointReferences point_references(const DynamicModel& m) {
  PointReferences refs;
  if (levels(m) != 1) return refs;
  const analytic::DynamicParams params = analytic_params(m);
  if (const auto exact = exact_completion_time(m)) {
    refs.t_p.push_back({"exact", ReferenceKind::exact, *exact});
    refs.eta.push_back({"exact", ReferenceKind::exact, m.t1 / (static_cast<double>(m.p) * *exact)});
  }
  if (!std::isfinite(m.lambda)) return refs;
  const double rho = analytic::dynamic_rho(params);
  if (m.model == SubtaskModel::deterministic) {
    refs.eta.push_back(
        efficiency_ref("proposition1", ReferenceKind::asymptotic, analytic::proposition1_inverse_efficiency(params)));
    return refs;
  }
  using analytic::LogTerm;
  if (rho > 1.0) {
    refs.eta.push_back(efficiency_ref("theorem1-log-p", ReferenceKind::asymptotic,
                                      analytic::theorem1_inverse_efficiency(params, LogTerm::natural_log)));
    refs.eta.push_back(efficiency_ref("theorem1-harmonic", ReferenceKind::asymptotic,
                                      analytic::theorem1_inverse_efficiency(params, LogTerm::harmonic)));
    refs.eta.push_back(efficiency_ref("theorem1-work", ReferenceKind::corrected,
                                      analytic::theorem1_inverse_efficiency(params, LogTerm::harmonic_excess)));
  } else {
    refs.eta.push_back(efficiency_ref(
        "theorem1-ii-log-p", ReferenceKind::asymptotic,
        analytic::theorem1_inverse_efficiency_bound(m.p, m.t1, m.lambda, LogTerm::natural_log)));
    refs.eta.push_back(efficiency_ref(
        "theorem1-ii-harmonic", ReferenceKind::asymptotic,
        analytic::theorem1_inverse_efficiency_bound(m.p, m.t1, m.lambda, LogTerm::harmonic)));
  }
  if (rho >= 1.0) {
    refs.eta.push_back(efficiency_ref("theorem2-bound", ReferenceKind::bound,
                                      analytic::theorem2_inverse_efficiency_bound(params), false));
    const double corollary = analytic::corollary1_efficiency_bound(m.p, m.nu);
    if (corollary > 0.0) refs.eta.push_back({"corollary1-bound", ReferenceKind::bound, corollary, false});
  }
  return refs;
}

std::vector<engine::Reference> max_efficiency_references(const DynamicModel& m) {
  std::vector<Reference> refs;
  if (levels(m) != 1) return refs;
  if (m.model == SubtaskModel::deterministic) {
    if (uses_model_laws(m) && m.lambda * m.t1 <= 1e8) {
      const auto opt = analytic::deterministic_optimum(m.p, m.t1, m.lambda);
      refs.push_back({"exact-optimum", ReferenceKind::bound, opt.efficiency, true});
    }
    refs.push_back(efficiency_ref("proposition1", ReferenceKind::asymptotic,
                                  analytic::proposition1_inverse_max_efficiency(m.p, m.t1, m.lambda)));
    return refs;
  }
  using analytic::LogTerm;
  refs.push_back(efficiency_ref("theorem1-ii-log-p", ReferenceKind::asymptotic,
                                analytic::theorem1_inverse_efficiency_bound(m.p, m.t1, m.lambda, LogTerm::natural_log)));
  refs.push_back(efficiency_ref("theorem1-ii-harmonic", ReferenceKind::asymptotic,
                                analytic::theorem1_inverse_efficiency_bound(m.p, m.t1, m.lambda, LogTerm::harmonic)));
  return refs;
}

}  // namespace lbmc::exp
