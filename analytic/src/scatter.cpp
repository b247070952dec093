// Load imbalance of the scattered decomposition (Salmon; DESIGN §6).
//
// Exponential tasks: with G_p = t_p/m ~ Gamma(n, 1), l = max_p G_p/n − 1, so
// P(l ≤ x) = P(G ≤ n(1 + x))^N_proc, evaluated as max_of_iid.cpp does: through
// log1p of the upper tail gamma_q when the cdf passes 1/2 (max_of_sums_tails
// with one group). The mean integrates P(l > x) and P(l ≤ x) on each side of
// the median of l, in t = (x − med)/s with s the interquartile range
// (exp_sinh on the half-line, tanh_sinh down to l = −1). The other laws of
// t_p come from sum_law.hpp.
#include "lbmc/analytic/scatter.hpp"

#include <cmath>
#include <limits>

#include <boost/math/constants/constants.hpp>
#include <boost/math/quadrature/exp_sinh.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <fmt/format.h>

#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/analytic/max_of_sums.hpp"
#include "lbmc/analytic/sum_law.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"
#include "numbers.hpp"

namespace lbmc::analytic {
namespace {

namespace quad = boost::math::quadrature;


void require_procs_confidence(std::int64_t procs, double c) {
  if (procs < 1) throw engine::InputError(fmt::format("scattered decomposition: N_proc = {} must be >= 1", procs));
  if (!(c > 0.0 && c < 1.0)) {
    throw engine::InputError(fmt::format("scattered decomposition: confidence {} outside (0,1)", c));
  }
}

void require_point(const dist::LoadLaw& task, std::int64_t n, std::int64_t procs) {
  if (n < 1) throw engine::InputError(fmt::format("scattered decomposition: n = {} tasks must be >= 1", n));
  if (procs < 1) throw engine::InputError(fmt::format("scattered decomposition: N_proc = {} must be >= 1", procs));
  if (!(dist::mean(task) > 0.0)) {
    throw engine::InputError(
        fmt::format("scattered decomposition: task law {} has mean <= 0", dist::to_spec(task)));
  }
}


// 1 − c^{1/N}, without cancellation (long double keeps ln(c)/N's rounding).
double upper_root_tail(double c, std::int64_t procs) {
  const long double log_root = std::log(static_cast<long double>(c)) / static_cast<long double>(procs);
  return static_cast<double>(-std::expm1(log_root));
}

// The Gamma(n, 1) quantile at c^{1/N}, through the upper tail when it is small.
double gamma_max_quantile(std::int64_t n, std::int64_t procs, double c) {
  const double a = as_double(n);
  const double tail = upper_root_tail(c, procs);
  if (tail < 0.5) return boost::math::gamma_q_inv(a, tail, engine::MathPolicy());
  return boost::math::gamma_p_inv(a, 1.0 - tail, engine::MathPolicy());
}

}  // namespace

double salmon_constant_log_kept(std::int64_t procs, double c) {
  require_procs_confidence(procs, c);
  // g(x) = x² − 2 ln[N/((1−c)√(2π) x)] = x² + 2 ln x − 2 ln[N/((1−c)√(2π))],
  // increasing from −∞ (x → 0) to +∞: bisect on a bracket.
  const double k = std::log(as_double(procs) / ((1.0 - c) * boost::math::constants::root_two_pi<double>()));
  const auto g = [k](double x) { return x * x + 2.0 * std::log(x) - 2.0 * k; };
  double lo = 1e-300;
  double hi = 1.0;
  while (g(hi) < 0.0) hi *= 2.0;
  for (int i = 0; i < 2000; ++i) {
    const double mid = lo + (hi - lo) / 2.0;
    if (mid <= lo || mid >= hi) break;
    (g(mid) < 0.0 ? lo : hi) = mid;
  }
  return hi;
}

std::optional<double> salmon_constant_printed(std::int64_t procs, double c) {
  require_procs_confidence(procs, c);
  // ln[N²/(2π(1−c)²)] = 2 ln[N/((1−c)√(2π))] (Salmon, final form of l_c).
  const double arg = 2.0 * std::log(as_double(procs) / ((1.0 - c) * boost::math::constants::root_two_pi<double>()));
  if (!(arg > 0.0)) return std::nullopt;
  return std::sqrt(arg);
}

double normal_limit_constant(std::int64_t procs, double c) {
  require_procs_confidence(procs, c);
  return quantile(MaxOfIid{dist::Normal{0.0, 1.0}, procs}, c);
}

double normal_limit_confidence(std::int64_t procs, double constant) {
  if (procs < 1) throw engine::InputError(fmt::format("scattered decomposition: N_proc = {} must be >= 1", procs));
  return cdf(MaxOfIid{dist::Normal{0.0, 1.0}, procs}, constant);
}

double scatter_scale(const dist::LoadLaw& task, std::int64_t n) {
  require_point(task, n, 1);
  return dist::standard_deviation(task) / (std::sqrt(as_double(n)) * dist::mean(task));
}

namespace {

// P(l <= x) and P(l > x) for Gamma(n, 1) processor sums (exponential tasks
// in units of their mean): F^N at n(1 + x), each side without cancellation
// (max_of_sums_tails with one group).
MaxTails gamma_max_tails(std::int64_t n, std::int64_t procs, double x) {
  require_point(dist::Exponential{1.0}, n, procs);
  const double t = as_double(n) * (1.0 + x);
  if (!(t > 0.0)) return {};
  const SumLawGroup sums{*sum_law(dist::Exponential{1.0}, n), procs};
  return max_of_sums_tails({&sums, 1}, t);
}

}  // namespace

double scatter_gamma_cdf(std::int64_t n, std::int64_t procs, double x) { return gamma_max_tails(n, procs, x).below; }

double scatter_gamma_ccdf(std::int64_t n, std::int64_t procs, double x) { return gamma_max_tails(n, procs, x).above; }

std::optional<double> scatter_exact_quantile(const dist::LoadLaw& task, std::int64_t n, std::int64_t procs,
                                             double c) {
  require_point(task, n, procs);
  require_procs_confidence(procs, c);
  if (std::holds_alternative<dist::Constant>(task)) return 0.0;
  if (std::holds_alternative<dist::Normal>(task)) {
    // t_p ~ Normal(nμ, √n σ): l_c = (σ√n/(nμ))·Φ⁻¹(c^{1/N}) (Salmon's P_imbal
    // = P_proc^N_proc with the normal law exact, not a CLT limit).
    return scatter_scale(task, n) * normal_limit_constant(procs, c);
  }
  if (std::holds_alternative<dist::Exponential>(task)) {
    // t_p/m ~ Gamma(n, 1): l_c = G⁻¹(c^{1/N})/n − 1.
    return gamma_max_quantile(n, procs, c) / as_double(n) - 1.0;
  }
  // l_c = (t_c - m_proc)/m_proc, t_c = shift + the c-quantile of the maximum
  // of N sums, formed as the simulation forms l: for integer laws the sample
  // quantile is such a t, and both sides must round alike.
  const double m_proc = as_double(n) * dist::mean(task);
  const auto sum = sum_law(task, n);
  if (!sum) return std::nullopt;
  return (max_quantile(*sum, procs, c) - m_proc) / m_proc;
}

std::optional<double> scatter_exact_mean(const dist::LoadLaw& task, std::int64_t n, std::int64_t procs) {
  require_point(task, n, procs);
  if (std::holds_alternative<dist::Constant>(task)) return 0.0;
  if (std::holds_alternative<dist::Normal>(task)) {
    return scatter_scale(task, n) * mean(MaxOfIid{dist::Normal{0.0, 1.0}, procs});
  }
  if (!std::holds_alternative<dist::Exponential>(task)) {
    const double m_proc = as_double(n) * dist::mean(task);
    const auto sum = sum_law(task, n);
    if (!sum) return std::nullopt;
    return (max_mean(*sum, procs) - m_proc) / m_proc;
  }
  // E l = med + ∫_med^∞ P(l > x) dx − ∫_{−1}^med P(l ≤ x) dx.
  const double a = as_double(n);
  const double med = gamma_max_quantile(n, procs, 0.5) / a - 1.0;
  double s = (gamma_max_quantile(n, procs, 0.75) - gamma_max_quantile(n, procs, 0.25)) / a;
  if (!(s > 0.0) || !std::isfinite(s)) s = 1.0;
  static quad::exp_sinh<double, engine::MathPolicy> right_rule;
  static quad::tanh_sinh<double, engine::MathPolicy> left_rule;
  const double right = right_rule.integrate(
      [&](double t) { return scatter_gamma_ccdf(n, procs, med + s * t); }, 0.0,
      std::numeric_limits<double>::infinity(), kQuadTolerance);
  const double length = (med + 1.0) / s;
  const double left =
      length > 0.0
          ? left_rule.integrate([&](double t) { return scatter_gamma_cdf(n, procs, med - s * t); }, 0.0, length,
                                kQuadTolerance)
          : 0.0;
  return med + s * (right - left);
}

}  // namespace lbmc::analytic
