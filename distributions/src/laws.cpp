// Parsing and analytic functions of the load laws, on Boost.Math with the
// project policy. Degenerate laws (binomial with p in {0,1} or M = 0, Poisson
// with lambda = 0, constant) are handled here as point masses because Boost
// rejects some of them as parameters.
#include "lbmc/dist/laws.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/exponential.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/poisson.hpp>
#include <boost/math/distributions/uniform.hpp>
#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"
#include "lbmc/engine/math_policy.hpp"

namespace lbmc::dist {
namespace {

namespace bm = boost::math;
using engine::InputError;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMaxPoissonLambda = 1e10;

double parse_finite(std::string_view spec, std::string_view text, std::string_view what) {
  try {
    return engine::parse_real(text);
  } catch (const InputError&) {
    throw InputError(fmt::format("'{}': {} '{}' is not a finite number", spec, what, text));
  }
}

void require(bool ok, std::string_view spec, std::string_view rule) {
  if (!ok) throw InputError(fmt::format("'{}': {}", spec, rule));
}

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
  return std::nullopt;
}

auto boost_law(const Normal& l) { return bm::normal_distribution<double, engine::MathPolicy>(l.mu, l.sigma); }
auto boost_law(const Binomial& l) {
  return bm::binomial_distribution<double, engine::MathPolicy>(static_cast<double>(l.trials), l.p);
}
auto boost_law(const Poisson& l) { return bm::poisson_distribution<double, engine::MathPolicy>(l.lambda); }
auto boost_law(const Exponential& l) {
  return bm::exponential_distribution<double, engine::MathPolicy>(1.0 / l.mean);
}
auto boost_law(const Uniform& l) { return bm::uniform_distribution<double, engine::MathPolicy>(l.a, l.b); }

template <class Law>
constexpr bool kIntegerLaw = std::is_same_v<Law, Binomial> || std::is_same_v<Law, Poisson>;

// Calls `f(boost_distribution)` for a non-degenerate law, or returns
// `on_point(v)` for a point mass at v.
template <class OnPoint, class F>
double dispatch(const LoadLaw& law, OnPoint on_point, F f) {
  if (const auto v = point_mass(law)) return on_point(*v);
  return std::visit(
      [&](const auto& l) -> double {
        using Law = std::decay_t<decltype(l)>;
        if constexpr (std::is_same_v<Law, Constant>) {
          return on_point(l.value);  // unreachable: constants are point masses
        } else {
          return f(boost_law(l), kIntegerLaw<Law>);
        }
      },
      law);
}

// The facts of each law, one overload per law type, so that a law without
// its overload does not compile. Supports are stated here rather than taken
// from Boost, whose exponential support starts at the smallest normal double
// instead of 0; a degenerate law's point mass overrides them (point_mass).
struct LawFacts {
  double support_min;
  double support_max;
  bool continuous;      // has a density
  bool integer_valued;  // every value is an integer
};
LawFacts facts(const Normal&) { return {-kInf, kInf, true, false}; }
LawFacts facts(const Binomial& l) { return {0.0, static_cast<double>(l.trials), false, true}; }
LawFacts facts(const Poisson&) { return {0.0, kInf, false, true}; }
LawFacts facts(const Exponential&) { return {0.0, kInf, true, false}; }
LawFacts facts(const Uniform& l) { return {l.a, l.b, true, false}; }
LawFacts facts(const Constant& l) { return {l.value, l.value, false, l.value == std::floor(l.value)}; }
LawFacts facts_of(const LoadLaw& law) {
  return std::visit([](const auto& l) { return facts(l); }, law);
}

}  // namespace

LoadLaw parse_load_law(std::string_view spec) {
  const std::size_t colon = spec.find(':');
  if (colon == std::string_view::npos) {
    throw InputError(fmt::format(
        "'{}': expected NAME:PARAMS, one of normal:MU,SIGMA binomial:M,P poisson:LAMBDA "
        "exponential:MEAN uniform:A,B constant:V",
        spec));
  }
  const std::string_view name = spec.substr(0, colon);
  const std::vector<std::string_view> args = engine::split(spec.substr(colon + 1), ',');
  auto expect_args = [&](std::size_t count, std::string_view form) {
    require(args.size() == count, spec, fmt::format("expected {}", form));
  };
  if (name == "normal") {
    expect_args(2, "normal:MU,SIGMA");
    const Normal law{parse_finite(spec, args[0], "MU"), parse_finite(spec, args[1], "SIGMA")};
    require(law.sigma > 0.0, spec, "SIGMA must be > 0");
    return law;
  }
  if (name == "binomial") {
    expect_args(2, "binomial:M,P");
    const double trials = parse_finite(spec, args[0], "M");
    require(trials >= 0.0, spec, "M must be >= 0");
    require(trials == std::floor(trials) && trials <= 0x1.0p53, spec,
            "M must be an integer (at most 2^53)");
    const Binomial law{static_cast<std::int64_t>(trials), parse_finite(spec, args[1], "P")};
    require(law.p >= 0.0 && law.p <= 1.0, spec, "P must be in [0,1]");
    return law;
  }
  if (name == "poisson") {
    expect_args(1, "poisson:LAMBDA");
    const Poisson law{parse_finite(spec, args[0], "LAMBDA")};
    require(law.lambda >= 0.0, spec, "LAMBDA must be >= 0");
    // Boost.Math's incomplete gamma function, the Poisson cdf, gives up
    // (evaluation_error) from about 1e11 on.
    require(law.lambda <= kMaxPoissonLambda, spec, fmt::format("LAMBDA must be at most {:g}", kMaxPoissonLambda));
    return law;
  }
  if (name == "exponential") {
    expect_args(1, "exponential:MEAN");
    const Exponential law{parse_finite(spec, args[0], "MEAN")};
    require(law.mean > 0.0, spec, "MEAN must be > 0");
    require(std::isfinite(1.0 / law.mean), spec, "MEAN is too small: its rate 1/MEAN overflows");
    return law;
  }
  if (name == "uniform") {
    expect_args(2, "uniform:A,B");
    const Uniform law{parse_finite(spec, args[0], "A"), parse_finite(spec, args[1], "B")};
    require(law.a < law.b, spec, "A must be < B");
    return law;
  }
  if (name == "constant") {
    expect_args(1, "constant:V");
    return Constant{parse_finite(spec, args[0], "V")};
  }
  throw InputError(fmt::format(
      "'{}': unknown law '{}' (normal, binomial, poisson, exponential, uniform, constant)", spec,
      name));
}

