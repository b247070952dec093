// The table of load laws: the per-processor load and task-time
// distributions lbmc samples, one entry per law.
//
// Design note
// - One law is one entry of this table: its parameter struct, then its
//   LawEntry specialisation, which holds
//     help     the head of its --help line: the spec form "name:PARAMS",
//              from which the name and the parameters' names are read, and
//              what the parameters mean;
//     fields   the struct's members in the order of the spec, each with its
//              valid range (law_entry.hpp states the one rule behind them):
//              parse_load_law reads them, to_spec prints them, --help
//              states the ranges; `rule` and `check`, a rule across
//              parameters (a law that reads more than numbers gives parse
//              and parameters instead);
//     facts    support, density, integer values, the moments that exist, the
//              domain of attraction of the maximum: for its parameters, so
//              a degenerate one (support_min == support_max) is the point
//              mass there, with no code of its own;
//     its functions: boost_law, its Boost.Math distribution (plus
//              boost_shift, added to Boost's values, and
//              third_central_moment, the start of the integer quantile
//              search), or its own mean, variance, cdf, ccdf, pdf and either
//              quantile and quantile_upper or quantile_bracket and
//              quantile_upper_bracket (laws.cpp then inverts the cdf inside
//              the bracket); a law with neither is always a point mass;
//     Sampler  the sampler class that draws it (samplers.hpp).
//   Its name in LoadLaw below completes it. Everything else, in every
//   layer, is derived: parse_load_law, to_spec, law_ranges_help, the
//   dispatch of the functions below and of visit_sampler, AnySampler,
//   the point masses, is_integer_valued, ...
// - A new law touches four files: this one (its entry, and its name in
//   LoadLaw), its sampler (a class in the sampler header of its kind, so
//   that no include changes, with its source if it has one), its tests
//   (tests/task_time_laws_test.cpp: spec, facts, known values, the exact
//   references its cdf gives, its sampler's goodness of fit) and docs/guide.md's
//   law table. A law whose parameters are laws is declared before LoadLaw
//   and defined after the functions below, which its entry uses on its
//   components.
// - Boost.Math's API shape (DESIGN §9): an object holding the parameters,
//   free functions mean, variance, cdf, ccdf (upper tail, computed directly
//   rather than as 1 - cdf), pdf (density, or mass for discrete laws),
//   quantile. A spec such as "normal:0,1" parses into LoadLaw (DESIGN §3).
//   Only Boost's forward declarations are seen here; laws.cpp instantiates
//   the boost_law templates with the project policy.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include <boost/math/distributions/fwd.hpp>

#include "lbmc/dist/empirical_sample.hpp"
#include "lbmc/dist/law_entry.hpp"
#include "lbmc/engine/lists.hpp"

