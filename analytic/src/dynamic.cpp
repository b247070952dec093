// Kimura–Ichiyoshi single-level model: deterministic closed form, the
// exponential-model death-chain recursion, and the paper's asymptotics.
#include "lbmc/analytic/dynamic.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "lbmc/analytic/harmonic.hpp"
#include "lbmc/engine/errors.hpp"

namespace lbmc::analytic {
namespace {

void require_common(std::int64_t p, double t1, double lambda, const char* what) {
  if (p < 1) throw engine::InputError(fmt::format("{}: p = {} must be >= 1", what, p));
  if (!(t1 > 0.0) || !std::isfinite(t1))
    throw engine::InputError(fmt::format("{}: t1 = {} must be positive and finite", what, t1));
  if (!(lambda > 0.0)) throw engine::InputError(fmt::format("{}: lambda = {} must be > 0", what, lambda));
}

void require_integer_nu(double nu, const char* what) {
  if (!(nu >= 1.0) || nu >= 9.007199254740992e15 || nu != std::floor(nu))
    throw engine::InputError(fmt::format("{}: nu = {} must be a positive integer", what, nu));
}

double log_term_value(std::int64_t p, LogTerm log_term) {
  switch (log_term) {
    case LogTerm::harmonic: return harmonic(p);
    case LogTerm::harmonic_excess: return harmonic(p) - 1.0;
    case LogTerm::natural_log: break;
  }
  return std::log(static_cast<double>(p));
}

// v <- v·exp(Q u) for the pure-death chain on {0..K} with rates μ·min(k,p),
// by uniformization at rate Λ = μ·min(p,K); a = Λu is split into steps of at
// most 30 so that e^{-a} does not underflow. The jump matrix is
// B = I + Q/Λ: from k, down with probability min(k,p)/min(p,K).
void propagate_death(std::vector<double>& v, double mu_u, std::int64_t p) {
  const auto size = v.size();
  if (size < 2 || mu_u == 0.0) return;
  const auto top = static_cast<double>(std::min<std::size_t>(static_cast<std::size_t>(p), size - 1));
  const double a_total = mu_u * top;
  const double steps = std::ceil(a_total / 30.0);
  const double a = a_total / steps;
  std::vector<double> down(size);
  for (std::size_t k = 0; k < size; ++k)
    down[k] = static_cast<double>(std::min<std::size_t>(k, static_cast<std::size_t>(p))) / top;
  std::vector<double> term(size), next(size), result(size);
  for (double s = 0.0; s < steps; s += 1.0) {
    term = v;
    double weight = std::exp(-a);
    double mass = weight;
    for (std::size_t k = 0; k < size; ++k) result[k] = weight * term[k];
    const double cap = a + 12.0 * std::sqrt(a) + 40.0;
    for (double m = 1.0; 1.0 - mass > 1e-18 && m < cap; m += 1.0) {
      for (std::size_t k = 0; k < size; ++k)
        next[k] = term[k] * (1.0 - down[k]) + (k + 1 < size ? term[k + 1] * down[k + 1] : 0.0);
      term.swap(next);
      weight *= a / m;
      mass += weight;
      for (std::size_t k = 0; k < size; ++k) result[k] += weight * term[k];
    }
    v = result;
  }
}

}  // namespace

double dynamic_rho(const DynamicParams& params) {
  return params.lambda * params.t1 / (params.nu * static_cast<double>(params.p));
}

double deterministic_completion_time(const DynamicParams& params) {
  require_common(params.p, params.t1, params.lambda, "deterministic_completion_time");
  require_integer_nu(params.nu, "deterministic_completion_time");
  const double u = 1.0 / params.lambda;
  const double r = params.t1 / params.nu;
  const auto p = static_cast<double>(params.p);
  if (r <= p * u) return params.nu * u + r;  // ρ <= 1: producer bottleneck
  const double rounds_before_last = std::floor((params.nu - 1.0) / p);
  return params.nu * u + rounds_before_last * (r - p * u) + r;
}

double deterministic_efficiency(const DynamicParams& params) {
  return params.t1 / (static_cast<double>(params.p) * deterministic_completion_time(params));
}

DeterministicOptimum deterministic_optimum(std::int64_t p, double t1, double lambda) {
  require_common(p, t1, lambda, "deterministic_optimum");
  if (!std::isfinite(lambda) || lambda * t1 > 1e8)
    throw engine::InputError(fmt::format("deterministic_optimum: lambda*t1 = {} must be finite and <= 1e8", lambda * t1));
  const auto last = static_cast<std::int64_t>(std::floor(lambda * t1)) + 1;
  DeterministicOptimum best;
  best.t_p = deterministic_completion_time({p, t1, 1.0, lambda});
  for (std::int64_t nu = 2; nu <= last; ++nu) {
    const double t = deterministic_completion_time({p, t1, static_cast<double>(nu), lambda});
    if (t < best.t_p) {
      best.t_p = t;
      best.nu = nu;
    }
  }
  best.efficiency = t1 / (static_cast<double>(p) * best.t_p);
  return best;
}

double proposition1_inverse_efficiency(const DynamicParams& params) {
  const auto p = static_cast<double>(params.p);
  return 1.0 + dynamic_rho(params) * p * p / (params.lambda * params.t1);
}

double proposition1_inverse_max_efficiency(std::int64_t p, double t1, double lambda) {
  const auto pd = static_cast<double>(p);
  return 1.0 + pd * pd / (lambda * t1);
}

double theorem1_inverse_efficiency(const DynamicParams& params, LogTerm log_term) {
  const auto p = static_cast<double>(params.p);
  return 1.0 + dynamic_rho(params) * p * p * log_term_value(params.p, log_term) / (params.lambda * params.t1);
}

double theorem1_inverse_efficiency_bound(std::int64_t p, double t1, double lambda, LogTerm log_term) {
  const auto pd = static_cast<double>(p);
  return 1.0 + pd * pd * log_term_value(p, log_term) / (lambda * t1);
}

double theorem2_inverse_efficiency_bound(const DynamicParams& params, double c) {
  const auto p = static_cast<double>(params.p);
  return 1.0 + dynamic_rho(params) * p * p * (std::log(p) + c) / (params.lambda * params.t1);
}

double corollary1_efficiency_bound(std::int64_t p, double nu, double c) {
  const auto pd = static_cast<double>(p);
  return 1.0 - pd * (std::log(pd) + c) / nu;
}

double isoefficiency_alpha(int levels) { return (levels + 1.0) / levels; }

double isoefficiency_beta(int levels) { return (levels + 1.0) / 2.0; }

double theorem4_root_degree(double p, int levels) {
  return std::pow(p, 1.0 / levels) * std::pow(std::log(p), 1.0 / (levels - 1.0));
}

double lemma1_expected_max(std::int64_t p, double sigma) { return sigma * harmonic(p); }

double lemma1_expected_max_log(std::int64_t p, double sigma) {
  return sigma * std::log(static_cast<double>(p));
}

double exponential_mean_completion_time(const DynamicParams& params) {
  require_common(params.p, params.t1, params.lambda, "exponential_mean_completion_time");
  if (!(params.nu >= 1.0) || params.nu > 2000.0)
    throw engine::InputError(fmt::format("exponential_mean_completion_time: nu = {} must be in [1, 2000]", params.nu));
  const double r = params.t1 / params.nu;  // 1/μ
  const double u = 1.0 / params.lambda;
  const double q = 1.0 - 1.0 / params.nu;
  const auto p = static_cast<std::size_t>(params.p);
  // d(k)/r = H_{min(k,p)} + (k − p)⁺/p, with H by running sums as k grows.
  std::vector<double> drain{0.0};
  const auto drain_at = [&](std::size_t k) {
    while (drain.size() <= k) {
      const std::size_t j = drain.size();
      drain.push_back(drain.back() + (j <= p ? 1.0 / static_cast<double>(j) : 1.0 / static_cast<double>(p)));
    }
    return drain[k];
  };
  std::vector<double> law{0.0, 1.0};  // law of K_1 on {0, 1}
  double weight = 1.0 / params.nu;    // P(N = n)
  double tail = q;                    // P(N > n)
  double sum = 0.0;                   // Σ_n P(N = n) E d(K_n)/r
  for (;;) {
    double expected = 0.0;
    for (std::size_t k = 1; k < law.size(); ++k) expected += law[k] * drain_at(k);
    sum += weight * expected;
    if (!(tail >= 1e-20)) break;
    propagate_death(law, u / r, params.p);
    law.insert(law.begin(), 0.0);  // the next birth: K -> K + 1
    weight *= q;
    tail *= q;
  }
  return params.nu * u + r * sum;
}

double exponential_mean_completion_time_instant(std::int64_t p, double t1, double nu) {
  require_common(p, t1, 1.0, "exponential_mean_completion_time_instant");
  if (!(nu >= 1.0) || !std::isfinite(nu))
    throw engine::InputError(fmt::format("exponential_mean_completion_time_instant: nu = {} must be >= 1", nu));
  const double q = 1.0 - 1.0 / nu;
  double sum = 0.0;
  double qj = 1.0;  // q^{j-1}
  for (std::int64_t j = 1; j <= p; ++j) {
    sum += qj / static_cast<double>(j);
    qj *= q;
  }
  return t1 / nu * (sum + nu * qj / static_cast<double>(p));
}

}  // namespace lbmc::analytic
