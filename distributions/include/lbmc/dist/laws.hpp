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
//   references its cdf gives, its sampler's goodness of fit) and README.md's
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
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

#include <boost/math/distributions/fwd.hpp>

#include "lbmc/dist/empirical_sample.hpp"
#include "lbmc/dist/law_entry.hpp"

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

//! The closed set of laws the command line can name, in the order of --help.
using LoadLaw = std::variant<Normal, Binomial, Poisson, Exponential, Uniform, Constant, Gamma, Lognormal, Weibull,
                             Pareto, Geometric, NegBinomial, Empirical>;

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
//! Pareto (the moments of order below ALPHA).
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
//! lognormal, Weibull, Pareto); false for the integer
//! laws, the constant and the empirical laws, whatever their values.
bool is_continuous(const LoadLaw& law);
//! True when every value of the law is an integer: binomial, Poisson,
//! geometric, negative binomial, and a constant or empirical sample whose
//! values all are.
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

}  // namespace lbmc::dist