namespace lbmc::dist {


//! Normal with mean MU and sd SIGMA.
struct Normal { double mu = 0.0; double sigma = 1.0; };
template <> struct LawEntry<Normal> : table::EntryBase {
  static constexpr std::string_view help = "normal:MU,SIGMA       mean MU, sd SIGMA";
  static constexpr auto fields = std::tuple{field(&Normal::mu, -kMax, kMax), field(&Normal::sigma, kMinScale, kMax)};
  static constexpr std::string_view rule = "SIGMA >= 1e-6 |MU|";
  static void check(const Normal& l, const SpecRules& r) { r.spread(l.sigma, std::abs(l.mu), "SIGMA"); }
  static Facts facts(const Normal&) { return {-kInf, kInf, true, false, kInf, MaxDomain::gumbel}; }
  template <class P>
  static auto boost_law(const Normal& l) { return boost::math::normal_distribution<double, P>(l.mu, l.sigma); }
  using Sampler = class NormalSampler;
};

//! Successes in TRIALS Bernoulli(P) trials.
struct Binomial { std::int64_t trials = 1; double p = 0.5; };
template <> struct LawEntry<Binomial> : table::EntryBase {
  static constexpr std::string_view help = "binomial:M,P          successes in M trials of success probability P";
  static constexpr auto fields = std::tuple{field(&Binomial::trials, 0.0, 0x1p53), field(&Binomial::p, 0.0, 1.0)};
  static Facts facts(const Binomial& l) {
    const auto top = static_cast<double>(l.trials);
    return {l.p == 1.0 ? top : 0.0, l.p == 0.0 ? 0.0 : top, false, true, kInf, MaxDomain::none};
  }
  template <class P>
  static auto boost_law(const Binomial& l) {
    return boost::math::binomial_distribution<double, P>(static_cast<double>(l.trials), l.p);
  }
  static double third_central_moment(const Binomial& l) {
    return static_cast<double>(l.trials) * l.p * (1 - l.p) * (1 - 2 * l.p);
  }
  using Sampler = class BinomialSampler;
};

//! Poisson with mean LAMBDA.
struct Poisson { double lambda = 1.0; };
template <> struct LawEntry<Poisson> : table::EntryBase {
  static constexpr std::string_view help = "poisson:LAMBDA        mean LAMBDA, up to where its cdf is computed exactly";
  static constexpr auto fields = std::tuple{field(&Poisson::lambda, 0.0, kMaxIntegerMean)};
  static Facts facts(const Poisson& l) {
    return {0.0, l.lambda == 0.0 ? 0.0 : kInf, false, true, kInf, MaxDomain::gumbel};
  }
  template <class P>
  static auto boost_law(const Poisson& l) { return boost::math::poisson_distribution<double, P>(l.lambda); }
  static double third_central_moment(const Poisson& l) { return l.lambda; }
  using Sampler = class PoissonSampler;
};

//! Exponential with mean MEAN.
struct Exponential { double mean = 1.0; };
template <> struct LawEntry<Exponential> : table::EntryBase {
  static constexpr std::string_view help = "exponential:MEAN      mean MEAN";
  static constexpr auto fields = std::tuple{field(&Exponential::mean, kMinScale, kMax)};
  static Facts facts(const Exponential&) { return {0.0, kInf, true, false, kInf, MaxDomain::gumbel}; }
  template <class P>
  static auto boost_law(const Exponential& l) { return boost::math::exponential_distribution<double, P>(1.0 / l.mean); }
  using Sampler = class ExponentialSampler;
};

//! Uniform on [A, B).
struct Uniform { double a = 0.0; double b = 1.0; };
template <> struct LawEntry<Uniform> : table::EntryBase {
  static constexpr std::string_view help = "uniform:A,B           on [A,B)";
  static constexpr auto fields = std::tuple{field(&Uniform::a, -kMax, kMax), field(&Uniform::b, -kMax, kMax)};
  static constexpr std::string_view rule = "A < B, B - A >= 1e-100 and >= 1e-6 max(|A|,|B|)";
  static void check(const Uniform& l, const SpecRules& r) {
    r.require(l.a < l.b, "A must be < B");
    r.spread(l.b - l.a, std::max(std::abs(l.a), std::abs(l.b)), "B - A");
  }
  static Facts facts(const Uniform& l) { return {l.a, l.b, true, false, kInf, MaxDomain::reversed_weibull}; }
  template <class P>
  static auto boost_law(const Uniform& l) { return boost::math::uniform_distribution<double, P>(l.a, l.b); }
  using Sampler = class UniformSampler;
};

//! The value V (a point mass: no functions of its own).
struct Constant { double value = 0.0; };
template <> struct LawEntry<Constant> : table::EntryBase {
  static constexpr std::string_view help = "constant:V            the value V";
  static constexpr auto fields = std::tuple{field(&Constant::value, -kMax, kMax)};
  static Facts facts(const Constant& l) {
    return {l.value, l.value, false, l.value == std::floor(l.value), kInf, MaxDomain::none};
  }
  using Sampler = class ConstantSampler;
};

//! Gamma with shape K and scale THETA (mean K·THETA).
struct Gamma { double k = 1.0; double theta = 1.0; };
template <> struct LawEntry<Gamma> : table::EntryBase {
  static constexpr std::string_view help = "gamma:K,THETA         shape K, scale THETA (mean K THETA)";
  static constexpr auto fields =
      std::tuple{field(&Gamma::k, 0.01, kMaxIntegerMean), field(&Gamma::theta, kMinScale, kInf)};
  static constexpr std::string_view rule = "K THETA <= 1e100";
  static void check(const Gamma& l, const SpecRules& r) {
    r.require(l.k * l.theta <= kMax, "K THETA (the mean) must be <= 1e100");
  }
  static Facts facts(const Gamma&) { return {0.0, kInf, true, false, kInf, MaxDomain::gumbel}; }
  template <class P>
  static auto boost_law(const Gamma& l) { return boost::math::gamma_distribution<double, P>(l.k, l.theta); }
  using Sampler = class GammaSampler;
};

//! Lognormal: the log of the value is Normal(MU, SIGMA).
struct Lognormal { double mu = 0.0; double sigma = 1.0; };
template <> struct LawEntry<Lognormal> : table::EntryBase {
  static constexpr std::string_view help = "lognormal:MU,SIGMA    the log of the value is normal:MU,SIGMA";
  static constexpr auto fields = std::tuple{field(&Lognormal::mu, -50.0, 50.0), field(&Lognormal::sigma, 1e-6, 5.0)};
  static Facts facts(const Lognormal&) { return {0.0, kInf, true, false, kInf, MaxDomain::gumbel}; }
  template <class P>
  static auto boost_law(const Lognormal& l) { return boost::math::lognormal_distribution<double, P>(l.mu, l.sigma); }
  using Sampler = class LognormalSampler;
};

//! Weibull with shape K and scale LAMBDA: P(X > x) = exp(-(x/LAMBDA)^K).
struct Weibull { double k = 1.0; double lambda = 1.0; };
template <> struct LawEntry<Weibull> : table::EntryBase {
  static constexpr std::string_view help = "weibull:K,LAMBDA      shape K, scale LAMBDA: P(X > x) = exp(-(x/LAMBDA)^K)";
  static constexpr auto fields = std::tuple{field(&Weibull::k, 0.1, 1000.0), field(&Weibull::lambda, kMinScale, 1e80)};
  static Facts facts(const Weibull&) { return {0.0, kInf, true, false, kInf, MaxDomain::gumbel}; }
  template <class P>
  static auto boost_law(const Weibull& l) { return boost::math::weibull_distribution<double, P>(l.k, l.lambda); }
  using Sampler = class WeibullSampler;
};

//! Pareto with shape ALPHA and minimum XM: P(X > x) = (XM/x)^ALPHA, x >= XM.
struct Pareto { double alpha = 3.0; double xm = 1.0; };
template <> struct LawEntry<Pareto> : table::EntryBase {
  static constexpr std::string_view help =
      "pareto:ALPHA,XM       shape ALPHA, minimum XM: P(X > x) = (XM/x)^ALPHA; moments of order below ALPHA only";
  static constexpr auto fields = std::tuple{field(&Pareto::alpha, 0.25, 1000.0), field(&Pareto::xm, kMinScale, 1e20)};
  static Facts facts(const Pareto& l) { return {l.xm, kInf, true, false, l.alpha, MaxDomain::frechet}; }
  template <class P>
  static auto boost_law(const Pareto& l) { return boost::math::pareto_distribution<double, P>(l.xm, l.alpha); }
  using Sampler = class ParetoSampler;
};

//! Geometric: the number of trials up to and including the first success
//! (support 1, 2, ...; mean 1/P).
struct Geometric { double p = 0.5; };
template <> struct LawEntry<Geometric> : table::EntryBase {
  static constexpr std::string_view help = "geometric:P           trials up to the first success (1, 2, ...; mean 1/P)";
  static constexpr auto fields = std::tuple{field(&Geometric::p, 1e-10, 1.0)};
  static Facts facts(const Geometric& l) {
    return {1.0, l.p == 1.0 ? 1.0 : kInf, false, true, kInf, MaxDomain::gumbel};
  }
  // Boost counts the failures before the first success: one less.
  template <class P>
  static auto boost_law(const Geometric& l) { return boost::math::geometric_distribution<double, P>(l.p); }
  static constexpr double boost_shift = 1.0;
  static double third_central_moment(const Geometric& l) { return (2 - l.p) * (1 - l.p) / (l.p * l.p * l.p); }
  using Sampler = class GeometricSampler;
};

//! Negative binomial: the number of failures before the R-th success
//! (support 0, 1, ...; mean R(1-P)/P); R need not be an integer.
struct NegBinomial { double r = 1.0; double p = 0.5; };
template <> struct LawEntry<NegBinomial> : table::EntryBase {
  static constexpr std::string_view help =
      "negbinomial:R,P       failures before the R-th success (0, 1, ...; mean R(1-P)/P)";
  static constexpr auto fields =
      std::tuple{field(&NegBinomial::r, 0.01, kMaxIntegerMean), field(&NegBinomial::p, 0.0, 1.0, true)};
  static constexpr std::string_view rule = "R(1-P)/P <= 1e10";
  static void check(const NegBinomial& l, const SpecRules& r) {
    r.require(l.r * (1.0 - l.p) <= kMaxIntegerMean * l.p,
              "R(1-P)/P (the mean) must be <= 1e10 (where its cdf is computed exactly)");
  }
  static Facts facts(const NegBinomial& l) {
    return {0.0, l.p == 1.0 ? 0.0 : kInf, false, true, kInf, MaxDomain::gumbel};
  }
  template <class P>
  static auto boost_law(const NegBinomial& l) {
    return boost::math::negative_binomial_distribution<double, P>(l.r, l.p);
  }
  static double third_central_moment(const NegBinomial& l) { return l.r * (1 - l.p) * (2 - l.p) / (l.p * l.p * l.p); }
  using Sampler = class NegBinomialSampler;
};

//! The laws with finitely many values known up front (an empirical sample):
//! its distinct values ascending, and the count of each; empty otherwise.
struct Atoms { std::vector<double> values; std::vector<double> counts; double total = 0.0; };

//! The law of a measured sample: each of its m values with probability 1/m.
struct Empirical {
  std::shared_ptr<const EmpiricalSample> sample;
  std::string source;  // FILE or FILE:COLUMN, as given
};
template <> struct LawEntry<Empirical> : table::EntryBase {
  static constexpr std::string_view help =
      "empirical:FILE        the law of a measured sample: one number per line, or FILE:COLUMN for a CSV\n"
      "                        column by name; each value with probability 1/m; |values| <= 1e100; held\n"
      "                        once per process, 8 bytes a value";
  //! Reads the file once per process (8 bytes a value) and shares it with
  //! every spec that names it; engine::available_memory() bounds what a new
  //! file may take (empirical_law.cpp).
  static Empirical parse(std::string_view spec, std::string_view params);
  static std::string parameters(const Empirical& l) { return l.source; }
  static Facts facts(const Empirical& l) {
    return {l.sample->sorted.front(), l.sample->sorted.back(), false, l.sample->integer_valued, kInf,
            MaxDomain::none};
  }
  static double mean(const Empirical& l) { return l.sample->mean; }
  static double variance(const Empirical& l) { return l.sample->variance; }
  static double cdf(const Empirical& l, double x) { return at_most(l, x) / size(l); }
  static double ccdf(const Empirical& l, double x) { return (size(l) - at_most(l, x)) / size(l); }
  static double pdf(const Empirical& l, double x) {
    const auto [first, last] = std::equal_range(l.sample->sorted.begin(), l.sample->sorted.end(), x);
    return static_cast<double>(last - first) / size(l);
  }
  static double quantile(const Empirical& l, double p) {
    return first_value(l, [&](double v) { return cdf(l, v) >= p; });
  }
  static double quantile_upper(const Empirical& l, double q) {
    return first_value(l, [&](double v) { return ccdf(l, v) <= q; });
  }
  static Atoms atoms(const Empirical& l);
  //! The refusal of a negative value: the file and the line of the first one.
  static std::string negative_value(const Empirical& l, std::string_view what);
  using Sampler = class EmpiricalSampler;

 private:
  static double size(const Empirical& l) { return static_cast<double>(l.sample->sorted.size()); }
  static double at_most(const Empirical& l, double x) {
    const auto& s = l.sample->sorted;
    return static_cast<double>(std::upper_bound(s.begin(), s.end(), x) - s.begin());
  }
  // The smallest value v of the sample with reached(v), reached monotone.
  template <class Reached>
  static double first_value(const Empirical& l, Reached reached) {
    const auto& s = l.sample->sorted;
    const auto it = std::partition_point(s.begin(), s.end(), [&](double v) { return !reached(v); });
    return it == s.end() ? s.back() : *it;
  }
};

struct Mixture;  // defined below the functions: its components are laws

//! The closed set of laws the command line can name, in the order of --help.
using LoadLaw = std::variant<Normal, Binomial, Poisson, Exponential, Uniform, Constant, Gamma, Lognormal, Weibull,
                             Pareto, Geometric, NegBinomial, Empirical, Mixture>;

//! Parses a spec of any law of the table: `normal:MU,SIGMA`, `gamma:K,THETA`,
//! `empirical:FILE[:COLUMN]`, ... Throws engine::InputError naming the spec
//! and the rule it breaks. Each law's range is stated by law_ranges_help()
//! and enforced here, for every command alike.
LoadLaw parse_load_law(std::string_view spec);

//! The file a law's values were read from (empirical:FILE), for the run's
//! state; nothing for the laws given by parameters.
std::optional<engine::InputFile> input_file(const LoadLaw& law);

//! Lines for --help: each law's spec, what its parameters mean and their
//! valid range.
const std::string& law_ranges_help();

//! The highest order of the moments that exist: 2 or more for every law but
//! Pareto (the moments of order below ALPHA) and mixtures holding one.
double finite_moment_order(const LoadLaw& law);
//! Throws engine::InputError unless the law's mean and variance exist,
//! naming the law and `what` needs them ("maxload estimates the variance of
//! the maximum").
void require_finite_variance(const LoadLaw& law, std::string_view what);
//! Throws engine::InputError when the law can take values below 0, naming
//! `what` needs nonnegative ones; for an empirical law the message names the
//! file and the line of its first negative value.
void require_nonnegative(const LoadLaw& law, std::string_view what);
//! The domain of attraction of the law's maximum.
MaxDomain max_domain(const LoadLaw& law);
//! The distinct values of a law with finitely many values known up front
//! (an empirical sample) and their counts; empty for every other law.
Atoms atoms(const LoadLaw& law);

//! The canonical spec of a law, shortest round-trip formatting of each
//! parameter ("normal:0,1"); used as the `dist` column of the output.
std::string to_spec(const LoadLaw& law);

//! True for the laws with a density (normal, exponential, uniform, gamma,
//! lognormal, Weibull, Pareto, and mixtures of them); false for the integer
//! laws, the constant and the empirical laws, whatever their values.
bool is_continuous(const LoadLaw& law);
//! True when every value of the law is an integer: binomial, Poisson,
//! geometric, negative binomial, a constant or empirical sample whose values
//! all are, and mixtures of such laws.
bool is_integer_valued(const LoadLaw& law);

double mean(const LoadLaw& law);
double variance(const LoadLaw& law);
double standard_deviation(const LoadLaw& law);
//! P(X <= x).
double cdf(const LoadLaw& law, double x);
//! P(X > x), accurate in the upper tail.
double ccdf(const LoadLaw& law, double x);
//! Density for continuous laws; P(X = x) for integer laws (0 off the integers).
double pdf(const LoadLaw& law, double x);
//! Continuous laws: F^{-1}(p). Integer laws: the smallest k with F(k) >= p.
double quantile(const LoadLaw& law, double p);
//! Continuous laws: the x with P(X > x) = q, accurate for small q.
//! Integer laws: the smallest k with P(X > k) <= q.
double quantile_upper(const LoadLaw& law, double q);
//! The smallest and largest possible values (may be infinite).
double support_min(const LoadLaw& law);
double support_max(const LoadLaw& law);

//! A finite mixture: component i with probability weights[i] / (the sum of
//! the weights), which the spec requires to be 1 within 1e-12; the weights
//! are kept as written, so that the spec prints back exactly.
struct Mixture {
  std::vector<double> weights;
  std::vector<LoadLaw> components;
};
// Its facts and functions from its components' (a finite mixture's
// F = sum p_i F_i and f = sum p_i f_i; moments likewise):
// - support: the hull of the components'; the moments that exist: those
//   every component has;
// - the domain of attraction of the maximum, that of the heaviest tail:
//   P(X > x) = sum p_i P(X_i > x) is dominated by its slowest-decaying
//   term, so Fréchet if any component's is (a polynomial tail outweighs
//   every exponential-type one), else that of the component reaching
//   furthest up: an unbounded one is Gumbel-type whatever the bounded ones
//   do; all bounded, the uniform's reversed Weibull or none for atoms
//   (components that reach the same end are of one kind, all continuous or
//   all integer-valued, and agree);
// - all continuous or all integer-valued (a constant component must be an
//   integer, mixed with integer laws): a law with atoms and a density at
//   once would be neither, and the exact references of the maximum treat
//   every law that is not continuous as one on the integers.
template <>
struct LawEntry<Mixture> : table::EntryBase {
  static constexpr std::string_view help =
      "mix:W1*LAW1+W2*LAW2+...  LAWi with probability Wi, e.g. mix:0.9*exponential:1+0.1*exponential:20;\n"
      "                        2 to 16 components, each any law above but empirical, all continuous or all\n"
      "                        integer-valued; each Wi > 0, their sum 1 within 1e-12";
  //! The most components a mixture may have.
  static constexpr std::size_t kMaxComponents = 16;
  //! The largest |sum of the weights - 1| a spec may leave.
  static constexpr double kWeightTolerance = 1e-12;
  static Mixture parse(std::string_view spec, std::string_view params) {
    const SpecRules rules(spec);
    const std::vector<std::string_view> terms = split_terms(params);
    rules.require(terms.size() >= 2 && terms.size() <= kMaxComponents,
                  fmt::format("expected 2 to {} terms WEIGHT*LAW joined by '+', got {}", kMaxComponents,
                              terms.size()));
    Mixture m;
    for (const std::string_view term : terms) {
      const std::size_t star = term.find('*');
      rules.require(star != std::string_view::npos, fmt::format("the term '{}' is not WEIGHT*LAW", term));
      m.weights.push_back(weight(rules, term.substr(0, star)));
      m.components.push_back(component(rules, term.substr(star + 1)));
    }
    const double total = sum(m.weights);
    rules.require(std::abs(total - 1.0) <= kWeightTolerance,
                  fmt::format("the weights sum to {}, not to 1 (within 1e-12)", total));
    const auto continuous = [](const LoadLaw& c) { return is_continuous(c); };
    const auto integer = [](const LoadLaw& c) { return is_integer_valued(c); };
    rules.require(std::all_of(m.components.begin(), m.components.end(), continuous) ||
                      std::all_of(m.components.begin(), m.components.end(), integer),
                  "the components must be all continuous or all integer-valued (a mixture of both kinds, or "
                  "with a constant that is not an integer, has atoms and a density at once)");
    return m;
  }
  static std::string parameters(const Mixture& m) {
    std::string text;
    for (std::size_t i = 0; i < m.weights.size(); ++i) {
      text += fmt::format("{}{}*{}", i == 0 ? "" : "+", m.weights[i], to_spec(m.components[i]));
    }
    return text;
  }
  static Facts facts(const Mixture& m) {
    Facts f{kInf, -kInf, true, true, kInf, MaxDomain::none};
    bool frechet = false;
    for (const LoadLaw& c : m.components) {
      const MaxDomain domain = max_domain(c);
      frechet = frechet || domain == MaxDomain::frechet;
      if (support_max(c) > f.support_max) f.domain = domain;
      f.support_min = std::min(f.support_min, support_min(c));
      f.support_max = std::max(f.support_max, support_max(c));
      f.continuous = f.continuous && is_continuous(c);
      f.integer_valued = f.integer_valued && is_integer_valued(c);
      f.finite_moment_order = std::min(f.finite_moment_order, finite_moment_order(c));
    }
    if (frechet) f.domain = MaxDomain::frechet;
    return f;
  }
  //! sum_i p_i mu_i.
  static double mean(const Mixture& m) {
    return weighted(m, [](const LoadLaw& c) { return dist::mean(c); });
  }
  //! sum_i p_i sigma_i^2 + sum_i p_i (mu_i - mu)^2 (total variance): equal
  //! to sum_i p_i (sigma_i^2 + mu_i^2) - mu^2, without its cancellation.
  static double variance(const Mixture& m) {
    const double mu = mean(m);
    return weighted(m, [mu](const LoadLaw& c) {
      const double d = dist::mean(c) - mu;
      return dist::variance(c) + d * d;
    });
  }
  //! sum_i p_i F_i(x).
  static double cdf(const Mixture& m, double x) {
    return weighted(m, [x](const LoadLaw& c) { return dist::cdf(c, x); });
  }
  //! sum_i p_i P(X_i > x), from each component's own upper tail.
  static double ccdf(const Mixture& m, double x) {
    return weighted(m, [x](const LoadLaw& c) { return dist::ccdf(c, x); });
  }
  //! sum_i p_i f_i(x): densities, or masses for an integer mixture.
  static double pdf(const Mixture& m, double x) {
    return weighted(m, [x](const LoadLaw& c) { return dist::pdf(c, x); });
  }
  //! The hull of the components' quantiles at p: F(lo) <= p <= F(hi), since
  //! every F_i is at most p at the first and at least p at the second.
  static std::pair<double, double> quantile_bracket(const Mixture& m, double p) {
    return hull(m, [p](const LoadLaw& c) { return dist::quantile(c, p); });
  }
  //! The same for the upper tail: P(X > lo) >= q >= P(X > hi).
  static std::pair<double, double> quantile_upper_bracket(const Mixture& m, double q) {
    return hull(m, [q](const LoadLaw& c) { return dist::quantile_upper(c, q); });
  }
  //! The sum of the weights (1 within 1e-12).
  static double sum(const std::vector<double>& weights) {
    double total = 0.0;
    for (const double w : weights) total += w;
    return total;
  }
  using Sampler = class MixtureSampler;

