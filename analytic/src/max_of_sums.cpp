// The exact mean of the maximum of sums with unequal task counts (see
// max_of_sums.hpp for the formula, its evaluation and its truncation).
#include "lbmc/analytic/max_of_sums.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/policies/error_handling.hpp>
#include <boost/math/quadrature/exp_sinh.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <fmt/format.h>

#include "lbmc/analytic/reference_unavailable.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"
#include "numbers.hpp"

namespace lbmc::analytic {
namespace {

namespace quad = boost::math::quadrature;

constexpr double kSmallestLevel = std::numeric_limits<double>::min();

void require_groups(std::span<const SumGroup> groups) {
  std::int64_t processors = 0;
  for (const SumGroup& g : groups) {
    if (g.tasks < 0 || g.processors < 0) {
      throw engine::InputError(fmt::format("maximum of sums: a group of {} processors with {} tasks each is not "
                                           "a group (both must be >= 0)",
                                           g.processors, g.tasks));
    }
    processors += g.processors;
  }
  if (processors < 1) throw engine::InputError("maximum of sums: no group has a processor");
}

void require_decomposition(std::int64_t tasks, std::int64_t procs) {
  if (tasks < 0 || procs < 1) {
    throw engine::InputError(
        fmt::format("decomposition of N = {} tasks on P = {} processors: need N >= 0 and P >= 1", tasks, procs));
  }
}

// The groups with processors, each with its sum law; empty when a law is
// not known.
std::optional<std::vector<SumLawGroup>> group_laws(const dist::LoadLaw& task, std::span<const SumGroup> groups) {
  std::vector<SumLawGroup> laws;
  for (const SumGroup& g : groups) {
    if (g.processors == 0) continue;
    auto sum = sum_law(task, g.tasks);
    if (!sum) return std::nullopt;
    laws.push_back({std::move(*sum), g.processors});
  }
  return laws;
}

// H = P(C <= x) and 1 − H from each group's tails at x (tails_of(g) for the
// g-th group): H = direct · exp(log_part), the factors with F <= 1/2 as
// powers, the others through log1p of their upper tails; 1 − H by expm1 when
// there is no direct factor, else as 1 − H with H <= 1/2.
template <class TailsOf>
MaxTails combined_tails(std::span<const SumLawGroup> groups, TailsOf tails_of) {
  double direct = 1.0;
  bool any_direct = false;
  double log_part = -0.0;  // the empty sum, so that a lone term keeps its sign (P(C > x) = +0, not -0)
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const SumTails t = tails_of(g);
    const auto m = static_cast<double>(groups[g].processors);
    if (t.below <= 0.5) {
      direct *= std::pow(t.below, m);
      any_direct = true;
    } else {
      log_part += m * std::log1p(-t.above);
    }
  }
  if (!any_direct) return {std::exp(log_part), -std::expm1(log_part)};
  const double below = direct * std::exp(log_part);  // <= 1/2
  return {below, 1.0 - below};
}

// The largest alpha-quantile of the groups' maxima: below it H < alpha.
double largest_max_quantile(std::span<const SumLawGroup> groups, double alpha) {
  double q = -kInf;
  for (const SumLawGroup& g : groups) q = std::max(q, max_quantile(g.sum, g.processors, alpha));
  return q;
}

// Integer sums: E C = k0 + Σ_{k0<=k<=k1} P(C > k), k0 the largest
// 2^-60-quantile of the groups' maxima, k1 the first k with
// P(S_g > k) <= 1e-300/m_g for every group (the header's note), from each
// group's tail table on [k0, k1].
double lattice_mean(std::span<const SumLawGroup> groups) {
  const double first = largest_max_quantile(groups, kCertainLevel);
  double last = first;
  for (const SumLawGroup& g : groups) {
    const double level = std::max(kNegligible / static_cast<double>(g.processors), kSmallestLevel);
    last = std::max(last, quantile_upper(g.sum, level));
  }
  if (last - first + 1.0 > kMaxSumTerms) {
    throw ReferenceUnavailable(fmt::format("exact mean of the maximum of sums: the lattice sum over [{}, {}] "
                                           "would take more than {:.0f} terms",
                                           first, last, kMaxSumTerms));
  }
  std::vector<TailTable> tables;
  for (const SumLawGroup& g : groups) tables.push_back(tail_table(g.sum, first, last));
  long double sum = 0.0L;
  for (std::size_t k = 0; k < tables.front().below.size(); ++k) {
    const auto tails_at_k = [&](std::size_t g) { return SumTails{tables[g].below[k], tables[g].above[k]}; };
    sum += combined_tails(groups, tails_at_k).above;
  }
  return first + static_cast<double>(sum);
}

// Continuous sums: E C = c + s[∫_0^∞ (1 − H(c + st)) dt − ∫_0^{(c−x0)/s} H(c − st) dt],
// x0 the largest 1e-300-quantile of the groups' maxima.
double continuous_mean(std::span<const SumLawGroup> groups) {
  const double c = largest_max_quantile(groups, 0.5);
  const double x0 = largest_max_quantile(groups, kNegligible);
  double s = 0.0;
  for (const SumLawGroup& g : groups) {
    s = std::max(s, max_quantile(g.sum, g.processors, 0.75) - max_quantile(g.sum, g.processors, 0.25));
  }
  if (!(s > 0.0) || !std::isfinite(s)) s = 1.0;
  static quad::exp_sinh<double, engine::MathPolicy> half_line_rule;  // tables built once, thread-safe
  static quad::tanh_sinh<double, engine::MathPolicy> bounded_rule;
  const double right = half_line_rule.integrate(
      [&](double t) { return max_of_sums_tails(groups, c + s * t).above; }, 0.0, kInf, kQuadTolerance);
  const double length = (c - x0) / s;
  const double left =
      length > 0.0 ? bounded_rule.integrate([&](double t) { return max_of_sums_tails(groups, c - s * t).below; },
                                            0.0, length, kQuadTolerance)
                   : 0.0;
  return c + s * (right - left);
}

}  // namespace

