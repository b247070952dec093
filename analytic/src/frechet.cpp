// The Fréchet limit of the maximum of Pareto loads (see frechet.hpp).
#include "lbmc/analytic/frechet.hpp"

#include <cmath>
#include <limits>

#include <boost/math/special_functions/gamma.hpp>
#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"

namespace lbmc::analytic {

FrechetApprox frechet_limit(const dist::Pareto& law, std::int64_t n) {
  if (n < 1) throw engine::InputError(fmt::format("frechet: n = {} must be >= 1", n));
  return FrechetApprox{law.alpha, law.xm * std::pow(static_cast<double>(n), 1.0 / law.alpha)};
}

double mean(const FrechetApprox& f) {
  if (f.alpha <= 1.0) return std::numeric_limits<double>::infinity();
  return f.scale * boost::math::tgamma(1.0 - 1.0 / f.alpha, engine::MathPolicy());
}

double variance(const FrechetApprox& f) {
  if (f.alpha <= 2.0) return std::numeric_limits<double>::infinity();
  const double g1 = boost::math::tgamma(1.0 - 1.0 / f.alpha, engine::MathPolicy());
  return f.scale * f.scale * (boost::math::tgamma(1.0 - 2.0 / f.alpha, engine::MathPolicy()) - g1 * g1);
}

double quantile(const FrechetApprox& f, double q) {
  if (!(q > 0.0 && q < 1.0)) throw engine::InputError(fmt::format("frechet quantile level {} outside (0,1)", q));
  return f.scale * std::pow(-std::log(q), -1.0 / f.alpha);
}

}  // namespace lbmc::analytic
