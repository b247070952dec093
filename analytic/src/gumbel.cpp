// Gumbel approximations of the maximum (Mehrotra–Ranka–Wang 1992, §3).
//
// The formulas are evaluated as written (log(alpha) is accurate for every
// double alpha, so -ln(-ln alpha) needs no special form near 1); a zero scale
// (a point mass, or sigma = 0) gives finite answers instead of 0·inf, and
// a_n is taken from the upper tail so that 1 - 1/n keeps its digits.
#include "lbmc/analytic/gumbel.hpp"

#include <cmath>
#include <limits>

#include <boost/math/constants/constants.hpp>
#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"
#include "numbers.hpp"

namespace lbmc::analytic {
namespace {

namespace bmc = boost::math::constants;

}  // namespace

double mean(const GumbelApprox& g) {
  // Mehrotra §3: E(Z*) = a_n + gamma/b_n.
  return g.location + bmc::euler<double>() * g.scale;
}

double variance(const GumbelApprox& g) {
  // Mehrotra §3: Var(Z*) = pi^2 / (6 b_n^2).
  return bmc::pi_sqr_div_six<double>() * g.scale * g.scale;
}

double cdf(const GumbelApprox& g, double x) {
  // Mehrotra §3: lim P(b_n (Z* - a_n) <= x) = exp(-e^{-x}).
  if (g.scale == 0.0) return x >= g.location ? 1.0 : 0.0;
  return std::exp(-std::exp(-(x - g.location) / g.scale));
}

double quantile(const GumbelApprox& g, double alpha) {
  if (!(alpha >= 0.0 && alpha <= 1.0)) {
    throw engine::InputError(fmt::format("Gumbel quantile level {} outside [0,1]", alpha));
  }
  if (alpha == 0.0) return g.scale == 0.0 ? g.location : -kInf;
  if (alpha == 1.0) return g.scale == 0.0 ? g.location : kInf;
  // Mehrotra §3: x = a_n + (-ln(-ln alpha)) / b_n.
  return g.location - g.scale * std::log(-std::log(alpha));
}

GumbelApprox gumbel_paper(double mu, double sigma, std::int64_t n) {
  if (n < 2) throw engine::InputError(fmt::format("gumbel-paper: n = {} must be >= 2", n));
  if (!(sigma >= 0.0)) {
    throw engine::InputError(fmt::format("gumbel-paper: sigma = {} must be >= 0", sigma));
  }
  // Mehrotra §3: a_n = b_n = sqrt(2 ln n) for normal Z*, and Z = mu + sigma Z*,
  // so location = mu + sigma a_n and scale = sigma / b_n.
  const double root = std::sqrt(2.0 * std::log(static_cast<double>(n)));
  return GumbelApprox{mu + sigma * root, sigma / root};
}

GumbelApprox gumbel_paper(const dist::LoadLaw& law, std::int64_t n) {
  return gumbel_paper(dist::mean(law), dist::standard_deviation(law), n);
}

std::optional<GumbelApprox> gumbel_norming(const dist::LoadLaw& law, std::int64_t n) {
  if (n < 1) throw engine::InputError(fmt::format("gumbel-norming: n = {} must be >= 1", n));
  if (!dist::is_continuous(law) || dist::max_domain(law) == dist::MaxDomain::frechet) return std::nullopt;
  const double dn = static_cast<double>(n);
  // Mehrotra §3 (David 1970): F(a_n) = (n-1)/n, i.e. P(X > a_n) = 1/n, taken
  // from the upper tail so that 1/n keeps its digits for large n.
  const double a_n = dist::quantile_upper(law, 1.0 / dn);
  if (!std::isfinite(a_n)) return std::nullopt;
  // Mehrotra §3: b_n = n f(a_n).
  const double b_n = dn * dist::pdf(law, a_n);
  if (!(b_n > 0.0) || !std::isfinite(b_n)) return std::nullopt;
  return GumbelApprox{a_n, 1.0 / b_n};
}

}  // namespace lbmc::analytic