std::vector<SumGroup> block_groups(std::int64_t tasks, std::int64_t procs) {
  require_decomposition(tasks, procs);
  if (tasks == 0) return {{0, procs}};
  const std::int64_t chunk = (tasks + procs - 1) / procs;  // c = ⌈N/P⌉
  const std::int64_t full = tasks / chunk;                 // q = ⌊N/c⌋ <= P
  const std::int64_t rest = tasks - full * chunk;          // r < c
  std::vector<SumGroup> groups{{chunk, full}};
  if (rest > 0) groups.push_back({rest, 1});
  const std::int64_t idle = procs - full - (rest > 0 ? 1 : 0);
  if (idle > 0) groups.push_back({0, idle});
  return groups;
}

std::vector<SumGroup> cyclic_groups(std::int64_t tasks, std::int64_t procs) {
  require_decomposition(tasks, procs);
  const std::int64_t fewer = tasks / procs;  // ⌊N/P⌋
  const std::int64_t more = tasks % procs;   // processors with ⌈N/P⌉ = ⌊N/P⌋ + 1
  std::vector<SumGroup> groups;
  if (more > 0) groups.push_back({fewer + 1, more});
  groups.push_back({fewer, procs - more});
  return groups;
}

MaxTails max_of_sums_tails(std::span<const SumLawGroup> groups, double x) {
  return combined_tails(groups, [&](std::size_t g) { return sum_tails(groups[g].sum, x); });
}

std::optional<double> max_of_sums_mean(const dist::LoadLaw& task, std::span<const SumGroup> groups) {
  require_groups(groups);
  if (const auto* c = std::get_if<dist::Constant>(&task)) {
    double most = -kInf;
    for (const SumGroup& g : groups) {
      if (g.processors > 0) most = std::max(most, static_cast<double>(g.tasks) * c->value);
    }
    return most;
  }
  const auto laws = group_laws(task, groups);
  if (!laws) return std::nullopt;
  const bool integer = std::all_of(laws->begin(), laws->end(),
                                   [](const SumLawGroup& g) { return is_integer_valued(g.sum); });
  if (!integer) return continuous_mean(*laws);
  try {
    return lattice_mean(*laws);
  } catch (const boost::math::evaluation_error& e) {
    throw ReferenceUnavailable(fmt::format("exact mean of the maximum of sums of {}: the law's cdf cannot be "
                                           "evaluated in its tails ({})",
                                           dist::to_spec(task), e.what()));
  }
}

}  // namespace lbmc::analytic