 private:
  // The terms of W1*LAW1+W2*LAW2: split at each '+' but those of a number's
  // exponent ("1e+20": a '+' after an 'e' or 'E' that follows a digit or a
  // '.'), with which no valid term ends.
  static std::vector<std::string_view> split_terms(std::string_view params) {
    std::vector<std::string_view> terms;
    std::size_t start = 0;
    for (std::size_t i = 0; i < params.size(); ++i) {
      const auto digit = [&](std::size_t j) { return std::isdigit(static_cast<unsigned char>(params[j])) != 0; };
      const bool exponent = i >= 2 && (params[i - 1] == 'e' || params[i - 1] == 'E') &&
                            (digit(i - 2) || params[i - 2] == '.');
      if (params[i] != '+' || exponent) continue;
      terms.push_back(params.substr(start, i - start));
      start = i + 1;
    }
    terms.push_back(params.substr(start));
    return terms;
  }
  static double weight(const SpecRules& rules, std::string_view text) {
    double w = 0.0;
    try {
      w = engine::parse_real(text);
    } catch (const engine::InputError&) {
      rules.require(false, fmt::format("the weight '{}' is not a finite number", text));
    }
    rules.require(w > 0.0, fmt::format("the weight '{}' must be > 0", text));
    return w;
  }
  static LoadLaw component(const SpecRules& rules, std::string_view spec) {
    rules.require(!spec.empty(), "a term has no law after its '*'");
    const std::string_view name = spec.substr(0, spec.find(':'));
    rules.require(name != table::law_name(help),
                  fmt::format("the component '{}' is a mixture, which cannot nest", spec));
    rules.require(name != table::law_name(LawEntry<Empirical>::help),
                  fmt::format("the component '{}': an empirical law cannot be a component (a file's path may hold "
                              "'+' or '*')",
                              spec));
    try {
      return parse_load_law(spec);
    } catch (const engine::InputError& e) {
      rules.require(false, fmt::format("the component {}", e.what()));
    }
    return {};
  }
  // sum_i p_i g(component i), p_i = w_i / sum w.
  template <class G>
  static double weighted(const Mixture& m, G g) {
    double total = 0.0;
    for (std::size_t i = 0; i < m.weights.size(); ++i) total += m.weights[i] * g(m.components[i]);
    return total / sum(m.weights);
  }
  template <class G>
  static std::pair<double, double> hull(const Mixture& m, G g) {
    std::pair<double, double> range{kInf, -kInf};
    for (const LoadLaw& c : m.components) {
      const double x = g(c);
      range = {std::min(range.first, x), std::max(range.second, x)};
    }
    return range;
  }
};

}  // namespace lbmc::dist
