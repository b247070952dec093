// Parsing and analytic functions of the load laws, on Boost.Math with the
// project policy, driven by the table of law facts (law_table.hpp).
// Degenerate laws (binomial with p in {0,1} or M = 0, Poisson with
// lambda = 0, geometric and negative binomial with p = 1, constant, an
// empirical sample of one value) are handled here as point masses because
// Boost rejects some of them as parameters. Geometric trials are Boost's
// geometric failures plus one; empirical laws are computed from their sorted
// sample.
#include "lbmc/dist/laws.hpp"

#include <algorithm>
#include <stdexcept>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

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
#include <fmt/format.h>

#include "law_table.hpp"
#include "lbmc/dist/integer_search.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/math_policy.hpp"
#include "lbmc/engine/memory_limit.hpp"

namespace lbmc::dist {
namespace {

namespace bm = boost::math;
using engine::InputError;
using table::Facts;
using table::kInf;
using table::LawEntry;

// A law's value when it is a point mass, nothing otherwise.
std::optional<double> point_mass(const LoadLaw& law) {
  if (const auto* c = std::get_if<Constant>(&law)) return c->value;
  if (const auto* b = std::get_if<Binomial>(&law)) {
    if (b->trials == 0 || b->p == 0.0) return 0.0;
    if (b->p == 1.0) return static_cast<double>(b->trials);
  }
  if (const auto* po = std::get_if<Poisson>(&law)) {
    if (po->lambda == 0.0) return 0.0;
  }
  if (const auto* g = std::get_if<Geometric>(&law)) {
    if (g->p == 1.0) return 1.0;
  }
  if (const auto* nb = std::get_if<NegBinomial>(&law)) {
    if (nb->p == 1.0) return 0.0;
  }
  if (const auto* e = std::get_if<Empirical>(&law)) {
    if (e->sample->sorted.front() == e->sample->sorted.back()) return e->sample->sorted.front();
  }
  return std::nullopt;
}

using Policy = engine::MathPolicy;
auto boost_law(const Normal& l) { return bm::normal_distribution<double, Policy>(l.mu, l.sigma); }
auto boost_law(const Binomial& l) {
  return bm::binomial_distribution<double, Policy>(static_cast<double>(l.trials), l.p);
}
auto boost_law(const Poisson& l) { return bm::poisson_distribution<double, Policy>(l.lambda); }
auto boost_law(const Exponential& l) { return bm::exponential_distribution<double, Policy>(1.0 / l.mean); }
auto boost_law(const Uniform& l) { return bm::uniform_distribution<double, Policy>(l.a, l.b); }
auto boost_law(const Gamma& l) { return bm::gamma_distribution<double, Policy>(l.k, l.theta); }
auto boost_law(const Lognormal& l) { return bm::lognormal_distribution<double, Policy>(l.mu, l.sigma); }
auto boost_law(const Weibull& l) { return bm::weibull_distribution<double, Policy>(l.k, l.lambda); }
auto boost_law(const Pareto& l) { return bm::pareto_distribution<double, Policy>(l.xm, l.alpha); }
// Boost counts the failures before the first success; a geometric law here
// counts the trials (shift_of).
auto boost_law(const Geometric& l) { return bm::geometric_distribution<double, Policy>(l.p); }
auto boost_law(const NegBinomial& l) { return bm::negative_binomial_distribution<double, Policy>(l.r, l.p); }

// The amount added to the Boost law's values.
template <class Law>
constexpr double shift_of() {
  return std::is_same_v<Law, Geometric> ? 1.0 : 0.0;
}

template <class Law>
constexpr bool kBoostLaw = !std::is_same_v<Law, Constant> && !std::is_same_v<Law, Empirical>;

Facts facts_of(const LoadLaw& law) {
  return std::visit([](const auto& l) { return LawEntry<std::decay_t<decltype(l)>>::facts(l); }, law);
}

// Calls `f(boost_distribution, integer, shift)` for a non-degenerate law
// with a Boost.Math law, `on_empirical(sample)` for an empirical law, or
// returns `on_point(v)` for a point mass at v.
template <class OnPoint, class OnEmpirical, class F>
double dispatch(const LoadLaw& law, OnPoint on_point, OnEmpirical on_empirical, F f) {
  if (const auto v = point_mass(law)) return on_point(*v);
  return std::visit(
      [&](const auto& l) -> double {
        using Law = std::decay_t<decltype(l)>;
        if constexpr (std::is_same_v<Law, Empirical>) {
          return on_empirical(*l.sample);
        } else if constexpr (!kBoostLaw<Law>) {
          return on_point(l.value);  // unreachable: constants are point masses
        } else {
          return f(boost_law(l), LawEntry<Law>::facts(l).integer_valued, shift_of<Law>());
        }
      },
      law);
}

// Empirical laws: counts of the sorted sample.
double count_at_most(const EmpiricalSample& s, double x) {
  return static_cast<double>(std::upper_bound(s.sorted.begin(), s.sorted.end(), x) - s.sorted.begin());
}
double sample_size(const EmpiricalSample& s) { return static_cast<double>(s.sorted.size()); }

// The smallest value v of the sample with reached(v), reached monotone.
template <class Reached>
double first_sample_value(const EmpiricalSample& s, Reached reached) {
  const auto it = std::partition_point(s.sorted.begin(), s.sorted.end(), [&](double v) { return !reached(v); });
  return it == s.sorted.end() ? s.sorted.back() : *it;
}

// The third central moment, for the Cornish–Fisher start of the integer
// quantile search.
double third_central_moment(const LoadLaw& law) {
  return std::visit(
      [](const auto& l) -> double {
        using Law = std::decay_t<decltype(l)>;
        if constexpr (std::is_same_v<Law, Poisson>) return l.lambda;
        if constexpr (std::is_same_v<Law, Binomial>) {
          return static_cast<double>(l.trials) * l.p * (1 - l.p) * (1 - 2 * l.p);
        }
        if constexpr (std::is_same_v<Law, Geometric>) return (2 - l.p) * (1 - l.p) / (l.p * l.p * l.p);
        if constexpr (std::is_same_v<Law, NegBinomial>) return l.r * (1 - l.p) * (2 - l.p) / (l.p * l.p * l.p);
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

// Empirical samples by file, read once per process.
std::mutex g_samples_mutex;
std::map<std::string, std::shared_ptr<const EmpiricalSample>> g_samples;

// Folds the entries of the table: f(LawEntry<Law>{}) for every Law of LoadLaw.
template <class F>
void for_each_entry(F f) {
  [&]<class... Laws>(std::variant<Laws...>*) { (f(LawEntry<Laws>{}), ...); }(static_cast<LoadLaw*>(nullptr));
}

std::string table_help() {
  std::string text = "Laws and their valid ranges (the same for every command):\n";
  for_each_entry([&](auto entry) { text += fmt::format("  {}\n", decltype(entry)::help); });
  return text;
}

std::string law_names() {
  std::string names;
  for_each_entry([&](auto entry) { names += fmt::format("{}{}", names.empty() ? "" : ", ", decltype(entry)::name); });
  return names;
}

}  // namespace

Empirical table::LawEntry<Empirical>::parse(std::string_view spec, std::string_view params) {
  require(!params.empty(), spec, "expected empirical:FILE or empirical:FILE:COLUMN");
  const auto [path, column] = split_file_column(params);
  const std::string key = path + '\n' + column;
  const std::lock_guard lock(g_samples_mutex);
  auto& held = g_samples[key];
  if (!held) {
    // The reader refuses values past 1e100, the table's magnitude limit.
    try {
      held = std::make_shared<const EmpiricalSample>(read_empirical_sample(path, column, engine::available_memory()));
    } catch (const engine::InputError& e) {
      g_samples.erase(key);
      throw engine::InputError(fmt::format("empirical:{}", e.what()));
    } catch (...) {
      g_samples.erase(key);
      throw;
    }
  }
  return Empirical{held, std::string(params)};
}

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
  std::optional<LoadLaw> law;
  for_each_entry([&](auto entry) {
    using Entry = decltype(entry);
    if (!law && name == Entry::name) law = Entry::parse(spec, spec.substr(colon + 1));
  });
  if (!law) throw InputError(fmt::format("'{}': unknown law '{}' ({})", spec, name, law_names()));
  return *law;
}

std::optional<engine::InputFile> input_file(const LoadLaw& law) {
  if (const auto* e = std::get_if<Empirical>(&law)) return e->sample->file;
  return std::nullopt;
}

std::string to_spec(const LoadLaw& law) {
  return std::visit(
      [](const auto& l) {
        using Entry = LawEntry<std::decay_t<decltype(l)>>;
        return fmt::format("{}:{}", Entry::name, Entry::parameters(l));
      },
      law);
}

bool is_continuous(const LoadLaw& law) { return facts_of(law).continuous; }

bool is_integer_valued(const LoadLaw& law) {
  if (const auto v = point_mass(law)) return *v == std::floor(*v);
  return facts_of(law).integer_valued;
}

double finite_moment_order(const LoadLaw& law) { return facts_of(law).finite_moment_order; }

void require_finite_variance(const LoadLaw& law, std::string_view what) {
  if (finite_moment_order(law) > 2.0) return;
  throw InputError(fmt::format("'{}': its {} is infinite (moments exist below order ALPHA only), and {}",
                               to_spec(law), finite_moment_order(law) > 1.0 ? "variance" : "mean", what));
}

void require_nonnegative(const LoadLaw& law, std::string_view what) {
  if (support_min(law) >= 0.0) return;
  if (const auto* e = std::get_if<Empirical>(&law)) {
    throw InputError(fmt::format("empirical:{}: line {}: the value {} is negative, and {}", e->source,
                                 e->sample->first_negative_line, e->sample->first_negative, what));
  }
  throw InputError(fmt::format("'{}': values below 0 are possible, and {}", to_spec(law), what));
}

MaxDomain max_domain(const LoadLaw& law) {
  if (point_mass(law)) return MaxDomain::none;
  return facts_of(law).domain;
}

Atoms atoms(const LoadLaw& law) {
  Atoms a;
  const auto* e = std::get_if<Empirical>(&law);
  if (e == nullptr) return a;
  for (const double v : e->sample->sorted) {
    if (a.values.empty() || a.values.back() != v) {
      a.values.push_back(v);
      a.counts.push_back(0.0);
    }
    a.counts.back() += 1.0;
  }
  a.total = static_cast<double>(e->sample->sorted.size());
  return a;
}

double mean(const LoadLaw& law) {
  if (finite_moment_order(law) <= 1.0) return kInf;
  return dispatch(
      law, [](double v) { return v; }, [](const EmpiricalSample& s) { return s.mean; },
      [](const auto& d, bool, double shift) { return bm::mean(d) + shift; });
}

double variance(const LoadLaw& law) {
  if (finite_moment_order(law) <= 2.0) return kInf;
  return dispatch(
      law, [](double) { return 0.0; }, [](const EmpiricalSample& s) { return s.variance; },
      [](const auto& d, bool, double) { return bm::variance(d); });
}

double standard_deviation(const LoadLaw& law) { return std::sqrt(variance(law)); }

namespace {

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

}  // namespace

double cdf(const LoadLaw& law, double x) {
  return dispatch(
      law, [x](double v) { return x >= v ? 1.0 : 0.0; },
      [x](const EmpiricalSample& s) { return count_at_most(s, x) / sample_size(s); },
      [x](const auto& d, bool integer, double shift) {
        const double lo = bm::range(d).first;
        const double hi = bm::range(d).second;
        const double at = (integer ? std::floor(x) : x) - shift;
        if (at < lo) return 0.0;
        if (at >= hi) return 1.0;
        return far_tail_or(d, at, 0.0, 1.0, [&] { return bm::cdf(d, at); });
      });
}

double ccdf(const LoadLaw& law, double x) {
  return dispatch(
      law, [x](double v) { return x >= v ? 0.0 : 1.0; },
      [x](const EmpiricalSample& s) { return (sample_size(s) - count_at_most(s, x)) / sample_size(s); },
      [x](const auto& d, bool integer, double shift) {
        const double lo = bm::range(d).first;
        const double hi = bm::range(d).second;
        const double at = (integer ? std::floor(x) : x) - shift;
        if (at < lo) return 1.0;
        if (at >= hi) return 0.0;
        return far_tail_or(d, at, 1.0, 0.0, [&] { return bm::cdf(bm::complement(d, at)); });
      });
}

double pdf(const LoadLaw& law, double x) {
  return dispatch(
      law, [x](double v) { return x == v ? 1.0 : 0.0; },
      [x](const EmpiricalSample& s) {
        const auto [first, last] = std::equal_range(s.sorted.begin(), s.sorted.end(), x);
        return static_cast<double>(last - first) / sample_size(s);
      },
      [x](const auto& d, bool integer, double shift) {
        if (integer && x != std::floor(x)) return 0.0;
        const double at = x - shift;
        const double lo = bm::range(d).first;
        const double hi = bm::range(d).second;
        if (at < lo || at > hi) return 0.0;
        return bm::pdf(d, at);
      });
}

double quantile(const LoadLaw& law, double p) {
  if (!(p >= 0.0 && p <= 1.0)) throw InputError(fmt::format("quantile level {} outside [0,1]", p));
  return dispatch(
      law, [](double v) { return v; },
      [&](const EmpiricalSample& s) {
        return first_sample_value(s, [&](double v) { return count_at_most(s, v) / sample_size(s) >= p; });
      },
      [&](const auto& d, bool integer, double shift) {
        if (p == 0.0) return support_min(law);
        if (p == 1.0) return support_max(law);
        if (!integer) return bm::quantile(d, p);
        const double z = bm::quantile(bm::normal_distribution<double, Policy>(), p);
        return checked_integer_quantile(law, z, [&] { return bm::quantile(d, p) + shift; },
                                        [&](double k) { return cdf(law, k) >= p; });
      });
}

double quantile_upper(const LoadLaw& law, double q) {
  if (!(q >= 0.0 && q <= 1.0)) throw InputError(fmt::format("tail level {} outside [0,1]", q));
  return dispatch(
      law, [](double v) { return v; },
      [&](const EmpiricalSample& s) {
        return first_sample_value(
            s, [&](double v) { return (sample_size(s) - count_at_most(s, v)) / sample_size(s) <= q; });
      },
      [&](const auto& d, bool integer, double shift) {
        if (q == 1.0) return support_min(law);
        if (q == 0.0) return support_max(law);
        if (!integer) return bm::quantile(bm::complement(d, q));
        const double z = bm::quantile(bm::complement(bm::normal_distribution<double, Policy>(), q));
        return checked_integer_quantile(law, z, [&] { return bm::quantile(bm::complement(d, q)) + shift; },
                                        [&](double k) { return ccdf(law, k) <= q; });
      });
}

double support_min(const LoadLaw& law) {
  if (const auto v = point_mass(law)) return *v;
  return facts_of(law).support_min;
}

double support_max(const LoadLaw& law) {
  if (const auto v = point_mass(law)) return *v;
  return facts_of(law).support_max;
}

}  // namespace lbmc::dist
