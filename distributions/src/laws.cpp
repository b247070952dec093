// The functions of the load laws, derived from the table (laws.hpp): parsing,
// specs and --help from each entry's help line and fields; the analytic
// functions from its facts and either its Boost.Math law (instantiated here
// with the project policy) or its own functions. A law whose facts give one
// value (support_min == support_max) is the point mass there, whichever
// entry it comes from: Boost rejects some degenerate parameters (binomial
// with p in {0,1} or M = 0, Poisson with lambda = 0, geometric and negative
// binomial with p = 1).
#include "lbmc/dist/laws.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/exponential.hpp>
#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/geometric.hpp>
#include <boost/math/distributions/lognormal.hpp>
#include <boost/math/distributions/negative_binomial.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/pareto.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <boost/math/distributions/uniform.hpp>
#include <boost/math/distributions/weibull.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <fmt/format.h>

#include "law_fields.hpp"
#include "lbmc/dist/integer_search.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"

namespace lbmc::dist {
namespace {

namespace bm = boost::math;
using engine::InputError;
using Policy = engine::MathPolicy;
using table::kInf;

// What an entry gives besides its facts.
template <class Law>
constexpr bool kBoostLaw = requires(const Law& l) { LawEntry<Law>::template boost_law<Policy>(l); };
template <class Law>
constexpr bool kOwnFunctions = requires(const Law& l) { LawEntry<Law>::cdf(l, 0.0); };

// The amount added to the Boost law's values.
template <class Law>
constexpr double boost_shift() {
  if constexpr (requires { LawEntry<Law>::boost_shift; }) return LawEntry<Law>::boost_shift;
  return 0.0;
}

template <class Law>
Facts facts_of(const Law& l) {
  return LawEntry<Law>::facts(l);
}
Facts facts_of(const LoadLaw& law) {
  return std::visit([](const auto& l) { return facts_of(l); }, law);
}

// Calls `on_point(v)` for a point mass at v; else `on_boost(distribution,
// integer, shift)` for a law with a Boost.Math law; else `on_own(entry, l)`
// for a law with functions of its own.
template <class OnPoint, class OnBoost, class OnOwn>
double dispatch(const LoadLaw& law, OnPoint on_point, OnBoost on_boost, OnOwn on_own) {
  return std::visit(
      [&](const auto& l) -> double {
        using Law = std::decay_t<decltype(l)>;
        const Facts facts = facts_of(l);
        if (facts.support_min == facts.support_max) return on_point(facts.support_min);
        if constexpr (kBoostLaw<Law>) {
          return on_boost(LawEntry<Law>::template boost_law<Policy>(l), facts.integer_valued, boost_shift<Law>());
        } else if constexpr (kOwnFunctions<Law>) {
          return on_own(LawEntry<Law>{}, l);
        } else {
          return on_point(facts.support_min);  // unreachable: a law with neither is a point mass
        }
      },
      law);
}

// The third central moment, for the Cornish–Fisher start of the integer
// quantile search (0 where the entry gives none).
double third_central_moment(const LoadLaw& law) {
  return std::visit(
      [](const auto& l) -> double {
        using Entry = LawEntry<std::decay_t<decltype(l)>>;
        if constexpr (requires { Entry::third_central_moment(l); }) return Entry::third_central_moment(l);
        return 0.0;
      },
      law);
}

// The smallest integer k with reached(k), searched from the Cornish-Fisher
// value mean + sd(z + (z^2 - 1) skew/6), z the normal quantile of the level.
template <class Reached>
double integer_quantile_search(const LoadLaw& law, double z, Reached reached) {
  const double sd = std::sqrt(variance(law));
  const double third = third_central_moment(law);
  return first_integer(reached, std::floor(mean(law) + sd * (z + (z * z - 1.0) * third / (6.0 * sd * sd * sd))),
                       support_min(law), support_max(law));
}

// Boost's discrete quantile, checked against its definition (the smallest k
// with reached(k)): for binomial laws with M near 2^53 its upper tail
// quantiles at small q come out as M, and its root bracketing can step where
// the incomplete beta and gamma series do not converge. Where the check fails
// or Boost throws, the search above gives the exact k.
template <class BoostQuantile, class Reached>
double checked_integer_quantile(const LoadLaw& law, double z, BoostQuantile boost_quantile, Reached reached) {
  double k = std::numeric_limits<double>::quiet_NaN();
  try {
    k = boost_quantile();
  } catch (const bm::evaluation_error&) {
  }
  if (k == k && reached(k) && (k <= support_min(law) || !reached(k - 1.0))) return k;
  return integer_quantile_search(law, z, reached);
}

// The quantile of a law that gives its cdf and a bracket but no quantile:
// inside [lo, hi], the smallest integer k with reached(k) for an integer law
// (reached(hi) holds); otherwise the smallest x with excess(x) >= 0, excess
// increasing (F(x) - p, or q - P(X > x)), to a relative 2^-52: TOMS 748
// (Alefeld, Potra & Shi 1995) finds a root, and where excess is 0 there (a
// flat stretch of F at the level, such as a gap between the supports of
// two components) bisection finds the stretch's left end.
template <class Reached, class Excess>
double inverted_quantile(std::pair<double, double> bracket, bool integer, Reached reached, Excess excess) {
  const auto [lo, hi] = bracket;
  if (integer) return first_integer(reached, lo, lo, hi);
  if (!(lo < hi) || excess(lo) >= 0.0) return lo;
  if (excess(hi) < 0.0) return hi;
  const auto close = [](double a, double b) { return std::abs(b - a) <= 0x1p-52 * std::max(std::abs(a), std::abs(b)); };
  std::uintmax_t iterations = 256;
  auto [a, b] = bm::tools::toms748_solve(excess, lo, hi, close, iterations, Policy());
  if (excess(a) >= 0.0) b = a;  // a root at a
  if (excess(b) == 0.0) a = lo;
  while (!close(a, b)) {
    const double mid = a + (b - a) / 2.0;
    (excess(mid) >= 0.0 ? b : a) = mid;
  }
  return b;
}

// Boost's incomplete gamma overflows in its prefix (tgamma of a large
// shape) far below the mode, e.g. P(Gamma(2048) <= 1e-10), where the true
// value underflows: there the probability is below the smallest double, so
// the limit of the tail (`below` left of the mean, `above` right of it) is
// the correctly rounded answer.
template <class D, class Compute>
double far_tail_or(const D& d, double at, double below, double above, Compute compute) {
  try {
    return compute();
  } catch (const std::overflow_error&) {
    return at < bm::mean(d) ? below : above;
  }
}

// P(X <= x), or P(X > x) when `upper`, each computed directly.
double tail(const LoadLaw& law, double x, bool upper) {
  const double left = upper ? 1.0 : 0.0;  // the value left of the support
  return dispatch(
      law, [&](double v) { return x >= v ? 1.0 - left : left; },
      [&](const auto& d, bool integer, double shift) {
        const double at = (integer ? std::floor(x) : x) - shift;
        if (at < bm::range(d).first) return left;
        if (at >= bm::range(d).second) return 1.0 - left;
        return far_tail_or(d, at, left, 1.0 - left,
                           [&] { return upper ? bm::cdf(bm::complement(d, at)) : bm::cdf(d, at); });
      },
      [&](auto entry, const auto& l) { return upper ? decltype(entry)::ccdf(l, x) : decltype(entry)::cdf(l, x); });
}

// quantile (upper false: the smallest x with P(X <= x) >= level) and
// quantile_upper (upper true: the smallest x with P(X > x) <= level).
double level_quantile(const LoadLaw& law, double level, bool upper) {
  const auto reached = [&](double k) { return upper ? ccdf(law, k) <= level : cdf(law, k) >= level; };
  const double level_of_min = upper ? 1.0 : 0.0;  // the level whose quantile is support_min
  return dispatch(
      law, [](double v) { return v; },
      [&](const auto& d, bool integer, double shift) {
        if (level == level_of_min) return support_min(law);
        if (level == 1.0 - level_of_min) return support_max(law);
        const auto boost_quantile = [&] {
          return upper ? bm::quantile(bm::complement(d, level)) : bm::quantile(d, level);
        };
        if (!integer) return boost_quantile();
        const bm::normal_distribution<double, Policy> unit;
        const double z = upper ? bm::quantile(bm::complement(unit, level)) : bm::quantile(unit, level);
        return checked_integer_quantile(law, z, [&] { return boost_quantile() + shift; }, reached);
      },
      [&](auto entry, const auto& l) {
        using Entry = decltype(entry);
        if constexpr (requires { Entry::quantile(l, level); }) {
          return upper ? Entry::quantile_upper(l, level) : Entry::quantile(l, level);
        } else {
          if (level == level_of_min) return support_min(law);
          if (level == 1.0 - level_of_min) return support_max(law);
          // Above the median, the upper tail at q = 1 - p (exact): P(X > x)
          // keeps its digits where F(x) is near 1.
          const bool integer = facts_of(l).integer_valued;
          const bool by_tail = upper || (level > 0.5 && !integer);
          const double q = upper ? level : 1.0 - level;
          const auto excess = [&](double x) { return by_tail ? q - ccdf(law, x) : cdf(law, x) - level; };
          return inverted_quantile(by_tail ? Entry::quantile_upper_bracket(l, q) : Entry::quantile_bracket(l, level),
                                   integer, reached, excess);
        }
      });
}

// Folds the entries of the table: f(std::type_identity<Law>{}) for every Law
// of LoadLaw, in its order.
template <class F>
void for_each_law(F f) {
  [&]<class... Laws>(std::variant<Laws...>*) { (f(std::type_identity<Laws>{}), ...); }(static_cast<LoadLaw*>(nullptr));
}

std::string table_help() {
  std::string text = "Laws and their valid ranges (the same for every command):\n";
  for_each_law([&](auto law) { text += fmt::format("  {}\n", table::help_line<typename decltype(law)::type>("; ")); });
  return text;
}

std::string law_names() {
  std::string names;
  for_each_law([&](auto law) {
    const std::string_view name = table::law_name(LawEntry<typename decltype(law)::type>::help);
    names += fmt::format("{}{}", names.empty() ? "" : ", ", name);
  });
  return names;
}

}  // namespace

const std::string& law_ranges_help() {
  static const std::string text = table_help();
  return text;
}

LoadLaw parse_load_law(std::string_view spec) {
  const std::size_t colon = spec.find(':');
  if (colon == std::string_view::npos) {
    throw InputError(fmt::format("'{}': expected NAME:PARAMS, NAME one of {}", spec, law_names()));
  }
  const std::string_view name = spec.substr(0, colon);
  const std::string_view params = spec.substr(colon + 1);
  std::optional<LoadLaw> law;
  for_each_law([&](auto type) {
    using Law = typename decltype(type)::type;
    using Entry = LawEntry<Law>;
    if (law || name != table::law_name(Entry::help)) return;
    if constexpr (requires { Entry::parse(spec, params); }) {
      law = Entry::parse(spec, params);
    } else {
      law = table::parse_fields<Law>(spec, params);
    }
  });
  if (!law) throw InputError(fmt::format("'{}': unknown law '{}' ({})", spec, name, law_names()));
  return *law;
}

std::string to_spec(const LoadLaw& law) {
  return std::visit(
      [](const auto& l) {
        using Law = std::decay_t<decltype(l)>;
        using Entry = LawEntry<Law>;
        if constexpr (requires { Entry::parameters(l); }) {
          return fmt::format("{}:{}", table::law_name(Entry::help), Entry::parameters(l));
        } else {
          return fmt::format("{}:{}", table::law_name(Entry::help), table::print_fields(l));
        }
      },
      law);
}

bool is_continuous(const LoadLaw& law) { return facts_of(law).continuous; }

bool is_integer_valued(const LoadLaw& law) { return facts_of(law).integer_valued; }

double finite_moment_order(const LoadLaw& law) { return facts_of(law).finite_moment_order; }

void require_finite_variance(const LoadLaw& law, std::string_view what) {
  if (finite_moment_order(law) > 2.0) return;
  throw InputError(fmt::format("'{}': its {} is infinite (moments exist below order ALPHA only), and {}",
                               to_spec(law), finite_moment_order(law) > 1.0 ? "variance" : "mean", what));
}

void require_nonnegative(const LoadLaw& law, std::string_view what) {
  if (support_min(law) >= 0.0) return;
  std::visit(
      [&](const auto& l) {
        using Entry = LawEntry<std::decay_t<decltype(l)>>;
        if constexpr (requires { Entry::negative_value(l, what); }) throw InputError(Entry::negative_value(l, what));
      },
      law);
  throw InputError(fmt::format("'{}': values below 0 are possible, and {}", to_spec(law), what));
}

MaxDomain max_domain(const LoadLaw& law) {
  const Facts facts = facts_of(law);
  return facts.support_min == facts.support_max ? MaxDomain::none : facts.domain;
}

Atoms atoms(const LoadLaw& law) {
  return std::visit(
      [](const auto& l) {
        using Entry = LawEntry<std::decay_t<decltype(l)>>;
        if constexpr (requires { Entry::atoms(l); }) return Entry::atoms(l);
        return Atoms{};
      },
      law);
}

double mean(const LoadLaw& law) {
  if (finite_moment_order(law) <= 1.0) return kInf;
  return dispatch(
      law, [](double v) { return v; }, [](const auto& d, bool, double shift) { return bm::mean(d) + shift; },
      [](auto entry, const auto& l) { return decltype(entry)::mean(l); });
}

double variance(const LoadLaw& law) {
  if (finite_moment_order(law) <= 2.0) return kInf;
  return dispatch(
      law, [](double) { return 0.0; }, [](const auto& d, bool, double) { return bm::variance(d); },
      [](auto entry, const auto& l) { return decltype(entry)::variance(l); });
}

double standard_deviation(const LoadLaw& law) { return std::sqrt(variance(law)); }

double cdf(const LoadLaw& law, double x) { return tail(law, x, false); }

double ccdf(const LoadLaw& law, double x) { return tail(law, x, true); }

double pdf(const LoadLaw& law, double x) {
  return dispatch(
      law, [x](double v) { return x == v ? 1.0 : 0.0; },
      [x](const auto& d, bool integer, double shift) {
        if (integer && x != std::floor(x)) return 0.0;
        const double at = x - shift;
        if (at < bm::range(d).first || at > bm::range(d).second) return 0.0;
        return bm::pdf(d, at);
      },
      [x](auto entry, const auto& l) { return decltype(entry)::pdf(l, x); });
}

double quantile(const LoadLaw& law, double p) {
  if (!(p >= 0.0 && p <= 1.0)) throw InputError(fmt::format("quantile level {} outside [0,1]", p));
  return level_quantile(law, p, false);
}

double quantile_upper(const LoadLaw& law, double q) {
  if (!(q >= 0.0 && q <= 1.0)) throw InputError(fmt::format("tail level {} outside [0,1]", q));
  return level_quantile(law, q, true);
}

double support_min(const LoadLaw& law) { return facts_of(law).support_min; }

double support_max(const LoadLaw& law) { return facts_of(law).support_max; }

}  // namespace lbmc::dist
