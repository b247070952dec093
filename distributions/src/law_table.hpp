// The table of law facts: one LawEntry specialisation per law of LoadLaw,
// private to laws.cpp. Each entry holds the law's name, its spec form, a help
// line with the meaning and valid range of its parameters, the parser that
// enforces that range, the parameters as the spec prints them, and the
// law's facts (support, density or atoms, integer values, the moments that
// exist, the domain of attraction of its maximum). Adding a law means one
// struct in laws.hpp, one entry here, its Boost.Math law in laws.cpp, its
// sampler (samplers.hpp) and its tests.
//
// Valid ranges, one rule for every command (DESIGN §3): every value and
// moment a command forms must stay a finite double with room to spare; sums
// of up to 2^62 values of magnitude 1e100 and their squares stay below
// 1e238. A spread below 1e-6 of the location's magnitude would drown in the
// rounding of sums of the values (the relative error of a centred prefix sum
// of n values is about |MU|/SIGMA · 2^-53 · sqrt(n)), and one below 1e-100
// would underflow in the variance. Boost.Math's incomplete gamma and beta
// functions, behind the Poisson, gamma and negative binomial cdfs, stop
// converging beyond means of ~1e10.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/lists.hpp"

namespace lbmc::dist::table {

using engine::InputError;

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kMaxMagnitude = 1e100;
inline constexpr double kMinScale = 1e-100;
inline constexpr double kMinRelativeSpread = 1e-6;

struct Facts {
  double support_min;
  double support_max;
  bool continuous;             // has a density
  bool integer_valued;         // every value is an integer
  double finite_moment_order;  // the moments of order below this exist (kInf: all)
  MaxDomain domain;
};

inline void require(bool ok, std::string_view spec, std::string_view rule) {
  if (!ok) throw InputError(fmt::format("'{}': {}", spec, rule));
}

// The comma-separated numbers of a spec, `count` of them, named `names`.
inline std::vector<double> numbers(std::string_view spec, std::string_view params, std::string_view form,
                                   const std::vector<std::string_view>& names) {
  const std::vector<std::string_view> args = engine::split(params, ',');
  require(args.size() == names.size(), spec, fmt::format("expected {}", form));
  std::vector<double> values;
  for (std::size_t i = 0; i < args.size(); ++i) {
    try {
      values.push_back(engine::parse_real(args[i]));
    } catch (const InputError&) {
      throw InputError(fmt::format("'{}': {} '{}' is not a finite number", spec, names[i], args[i]));
    }
  }
  return values;
}

inline void require_magnitude(double value, std::string_view spec, std::string_view name) {
  require(std::abs(value) <= kMaxMagnitude, spec, fmt::format("|{}| must be <= 1e100", name));
}

inline void require_in(double value, double lo, double hi, std::string_view spec, std::string_view name,
                       std::string_view range) {
  require(value >= lo && value <= hi, spec, fmt::format("{} must be in {}", name, range));
}

inline void require_spread(double spread, double location, std::string_view spec, std::string_view what) {
  require(spread >= kMinScale, spec, fmt::format("{} must be >= 1e-100", what));
  require(spread >= kMinRelativeSpread * location, spec,
          fmt::format("{} must be >= 1e-6 of the location's magnitude, or sums of the values lose their spread "
                      "to rounding",
                      what));
}

template <class Law>
struct LawEntry;

template <>
struct LawEntry<Normal> {
  static constexpr std::string_view name = "normal";
  static constexpr std::string_view help =
      "normal:MU,SIGMA       mean MU, sd SIGMA; |MU| <= 1e100, 1e-100 <= SIGMA <= 1e100, SIGMA >= 1e-6 |MU|";
  static Normal parse(std::string_view spec, std::string_view params) {
    const auto v = numbers(spec, params, "normal:MU,SIGMA", {"MU", "SIGMA"});
    const Normal law{v[0], v[1]};
    require_magnitude(law.mu, spec, "MU");
    require(law.sigma > 0.0, spec, "SIGMA must be > 0");
    require(law.sigma <= kMaxMagnitude, spec, "SIGMA must be <= 1e100");
    require_spread(law.sigma, std::abs(law.mu), spec, "SIGMA");
    return law;
  }
  static std::string parameters(const Normal& l) { return fmt::format("{},{}", l.mu, l.sigma); }
  static Facts facts(const Normal&) { return {-kInf, kInf, true, false, kInf, MaxDomain::gumbel}; }
};

template <>
struct LawEntry<Binomial> {
  static constexpr std::string_view name = "binomial";
  static constexpr std::string_view help =
      "binomial:M,P          successes in M trials; M an integer in [0, 2^53], P in [0,1]";
  static Binomial parse(std::string_view spec, std::string_view params) {
    const auto v = numbers(spec, params, "binomial:M,P", {"M", "P"});
    require(v[0] >= 0.0, spec, "M must be >= 0");
    require(v[0] == std::floor(v[0]) && v[0] <= 0x1.0p53, spec, "M must be an integer (at most 2^53)");
    const Binomial law{static_cast<std::int64_t>(v[0]), v[1]};
    require(law.p >= 0.0 && law.p <= 1.0, spec, "P must be in [0,1]");
    return law;
  }
  static std::string parameters(const Binomial& l) { return fmt::format("{},{}", l.trials, l.p); }
  static Facts facts(const Binomial& l) {
    return {0.0, static_cast<double>(l.trials), false, true, kInf, MaxDomain::none};
  }
};

template <>
struct LawEntry<Poisson> {
  static constexpr std::string_view name = "poisson";
  static constexpr std::string_view help =
      "poisson:LAMBDA        mean LAMBDA; 0 <= LAMBDA <= 1e10 (where its cdf is computed exactly)";
  static Poisson parse(std::string_view spec, std::string_view params) {
    const Poisson law{numbers(spec, params, "poisson:LAMBDA", {"LAMBDA"})[0]};
    require(law.lambda >= 0.0, spec, "LAMBDA must be >= 0");
    require(law.lambda <= kMaxIntegerMean, spec,
            "LAMBDA must be <= 1e10 (where the Poisson cdf is computed exactly)");
    return law;
  }
  static std::string parameters(const Poisson& l) { return fmt::format("{}", l.lambda); }
  static Facts facts(const Poisson&) { return {0.0, kInf, false, true, kInf, MaxDomain::gumbel}; }
};

template <>
struct LawEntry<Exponential> {
  static constexpr std::string_view name = "exponential";
  static constexpr std::string_view help = "exponential:MEAN      mean MEAN; 1e-100 <= MEAN <= 1e100";
  static Exponential parse(std::string_view spec, std::string_view params) {
    const Exponential law{numbers(spec, params, "exponential:MEAN", {"MEAN"})[0]};
    require(law.mean > 0.0, spec, "MEAN must be > 0");
    require_in(law.mean, kMinScale, kMaxMagnitude, spec, "MEAN", "[1e-100, 1e100]");
    return law;
  }
  static std::string parameters(const Exponential& l) { return fmt::format("{}", l.mean); }
  static Facts facts(const Exponential&) { return {0.0, kInf, true, false, kInf, MaxDomain::gumbel}; }
};

template <>
struct LawEntry<Uniform> {
  static constexpr std::string_view name = "uniform";
  static constexpr std::string_view help =
      "uniform:A,B           on [A,B); |A|, |B| <= 1e100, B - A >= 1e-100 and >= 1e-6 max(|A|,|B|)";
  static Uniform parse(std::string_view spec, std::string_view params) {
    const auto v = numbers(spec, params, "uniform:A,B", {"A", "B"});
    const Uniform law{v[0], v[1]};
    require_magnitude(law.a, spec, "A");
    require_magnitude(law.b, spec, "B");
    require(law.a < law.b, spec, "A must be < B");
    require_spread(law.b - law.a, std::max(std::abs(law.a), std::abs(law.b)), spec, "B - A");
    return law;
  }
  static std::string parameters(const Uniform& l) { return fmt::format("{},{}", l.a, l.b); }
  static Facts facts(const Uniform& l) { return {l.a, l.b, true, false, kInf, MaxDomain::reversed_weibull}; }
};

template <>
struct LawEntry<Constant> {
  static constexpr std::string_view name = "constant";
  static constexpr std::string_view help = "constant:V            the value V; |V| <= 1e100";
  static Constant parse(std::string_view spec, std::string_view params) {
    const Constant law{numbers(spec, params, "constant:V", {"V"})[0]};
    require_magnitude(law.value, spec, "V");
    return law;
  }
  static std::string parameters(const Constant& l) { return fmt::format("{}", l.value); }
  static Facts facts(const Constant& l) {
    return {l.value, l.value, false, l.value == std::floor(l.value), kInf, MaxDomain::none};
  }
};

template <>
struct LawEntry<Gamma> {
  static constexpr std::string_view name = "gamma";
  static constexpr std::string_view help =
      "gamma:K,THETA         shape K, scale THETA (mean K THETA); 0.01 <= K <= 1e10, 1e-100 <= THETA, "
      "K THETA <= 1e100";
  static Gamma parse(std::string_view spec, std::string_view params) {
    const auto v = numbers(spec, params, "gamma:K,THETA", {"K", "THETA"});
    const Gamma law{v[0], v[1]};
    require_in(law.k, 0.01, kMaxIntegerMean, spec, "K", "[0.01, 1e10]");
    require(law.theta >= kMinScale, spec, "THETA must be >= 1e-100");
    require(law.k * law.theta <= kMaxMagnitude, spec, "K THETA (the mean) must be <= 1e100");
    return law;
  }
  static std::string parameters(const Gamma& l) { return fmt::format("{},{}", l.k, l.theta); }
  static Facts facts(const Gamma&) { return {0.0, kInf, true, false, kInf, MaxDomain::gumbel}; }
};

template <>
struct LawEntry<Lognormal> {
  static constexpr std::string_view name = "lognormal";
  static constexpr std::string_view help =
      "lognormal:MU,SIGMA    the log of the value is normal:MU,SIGMA; |MU| <= 50, 1e-6 <= SIGMA <= 5";
  static Lognormal parse(std::string_view spec, std::string_view params) {
    const auto v = numbers(spec, params, "lognormal:MU,SIGMA", {"MU", "SIGMA"});
    const Lognormal law{v[0], v[1]};
    require_in(law.mu, -50.0, 50.0, spec, "MU (the mean of the log)", "[-50, 50]");
    require_in(law.sigma, 1e-6, 5.0, spec, "SIGMA (the sd of the log)", "[1e-6, 5]");
    return law;
  }
  static std::string parameters(const Lognormal& l) { return fmt::format("{},{}", l.mu, l.sigma); }
  static Facts facts(const Lognormal&) { return {0.0, kInf, true, false, kInf, MaxDomain::gumbel}; }
};

template <>
struct LawEntry<Weibull> {
  static constexpr std::string_view name = "weibull";
  static constexpr std::string_view help =
      "weibull:K,LAMBDA      shape K, scale LAMBDA: P(X > x) = exp(-(x/LAMBDA)^K); 0.1 <= K <= 1000, "
      "1e-100 <= LAMBDA <= 1e80";
  static Weibull parse(std::string_view spec, std::string_view params) {
    const auto v = numbers(spec, params, "weibull:K,LAMBDA", {"K", "LAMBDA"});
    const Weibull law{v[0], v[1]};
    require_in(law.k, 0.1, 1000.0, spec, "K", "[0.1, 1000]");
    require_in(law.lambda, kMinScale, 1e80, spec, "LAMBDA", "[1e-100, 1e80]");
    return law;
  }
  static std::string parameters(const Weibull& l) { return fmt::format("{},{}", l.k, l.lambda); }
  static Facts facts(const Weibull&) { return {0.0, kInf, true, false, kInf, MaxDomain::gumbel}; }
};

template <>
struct LawEntry<Pareto> {
  static constexpr std::string_view name = "pareto";
  static constexpr std::string_view help =
      "pareto:ALPHA,XM       shape ALPHA, minimum XM: P(X > x) = (XM/x)^ALPHA; 0.25 <= ALPHA <= 1000, "
      "1e-100 <= XM <= 1e20; mean only for ALPHA > 1, variance only for ALPHA > 2";
  static Pareto parse(std::string_view spec, std::string_view params) {
    const auto v = numbers(spec, params, "pareto:ALPHA,XM", {"ALPHA", "XM"});
    const Pareto law{v[0], v[1]};
    require_in(law.alpha, 0.25, 1000.0, spec, "ALPHA", "[0.25, 1000]");
    require_in(law.xm, kMinScale, 1e20, spec, "XM", "[1e-100, 1e20]");
    return law;
  }
  static std::string parameters(const Pareto& l) { return fmt::format("{},{}", l.alpha, l.xm); }
  static Facts facts(const Pareto& l) { return {l.xm, kInf, true, false, l.alpha, MaxDomain::frechet}; }
};

template <>
struct LawEntry<Geometric> {
  static constexpr std::string_view name = "geometric";
  static constexpr std::string_view help =
      "geometric:P           trials up to the first success (1, 2, ...; mean 1/P); 1e-10 <= P <= 1";
  static Geometric parse(std::string_view spec, std::string_view params) {
    const Geometric law{numbers(spec, params, "geometric:P", {"P"})[0]};
    require_in(law.p, 1e-10, 1.0, spec, "P", "[1e-10, 1]");
    return law;
  }
  static std::string parameters(const Geometric& l) { return fmt::format("{}", l.p); }
  static Facts facts(const Geometric&) { return {1.0, kInf, false, true, kInf, MaxDomain::gumbel}; }
};

template <>
struct LawEntry<NegBinomial> {
  static constexpr std::string_view name = "negbinomial";
  static constexpr std::string_view help =
      "negbinomial:R,P       failures before the R-th success (0, 1, ...; mean R(1-P)/P); 0.01 <= R <= 1e10, "
      "P in (0,1], R(1-P)/P <= 1e10";
  static NegBinomial parse(std::string_view spec, std::string_view params) {
    const auto v = numbers(spec, params, "negbinomial:R,P", {"R", "P"});
    const NegBinomial law{v[0], v[1]};
    require_in(law.r, 0.01, kMaxIntegerMean, spec, "R", "[0.01, 1e10]");
    require(law.p > 0.0 && law.p <= 1.0, spec, "P must be in (0,1]");
    require(law.r * (1.0 - law.p) <= kMaxIntegerMean * law.p, spec,
            "R(1-P)/P (the mean) must be <= 1e10 (where its cdf is computed exactly)");
    return law;
  }
  static std::string parameters(const NegBinomial& l) { return fmt::format("{},{}", l.r, l.p); }
  static Facts facts(const NegBinomial&) { return {0.0, kInf, false, true, kInf, MaxDomain::gumbel}; }
};

template <>
struct LawEntry<Empirical> {
  static constexpr std::string_view name = "empirical";
  static constexpr std::string_view help =
      "empirical:FILE        the law of a measured sample: one number per line, or FILE:COLUMN for a CSV\n"
      "                        column by name; each value with probability 1/m; |values| <= 1e100; held\n"
      "                        once per process, 8 bytes a value";
  static Empirical parse(std::string_view spec, std::string_view params);  // laws.cpp: reads the file
  static std::string parameters(const Empirical& l) { return l.source; }
  static Facts facts(const Empirical& l) {
    return {l.sample->sorted.front(), l.sample->sorted.back(), false, l.sample->integer_valued, kInf,
            MaxDomain::none};
  }
};

}  // namespace lbmc::dist::table