std::string to_spec(const LoadLaw& law) {
  return std::visit(
      [](const auto& l) -> std::string {
        using Law = std::decay_t<decltype(l)>;
        if constexpr (std::is_same_v<Law, Normal>) return fmt::format("normal:{},{}", l.mu, l.sigma);
        if constexpr (std::is_same_v<Law, Binomial>) return fmt::format("binomial:{},{}", l.trials, l.p);
        if constexpr (std::is_same_v<Law, Poisson>) return fmt::format("poisson:{}", l.lambda);
        if constexpr (std::is_same_v<Law, Exponential>) return fmt::format("exponential:{}", l.mean);
        if constexpr (std::is_same_v<Law, Uniform>) return fmt::format("uniform:{},{}", l.a, l.b);
        if constexpr (std::is_same_v<Law, Constant>) return fmt::format("constant:{}", l.value);
      },
      law);
}

bool is_continuous(const LoadLaw& law) { return facts_of(law).continuous; }

bool is_integer_valued(const LoadLaw& law) { return facts_of(law).integer_valued; }

double mean(const LoadLaw& law) {
  return dispatch(law, [](double v) { return v; }, [](const auto& d, bool) { return bm::mean(d); });
}

double variance(const LoadLaw& law) {
  return dispatch(law, [](double) { return 0.0; }, [](const auto& d, bool) { return bm::variance(d); });
}

double standard_deviation(const LoadLaw& law) { return std::sqrt(variance(law)); }

double cdf(const LoadLaw& law, double x) {
  return dispatch(
      law, [x](double v) { return x >= v ? 1.0 : 0.0; },
      [x](const auto& d, bool integer) {
        const double lo = bm::range(d).first;
        const double hi = bm::range(d).second;
        const double at = integer ? std::floor(x) : x;
        if (at < lo) return 0.0;
        if (at >= hi) return 1.0;
        return bm::cdf(d, at);
      });
}

double ccdf(const LoadLaw& law, double x) {
  return dispatch(
      law, [x](double v) { return x >= v ? 0.0 : 1.0; },
      [x](const auto& d, bool integer) {
        const double lo = bm::range(d).first;
        const double hi = bm::range(d).second;
        const double at = integer ? std::floor(x) : x;
        if (at < lo) return 1.0;
        if (at >= hi) return 0.0;
        return bm::cdf(bm::complement(d, at));
      });
}

double pdf(const LoadLaw& law, double x) {
  return dispatch(
      law, [x](double v) { return x == v ? 1.0 : 0.0; },
      [x](const auto& d, bool integer) {
        if (integer && x != std::floor(x)) return 0.0;
        const double lo = bm::range(d).first;
        const double hi = bm::range(d).second;
        if (x < lo || x > hi) return 0.0;
        return bm::pdf(d, x);
      });
}

double quantile(const LoadLaw& law, double p) {
  if (!(p >= 0.0 && p <= 1.0)) throw InputError(fmt::format("quantile level {} outside [0,1]", p));
  return dispatch(
      law, [](double v) { return v; },
      [&](const auto& d, bool) {
        if (p == 0.0) return support_min(law);
        if (p == 1.0) return support_max(law);
        return bm::quantile(d, p);
      });
}

double quantile_upper(const LoadLaw& law, double q) {
  if (!(q >= 0.0 && q <= 1.0)) throw InputError(fmt::format("tail level {} outside [0,1]", q));
  return dispatch(
      law, [](double v) { return v; },
      [&](const auto& d, bool) {
        if (q == 1.0) return support_min(law);
        if (q == 0.0) return support_max(law);
        return bm::quantile(bm::complement(d, q));
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
