// Exact values of the random-assignment models (Franklin et al. 1994): the
// paper's iid Poisson loads through max_of_iid, the multinomial through
// multinomial_max; groups of L processors through the law of the most
// loaded group.
#include <fmt/format.h>

#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/analytic/multinomial_max.hpp"
#include "lbmc/analytic/reference_unavailable.hpp"
#include "lbmc/exp/assign.hpp"

namespace lbmc::exp {

AssignExact assign_exact(AssignModel model, std::int64_t tasks, std::int64_t processors, std::int64_t group) {
  const std::int64_t groups = processors / group;
  // E⌈M/L⌉ = Σ_{j>=0} P(M > jL), summed until the tail is negligible, its
  // leading terms (exactly 1) counted rather than summed.
  if (model == AssignModel::poisson) {
    const double group_mean = poisson_group_mean(tasks, processors, group);
    if (group_mean > dist::kMaxIntegerMean) {
      throw analytic::ReferenceUnavailable(
          fmt::format("the Poisson model's mean N/P*L = {:g} exceeds 1e10, past its cdf's range", group_mean));
    }
    const analytic::MaxOfIid max{dist::Poisson{group_mean}, groups};
    const auto m = analytic::moments(max);
    return {m.mean, m.variance, analytic::ceil_mean(max, group)};
  }
  const analytic::MultinomialMax max{tasks, groups};
  const auto m = analytic::moments(max);
  return {m.mean, m.variance, analytic::ceil_mean(max, group)};
}

}  // namespace lbmc::exp
