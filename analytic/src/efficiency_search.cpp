// The processors at a target efficiency in Franklin's model: the exact
// largest P by search, and the paper's closed form (efficiency_search.hpp).
#include "lbmc/analytic/efficiency_search.hpp"

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "lbmc/analytic/assignment_efficiency.hpp"
#include "lbmc/analytic/reference_unavailable.hpp"
#include "lbmc/engine/errors.hpp"

namespace lbmc::analytic {

std::int64_t largest_P_for_efficiency(double lambda, double target) {
  if (!(lambda > 0.0) || !std::isfinite(lambda)) {
    throw engine::InputError(fmt::format("largest P: lambda = {} must be > 0", lambda));
  }
  if (!(target > 0.0 && target <= 1.0)) {
    throw engine::InputError(fmt::format("largest P: target efficiency {} outside (0,1]", target));
  }
  // efficiency(1) = 1 >= target; bracket [good, bad) by doubling, then bisect
  constexpr std::int64_t kCap = std::int64_t{1} << 62;
  if (efficiency(PoissonModel{lambda, kCap}) >= target) {
    throw ReferenceUnavailable(fmt::format(
        "the efficiency at lambda = {} stays >= {} for every P up to 2^62, the largest P computed", lambda, target));
  }
  std::int64_t good = 1, bad = 2;
  while (efficiency(PoissonModel{lambda, bad}) >= target) {
    good = bad;
    bad *= 2;
  }
  while (bad - good > 1) {
    const std::int64_t mid = good + (bad - good) / 2;
    (efficiency(PoissonModel{lambda, mid}) >= target ? good : bad) = mid;
  }
  return good;
}

double franklin_P_approximation(double lambda, double target) {
  if (!(lambda > 0.0)) throw engine::InputError(fmt::format("Franklin P: lambda = {} must be > 0", lambda));
  if (!(target > 0.0 && target < 1.0)) {
    throw engine::InputError(fmt::format("Franklin P: efficiency {} must be in (0,1)", target));
  }
  // Franklin §2 at completion time lambda/e: z = sqrt(lambda)(1/e - 1),
  // P ≈ e^{z^2/2} z sqrt(2 pi) / ln 2 (= e^{lambda/2} sqrt(2 pi lambda) / ln 2 at e = 1/2).
  const double excess = 1.0 / target - 1.0;
  const double z_squared = lambda * excess * excess;
  return std::exp(z_squared / 2.0) * std::sqrt(2.0 * std::numbers::pi * z_squared) / std::log(2.0);
}

}  // namespace lbmc::analytic
