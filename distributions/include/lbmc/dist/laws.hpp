// Load laws: the per-processor load and task-time distributions lbmc samples.
//
// Each law is a small value type holding its parameters, with Boost.Math's
// API shape: free functions mean, variance, cdf, ccdf (upper tail, computed
// directly rather than as 1 - cdf), pdf (density, or mass for discrete laws),
// quantile. LoadLaw is the closed set the command line can name; a spec such
// as "normal:0,1" parses into it (DESIGN §3). The facts of every law (name,
// parameters and their ranges, support, integer values, moments that exist,
// domain of attraction of its maximum, help text) are one table,
// law_table.hpp beside laws.cpp; parsing, to_spec, --help and the functions
// below are driven from it. Samplers live in samplers.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lbmc/dist/empirical_sample.hpp"

namespace lbmc::dist {

struct Normal {
  double mu = 0.0;
  double sigma = 1.0;
};
struct Binomial {
  std::int64_t trials = 1;
  double p = 0.5;
};
struct Poisson {
  double lambda = 1.0;
};
//! The largest mean of the Poisson law (and the shape and size parameters of
//! the gamma and negative binomial laws): Boost.Math's incomplete gamma and
//! beta functions behind their cdfs stop converging beyond it.
inline constexpr double kMaxIntegerMean = 1e10;
struct Exponential {
  double mean = 1.0;
};
struct Uniform {
  double a = 0.0;
  double b = 1.0;
};
struct Constant {
  double value = 0.0;
};

//! Gamma with shape K and scale THETA (mean K·THETA).
struct Gamma {
  double k = 1.0;
  double theta = 1.0;
};
//! Lognormal: the log of the value is Normal(MU, SIGMA).
struct Lognormal {
  double mu = 0.0;
  double sigma = 1.0;
};
//! Weibull with shape K and scale LAMBDA: P(X > x) = exp(-(x/LAMBDA)^K).
struct Weibull {
  double k = 1.0;
  double lambda = 1.0;
};
//! Pareto with shape ALPHA and minimum XM: P(X > x) = (XM/x)^ALPHA, x >= XM.
struct Pareto {
  double alpha = 3.0;
  double xm = 1.0;
};
//! Geometric: the number of trials up to and including the first success
//! (support 1, 2, ...; mean 1/P).
struct Geometric {
  double p = 0.5;
};
//! Negative binomial: the number of failures before the R-th success
//! (support 0, 1, ...; mean R(1-P)/P); R need not be an integer.
struct NegBinomial {
  double r = 1.0;
  double p = 0.5;
};
//! The law of a measured sample: each of its m values with probability 1/m.
struct Empirical {
  std::shared_ptr<const EmpiricalSample> sample;
  std::string source;  // FILE or FILE:COLUMN, as given
};

using LoadLaw = std::variant<Normal, Binomial, Poisson, Exponential, Uniform, Constant, Gamma, Lognormal, Weibull,
                             Pareto, Geometric, NegBinomial, Empirical>;

//! The limit law of the normalised maximum of n iid values (Fisher–Tippett):
//! Gumbel (exponential-type tails: normal, exponential, gamma, lognormal,
//! Weibull; the integer laws are compared with it too, though a lattice law
//! has no non-degenerate limit), Fréchet (polynomial tails: Pareto), reversed
//! Weibull (a finite upper end with a density: uniform), or none (a point
//! mass, or a law with finitely many values).
enum class MaxDomain { gumbel, frechet, reversed_weibull, none };

//! Parses a spec of any law of the table: `normal:MU,SIGMA`, `gamma:K,THETA`,
//! `empirical:FILE[:COLUMN]`, ... Throws engine::InputError naming the spec
//! and the rule it breaks. Each law's range is stated by law_ranges_help()
//! and enforced here, for every command alike. An empirical law's file is
//! read once per process (8 bytes a value) and shared by every spec that
//! names it; `memory_budget` bytes (engine::available_memory() by default)
//! bound what a new file may take.
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
//! The laws with finitely many values known up front (an empirical sample):
//! its distinct values ascending, and the count of each; empty otherwise.
struct Atoms {
  std::vector<double> values;
  std::vector<double> counts;
  double total = 0.0;
};
Atoms atoms(const LoadLaw& law);

//! The canonical spec of a law, shortest round-trip formatting of each
//! parameter ("normal:0,1"); used as the `dist` column of the output.
std::string to_spec(const LoadLaw& law);

//! True for the laws with a density (normal, exponential, uniform, gamma,
//! lognormal, Weibull, Pareto); false for the integer laws, the constant and
//! the empirical laws, whatever their values.
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
