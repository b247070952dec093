// Goodness of fit of a sampler's draws to its law, for the tests of the
// samplers and of the laws: the moments within 4 standard errors estimated
// from the run, Kolmogorov-Smirnov against the exact cdf (level 1e-3),
// chi-square against the exact cdf over bins fixed before looking at the
// draws (level 1e-4), and tail counts within 4 sd. Every threshold is a
// quantile at a stated level, never a tuned constant.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <boost/math/distributions/chi_squared.hpp>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/math_policy.hpp"
#include "lbmc/engine/philox.hpp"
#include "lbmc/engine/rng.hpp"

namespace lbmc::test {

using dist::LoadLaw;

//! `count` draws of the sampler from the generator of (seed, block).
template <class Sampler>
std::vector<double> draw(const Sampler& sampler, std::uint64_t seed, std::size_t count,
                         std::uint64_t block = 0) {
  engine::Generator gen = engine::block_generator(seed, block);
  std::vector<double> out(count);
  for (double& x : out) x = sampler(gen);
  return out;
}

//! `count` draws of the sampler's portable form from the counter-based
//! stream of (seed, block), its replication 0.
template <class Sampler>
std::vector<double> draw_counter_stream(const Sampler& sampler, std::uint64_t seed, std::size_t count,
                                        std::uint64_t block = 0) {
  engine::PhiloxStream stream = engine::block_philox(seed, block);
  const auto portable = sampler.portable();
  std::vector<double> out(count);
  for (double& x : out) x = portable(stream);
  return out;
}

// |sample mean - mean| <= 4 se and |sample variance - variance| <= 4 se, the
// se's estimated from the run (se of s^2: sqrt((m4 - m2^2)/n)). Values are
// centred on the true mean first, so huge means lose no digits.
inline void check_moments(const std::vector<double>& xs, const LoadLaw& law) {
  const double mu = dist::mean(law);
  const double var = dist::variance(law);
  const auto n = static_cast<double>(xs.size());
  double s1 = 0.0;
  for (double x : xs) s1 += x - mu;
  const double d = s1 / n;  // sample mean - mu
  double m2 = 0.0, m4 = 0.0;
  for (double x : xs) {
    const double c = (x - mu) - d;
    m2 += c * c;
    m4 += c * c * c * c;
  }
  m2 /= n;
  m4 /= n;
  const double s2 = m2 * n / (n - 1.0);
  const double se_mean = std::sqrt(s2 / n);
  const double se_var = std::sqrt(std::max(m4 - m2 * m2, 0.0) / n);
  INFO("law ", dist::to_spec(law), ": mean ", mu + d, " vs ", mu, " (se ", se_mean, "), variance ",
       s2, " vs ", var, " (se ", se_var, ")");
  CHECK(std::abs(d) <= 4.0 * se_mean);
  CHECK(std::abs(s2 - var) <= 4.0 * se_var);
}

// Kolmogorov-Smirnov against the exact cdf, level 1e-3: D (sqrt(n) + 0.12 +
// 0.11/sqrt(n)) <= sqrt(-ln(alpha/2)/2) = 1.9495 (Stephens 1970).
inline void check_ks(std::vector<double> xs, const LoadLaw& law) {
  std::sort(xs.begin(), xs.end());
  const auto n = static_cast<double>(xs.size());
  double d = 0.0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double f = dist::cdf(law, xs[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  const double alpha = 1e-3;
  const double critical = std::sqrt(-0.5 * std::log(alpha / 2.0));
  const double statistic = d * (std::sqrt(n) + 0.12 + 0.11 / std::sqrt(n));
  INFO("law ", dist::to_spec(law), ": KS D = ", d, ", scaled ", statistic, " vs ", critical);
  CHECK(statistic <= critical);
}

// A law's cdf and upper tail, P(X <= x) and P(X > x).
struct Cdf {
  std::function<double(double)> lower;
  std::function<double(double)> upper;
};
inline Cdf exact_cdf(const LoadLaw& law) {
  return {[law](double x) { return dist::cdf(law, x); },
          [law](double x) { return dist::ccdf(law, x); }};
}

// Chi-square test over the bins (-inf, e_0], (e_0, e_1], ..., (e_last, inf),
// the bins first pooled left to right until each expects >= 5 (the leftover
// joins the last bin). Level 1e-4; the critical value is Boost's chi-square
// quantile with bins - 1 degrees of freedom. Bin probabilities are cdf
// differences taken in whichever tail avoids cancellation.
struct ChiSquare {
  double statistic;
  double critical;  // at level 1e-4
  double df;
};
inline ChiSquare chi_square(const std::vector<double>& xs, const Cdf& F, std::vector<double> edges) {
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  const auto n = static_cast<double>(xs.size());
  std::vector<double> upper;  // pooled bins' upper edges; the last is +inf
  std::vector<double> prob;
  double lower_prev = 0.0;  // P(X <= previous edge)
  double upper_prev = 1.0;  // P(X > previous edge)
  double pending = 0.0;
  edges.push_back(std::numeric_limits<double>::infinity());
  for (double e : edges) {
    const double lower = std::isinf(e) ? 1.0 : F.lower(e);
    const double upper_tail = std::isinf(e) ? 0.0 : F.upper(e);
    pending += lower <= 0.5 ? lower - lower_prev : upper_prev - upper_tail;
    lower_prev = lower;
    upper_prev = upper_tail;
    if (pending * n >= 5.0) {
      upper.push_back(e);
      prob.push_back(pending);
      pending = 0.0;
    }
  }
  REQUIRE(!prob.empty());
  prob.back() += pending;
  upper.back() = std::numeric_limits<double>::infinity();
  std::vector<double> observed(prob.size(), 0.0);
  for (double x : xs) {
    const auto bin =
        static_cast<std::size_t>(std::lower_bound(upper.begin(), upper.end(), x) - upper.begin());
    observed[bin] += 1.0;
  }
  double chi2 = 0.0;
  for (std::size_t j = 0; j < prob.size(); ++j) {
    const double expected = n * prob[j];
    chi2 += (observed[j] - expected) * (observed[j] - expected) / expected;
  }
  const auto df = static_cast<double>(prob.size() - 1);
  REQUIRE(df >= 1.0);
  const double critical = boost::math::quantile(boost::math::complement(
      boost::math::chi_squared_distribution<double, engine::MathPolicy>(df), 1e-4));
  return {chi2, critical, df};
}
inline void check_chi_square(const std::vector<double>& xs, const std::string& name, const Cdf& F,
                      std::vector<double> edges) {
  const ChiSquare c = chi_square(xs, F, std::move(edges));
  INFO(name, ": chi-square ", c.statistic, " on ", c.df, " df, critical ", c.critical);
  CHECK(c.statistic <= c.critical);
}
inline void check_chi_square(const std::vector<double>& xs, const LoadLaw& law,
                      std::vector<double> edges) {
  check_chi_square(xs, dist::to_spec(law), exact_cdf(law), std::move(edges));
}

// Bins for an integer law, fixed before looking at the data: every integer
// within 9 sd of the mean when sd <= 200 (cells of their own; pooling merges
// the far ones), else the integer parts of mean + sd z_j with z_j the normal
// quantiles at j/2048 (about 2048 bins; their probabilities are exact all the same).
inline std::vector<double> integer_edges(const LoadLaw& law) {
  const double mu = dist::mean(law);
  const double sd = dist::standard_deviation(law);
  const double lo = std::max(dist::support_min(law), std::floor(mu - 9.0 * sd - 10.0));
  const double hi = std::min(dist::support_max(law), std::ceil(mu + 9.0 * sd + 10.0));
  std::vector<double> edges;
  if (sd <= 200.0) {
    for (double k = lo; k <= hi; k += 1.0) edges.push_back(k);
    return edges;
  }
  const LoadLaw standard = dist::Normal{0.0, 1.0};
  constexpr int kBins = 2048;
  for (int j = 1; j < kBins; ++j) {
    edges.push_back(std::floor(mu + sd * dist::quantile(standard, j / static_cast<double>(kBins))));
  }
  return edges;
}

// Bins for an integer law with a head: each value 0..63, then the integer
// parts of its quantiles at j/2048 (fixed by the law alone).
inline std::vector<double> head_and_quantile_edges(const LoadLaw& law) {
  std::vector<double> edges;
  for (int k = 0; k < 64; ++k) edges.push_back(k);
  constexpr int kBins = 2048;
  for (int j = 1; j < kBins; ++j) edges.push_back(std::floor(dist::quantile(law, j / static_cast<double>(kBins))));
  return edges;
}

// The count of X > threshold, against n P(X > threshold), within 4 sd.
inline void check_tail_count(const std::vector<double>& xs, const LoadLaw& law, double threshold) {
  const double p = dist::ccdf(law, threshold);
  const auto n = static_cast<double>(xs.size());
  const auto count = static_cast<double>(
      std::count_if(xs.begin(), xs.end(), [&](double x) { return x > threshold; }));
  INFO("law ", dist::to_spec(law), ": #(X > ", threshold, ") = ", count, ", expected ", n * p);
  CHECK(std::abs(count - n * p) <= 4.0 * std::sqrt(n * p * (1.0 - p)));
}

inline void check_integer_law(const std::vector<double>& xs, const LoadLaw& law, const Cdf& reference) {
  const double lo = dist::support_min(law);
  const double hi = dist::support_max(law);
  const bool ok = std::all_of(xs.begin(), xs.end(),
                              [&](double x) { return x == std::floor(x) && x >= lo && x <= hi; });
  CHECK_MESSAGE(ok, "law ", dist::to_spec(law), ": a value is not an integer in the support");
  check_chi_square(xs, dist::to_spec(law), reference, integer_edges(law));
  check_moments(xs, law);
}

inline void check_continuous_law(const std::vector<double>& xs, const LoadLaw& law) {
  check_ks(xs, law);
  check_moments(xs, law);
  check_tail_count(xs, law, dist::quantile_upper(law, 1e-3));
}


}  // namespace lbmc::test
