// Franklin's efficiencies of random assignment, in the paper's Poisson model
// and the exact multinomial one, with and without grouping
// (assignment_efficiency.hpp states the models).
#include "lbmc/analytic/assignment_efficiency.hpp"

#include <cmath>

#include <fmt/format.h>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/errors.hpp"
#include "random_assignment_checks.hpp"
#include "numbers.hpp"

namespace lbmc::analytic {
namespace {


// G = P/L, the number of groups. Throws engine::InputError unless L >= 1
// divides P.
std::int64_t groups_of(std::int64_t P, std::int64_t L) {
  if (L < 1 || P % L != 0) {
    throw engine::InputError(fmt::format("grouping: L = {} must be >= 1 and divide P = {}", L, P));
  }
  return P / L;
}

}  // namespace

PoissonModel::PoissonModel(double lambda, std::int64_t P) : lambda_(lambda), processors_(P) {
  if (!(lambda > 0.0) || !std::isfinite(lambda)) {
    throw engine::InputError(fmt::format("Poisson model: lambda = {} must be > 0", lambda));
  }
  detail::require_tasks_processors(1, P);
}

MaxOfIid max_load(const PoissonModel& model) {
  return MaxOfIid{dist::Poisson{model.lambda()}, model.processors()};
}

double efficiency(const PoissonModel& model) {
  // Franklin §2: efficiency = lambda / g-bar, g-bar = E[max of P Poisson(lambda)].
  return model.lambda() / mean(max_load(model));
}

double efficiency(const MultinomialMax& m) {
  detail::require_tasks_processors(m.tasks(), m.processors(), 1);
  return (as_double(m.tasks()) / as_double(m.processors())) / mean(m);
}

double efficiency(const PoissonModel& model, const Grouping& grouping) {
  const std::int64_t L = grouping.group_size;
  const std::int64_t G = groups_of(model.processors(), L);
  const double lambda = model.lambda();
  const double dl = as_double(L);
  // a group's load is Poisson(L lambda) (Franklin §2: "random Poisson variables add");
  // with L = 1, ceil(Z/L) = Z: both finishing rules are the ungrouped model
  if (!grouping.unit_jobs || L == 1) return efficiency(PoissonModel{dl * lambda, G});
  // E ceil(Z/L) = sum_{m>=0} P(Z > mL), Z = max of G Poisson(L lambda)
  return lambda / ceil_mean(MaxOfIid{dist::Poisson{dl * lambda}, G}, L);
}

double efficiency(const MultinomialMax& m, const Grouping& grouping) {
  const std::int64_t N = m.tasks();
  const std::int64_t P = m.processors();
  const std::int64_t L = grouping.group_size;
  detail::require_tasks_processors(N, P, 1);
  const std::int64_t G = groups_of(P, L);
  if (!grouping.unit_jobs || L == 1) return efficiency(MultinomialMax{N, G});
  // E ceil(M_G / L) = sum_{m>=0} P(M_G > mL)
  return (as_double(N) / as_double(P)) / ceil_mean(MultinomialMax{N, G}, L);
}

}  // namespace lbmc::analytic
