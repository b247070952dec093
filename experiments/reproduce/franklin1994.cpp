// Franklin, Narayanaswami, Kankanhalli, Akman 1994: the efficiency of
// randomly assigning N unit tasks to P processors. The paper computes with
// P iid Poisson(N/P) loads (§2); the assignment it describes is multinomial.
// Each printed number is set beside the exact value under both models and a
// simulation of the multinomial assignment.
#include <cmath>

#include <fmt/format.h>

#include "lbmc/analytic/assignment_efficiency.hpp"
#include "lbmc/analytic/efficiency_search.hpp"
#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/exp/assign.hpp"
#include "reproduce.hpp"

namespace lbmc::exp {
namespace {

struct TableRow {
  std::int64_t tasks;
  std::int64_t processors;
  const char* printed;
};

// Table 1 as printed.
constexpr TableRow kTable1[] = {
    {1, 1, "1.00"},       {2, 1, "1.00"},      {2, 2, "0.66"},       {4, 1, "1.00"},       {4, 2, "0.72"},
    {4, 4, "0.48"},       {10, 1, "1.00"},     {10, 2, "0.80"},      {10, 5, "0.54"},      {10, 10, "0.37"},
    {30, 1, "1.00"},      {30, 3, "0.79"},     {30, 10, "0.51"},     {30, 30, "0.29"},     {100, 1, "1.00"},
    {100, 10, "0.66"},    {100, 100, "0.24"},  {1000, 1, "1.00"},    {1000, 10, "0.86"},   {1000, 100, "0.53"},
    {1000, 250, "0.37"},  {1000, 1000, "0.18"}, {3000, 1, "1.00"},   {3000, 30, "0.83"},   {3000, 100, "0.67"},
    {3000, 300, "0.49"},  {3000, 1000, "0.30"}, {3000, 3000, "0.16"},
};

double lambda_of(std::int64_t tasks, std::int64_t processors) {
  return static_cast<double>(tasks) / static_cast<double>(processors);
}

// Which model's efficiency rounds to the printed value.
std::string matching_models(const std::string& printed, double poisson, double multinomial) {
  const bool p = classify(printed, poisson) == ClaimVerdict::reproduced;
  const bool m = classify(printed, multinomial) == ClaimVerdict::reproduced;
  if (p && m) return "both models round to it";
  if (p) return "only the Poisson model rounds to it";
  if (m) return "only the multinomial rounds to it";
  return "neither model rounds to it";
}

// MC efficiency of the multinomial assignment: λ/M̄ with a delta-method se.
std::pair<double, double> simulated_efficiency(const ReproduceContext& ctx, const std::string& id,
                                               std::int64_t tasks, std::int64_t processors, std::int64_t group,
                                               std::int64_t reps) {
  const AssignSample s = simulate_assign(AssignModel::multinomial, tasks, processors, group, ctx.plan(id, reps)).sample;
  const double lambda = lambda_of(tasks, processors) * static_cast<double>(group);
  const double m = s.max_load.mean();
  return {lambda / m, lambda * s.max_load.mean_se() / (m * m)};
}

void table1(const ReproduceContext& ctx, std::vector<Claim>& claims) {
  for (const TableRow& row : kTable1) {
    const std::string id = fmt::format("table1-N{}-P{}", row.tasks, row.processors);
    const double poisson =
        analytic::efficiency(analytic::PoissonModel{lambda_of(row.tasks, row.processors), row.processors});
    const double multinomial = analytic::efficiency(analytic::MultinomialMax{row.tasks, row.processors});
    const auto [mc, se] = simulated_efficiency(ctx, id, row.tasks, row.processors, 1, 20'000);
    claims.push_back({"", id, "Table 1", row.printed, poisson, mc, se, classify(row.printed, poisson),
                      fmt::format("Exact under the paper's model (P iid Poisson(N/P) loads): {:.4f}; under the "
                                  "multinomial assignment the text describes: {:.4f} (MC of the multinomial: "
                                  "{:.4f}); {}.",
                                  poisson, multinomial, mc, matching_models(row.printed, poisson, multinomial))});
  }
}

void approximation_of_p(const ReproduceContext& ctx, std::vector<Claim>& claims) {
  constexpr double lambda = 10.0;
  const double formula = analytic::franklin_P_approximation(lambda);
  const auto exact_p = analytic::largest_P_for_efficiency(lambda, 0.5);
  claims.push_back(
      {"", "P-for-50pct-lambda10", "§2, P ≈ e^(λ/2)·√(2πλ)/ln 2 at λ = 10", "1200", static_cast<double>(exact_p),
       std::nullopt, std::nullopt, classify("1200", formula),
       fmt::format("The formula as printed gives {:.0f}. Its own derivation, Q(√λ) = 1 − 2^(−1/P) ≈ ln 2/P with "
                   "Q(x) ≈ e^(−x²/2)/(x√(2π)), gives P ≈ ln 2·e^(λ/2)·√(2πλ) = {:.0f}: the printed formula divides "
                   "by ln 2 where it should multiply. The printed 1200 matches e^(λ/2)·√(2πλ) = {:.0f}, with no "
                   "ln 2 at all. The exact largest P with efficiency >= 0.5 under the paper's Poisson model is {}.",
                   formula, formula * std::log(2.0) * std::log(2.0), formula * std::log(2.0), exact_p)});
  constexpr std::int64_t processors = 1200;
  const auto tasks = static_cast<std::int64_t>(lambda) * processors;
  const double poisson = analytic::efficiency(analytic::PoissonModel{lambda, processors});
  const double multinomial = analytic::efficiency(analytic::MultinomialMax{tasks, processors});
  const auto [mc, se] = simulated_efficiency(ctx, "efficiency-lambda10-P1200", tasks, processors, 1, 20'000);
  claims.push_back({"", "efficiency-lambda10-P1200", "§2, efficiency at λ = 10, P = 1200", "0.46", poisson, mc, se,
                    classify("0.46", poisson),
                    fmt::format("Poisson model {:.4f}, multinomial {:.4f} (MC {:.4f}); {}.", poisson, multinomial,
                                mc, matching_models("0.46", poisson, multinomial))});
}

void one_task_per_processor(const ReproduceContext& ctx, std::vector<Claim>& claims) {
  constexpr std::int64_t n = 1'000'000;
  const double poisson = analytic::efficiency(analytic::PoissonModel{1.0, n});
  const double multinomial = analytic::efficiency(analytic::MultinomialMax{n, n});
  const auto [mc, se] = simulated_efficiency(ctx, "efficiency-P-equals-N-1e6", n, n, 1, 200);
  // The paper's median argument: G(1/E) = 1/2, i.e. 1/E = the Poisson(1)
  // quantile at 2^(−1/N).
  const double median_max = analytic::quantile(analytic::MaxOfIid{dist::Poisson{1.0}, n}, 0.5);
  claims.push_back({"", "efficiency-P-equals-N-1e6", "§2, P = N = 10^6", "0.12", poisson, mc, se,
                    classify("0.12", poisson),
                    fmt::format("Poisson model {:.4f} (E max = {:.3f}), multinomial {:.4f} (MC {:.4f}); the "
                                "paper's median argument gives 1/{} = {:.4f}; {}.",
                                poisson, 1.0 / poisson, multinomial, mc, median_max, 1.0 / median_max,
                                matching_models("0.12", poisson, multinomial))});
}

void grouping(const ReproduceContext& ctx, std::vector<Claim>& claims) {
  constexpr std::int64_t n = 3000;
  const std::pair<std::int64_t, const char*> cases[] = {{3, "0.30"}, {10, "0.49"}};
  for (const auto& [group, printed] : cases) {
    const std::string id = fmt::format("grouping-N3000-P3000-L{}", group);
    const double lambda = 1.0;
    const auto L = static_cast<double>(group);
    const AssignExact poisson = assign_exact(AssignModel::poisson, n, n, group);
    const AssignExact multinomial = assign_exact(AssignModel::multinomial, n, n, group);
    const double fractional = lambda * L / poisson.mean;
    const auto [mc, se] = simulated_efficiency(ctx, id, n, n, group, 20'000);
    claims.push_back(
        {"", id, fmt::format("§2, N = P = 3000 in groups of {}", group), printed, fractional, mc, se,
         classify(printed, fractional),
         fmt::format("With a group finishing at load/L (fractional time) the efficiency equals that of N tasks on "
                     "P/L processors, as the paper says: Poisson model {:.4f}, multinomial {:.4f} (MC {:.4f}). With "
                     "unit jobs a group finishes at ⌈load/L⌉: Poisson model {:.4f}, multinomial {:.4f}. The printed "
                     "value uses the fractional model.",
                     fractional, lambda * L / multinomial.mean, mc, lambda / poisson.unit_time,
                     lambda / multinomial.unit_time)});
  }
}

}  // namespace

std::vector<Claim> franklin1994_claims(const ReproduceContext& ctx) {
  return claims_of(ctx, {table1, approximation_of_p, one_task_per_processor, grouping});
}

}  // namespace lbmc::exp
