// Exact values of the random-assignment models (Franklin et al. 1994): the
// paper's iid Poisson loads through max_of_iid, the multinomial through
// balls_into_bins; groups of L processors through the law of the most
// loaded group.
#include "lbmc/analytic/balls_into_bins.hpp"
#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/exp/assign.hpp"

namespace lbmc::exp {

AssignExact assign_exact(AssignModel model, std::int64_t tasks, std::int64_t processors, std::int64_t group) {
  const std::int64_t groups = processors / group;
  const auto L = static_cast<double>(group);
  AssignExact v{};
  // E⌈M/L⌉ = Σ_{j>=0} P(M > jL), summed until the tail is negligible.
  auto unit_time = [&](auto ccdf) {
    double sum = 0.0;
    for (double j = 0;; ++j) {
      const double tail = ccdf(j * L);
      sum += tail;
      if (tail < 1e-18 * sum || j * L > static_cast<double>(tasks)) break;
    }
    return sum;
  };
  if (model == AssignModel::poisson) {
    const dist::LoadLaw law = dist::Poisson{static_cast<double>(tasks) / static_cast<double>(processors) * L};
    const auto m = analytic::max_moments(law, groups);
    v = {m.mean, m.variance, unit_time([&](double k) { return analytic::max_ccdf(law, groups, k); })};
  } else {
    const auto m = analytic::multinomial_max_moments(tasks, groups);
    v = {m.mean, m.variance, unit_time([&](double k) {
           return 1.0 - analytic::multinomial_max_cdf(tasks, groups, static_cast<std::int64_t>(k));
         })};
  }
  return v;
}

}  // namespace lbmc::exp
