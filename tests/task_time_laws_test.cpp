// The task-time laws: the table of law facts (parsing, specs, ranges, help),
// measured samples from files, finite mixtures (specs, facts, closed forms,
// their sampler, every command), the exact maxima and processor sums
// against 40-digit values (mpmath quadrature and sums, computed
// independently), and the refusal of laws whose moments do not exist.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "lbmc/analytic/frechet.hpp"
#include "lbmc/analytic/gumbel.hpp"
#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/analytic/scatter.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/rng.hpp"
#include "support/files.hpp"
#include "support/goodness_of_fit.hpp"

namespace task_time_laws_test {

using namespace lbmc;
namespace fs = std::filesystem;

namespace {

using lbmc::test::shell;
using lbmc::test::slurp;

fs::path scratch_file(const std::string& name, const std::string& content) {
  const fs::path path = fs::temp_directory_path() / ("lbmc_task_time_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

// The error message of parse_load_law(spec), or "" when it parses.
std::string refusal(const std::string& spec) {
  try {
    dist::parse_load_law(spec);
  } catch (const engine::InputError& e) {
    return e.what();
  }
  return "";
}

bool close(double got, double want, double relative) {
  return std::abs(got - want) <= relative * std::abs(want);
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("task-time laws: every law of the table parses - prints its spec back and states its range") {
    for (const char* spec : {"gamma:2.5,2", "lognormal:0,0.5", "weibull:1.5,2", "pareto:4.5,1", "geometric:0.3",
                             "negbinomial:3,0.4", "normal:0,1", "poisson:4"}) {
      CAPTURE(spec);
      const dist::LoadLaw law = dist::parse_load_law(spec);
      CHECK(dist::to_spec(law) == spec);
      const std::string name = std::string(spec).substr(0, std::string(spec).find(':'));
      CHECK(dist::law_ranges_help().find(name + ":") != std::string::npos);
    }
    CHECK(dist::is_integer_valued(dist::Geometric{0.3}));
    CHECK(dist::is_integer_valued(dist::NegBinomial{3, 0.4}));
    CHECK_FALSE(dist::is_continuous(dist::NegBinomial{3, 0.4}));
    CHECK(dist::is_continuous(dist::Gamma{2, 1}));
    CHECK(dist::support_min(dist::Geometric{0.3}) == 1.0);
    CHECK(dist::support_min(dist::Pareto{3, 2}) == 2.0);
    CHECK(dist::support_max(dist::Weibull{2, 1}) == INFINITY);
    CHECK(dist::max_domain(dist::Pareto{3, 2}) == dist::MaxDomain::frechet);
    CHECK(dist::max_domain(dist::Lognormal{0, 1}) == dist::MaxDomain::gumbel);
    // Geometric trials are Boost's failures plus one.
    CHECK(dist::mean(dist::Geometric{0.25}) == 4.0);
    CHECK(dist::cdf(dist::Geometric{0.5}, 1.0) == 0.5);
    CHECK(dist::quantile(dist::Geometric{0.5}, 0.75) == 2.0);
    // Each range is refused just beyond its edge, with the rule named.
    CHECK(refusal("gamma:0.009,1").find("K must be in [0.01, 1e10]") != std::string::npos);
    CHECK(refusal("gamma:0.01,1").empty());
    CHECK(refusal("lognormal:0,5.1").find("SIGMA") != std::string::npos);
    CHECK(refusal("weibull:0.09,1").find("K must be") != std::string::npos);
    CHECK(refusal("pareto:0.2,1").find("ALPHA must be") != std::string::npos);
    CHECK(refusal("geometric:0").find("P must be") != std::string::npos);
    CHECK(refusal("negbinomial:1e10,1e-3").find("the mean") != std::string::npos);
    CHECK(refusal("negbinomial:2").find("expected negbinomial:R,P") != std::string::npos);
    CHECK(refusal("cauchy:0,1").find("unknown law 'cauchy'") != std::string::npos);
  }

  TEST_CASE("task-time laws: a law without a mean or variance is refused by what needs it") {
    CHECK_THROWS_AS(dist::require_finite_variance(dist::Pareto{2.0, 1.0}, "x"), engine::InputError);
    CHECK_THROWS_AS(dist::require_finite_variance(dist::Pareto{0.9, 1.0}, "x"), engine::InputError);
    CHECK_NOTHROW(dist::require_finite_variance(dist::Pareto{2.01, 1.0}, "x"));
    CHECK(dist::mean(dist::Pareto{1.0, 1.0}) == INFINITY);
    CHECK(dist::variance(dist::Pareto{1.5, 1.0}) == INFINITY);
    CHECK_FALSE(analytic::gumbel_norming(dist::Pareto{3.0, 1.0}, 100));
  }

  TEST_CASE("task-time laws: exact maxima against 40-digit quadrature and sums") {
    struct Case {
      const char* spec;
      std::int64_t n;
      double mean, variance, q95;
    };
    // tests/reference: mpmath at 40 digits, E Z and Var Z by quadrature of
    // x n F^(n-1) f (sums of k (F(k)^n - F(k-1)^n) for the integer laws),
    // the 0.95 quantile as the root of F(x) = 0.95^(1/n).
    const Case cases[] = {
        {"gamma:2.5,2", 10, 10.78804162447630943, 10.14200397775777233, 16.694944879448281951},
        {"gamma:2.5,2", 1000, 21.817622021773487733, 8.4869951798941665173, 27.2368716000166641},
        {"lognormal:0,0.5", 10, 2.2574868374689746192, 0.52483371598851559539, 3.6108300775636210518},
        {"lognormal:0,0.5", 1000, 5.1392469321643797097, 0.96334319596770014712, 6.9740683619262068376},
        {"weibull:1.5,2", 10, 4.01836790401522018, 1.2500258846599880145, 6.0608078286465583971},
        {"weibull:1.5,2", 1000, 7.6296403253676322917, 0.7296916126531718859, 9.2075053218136006865},
        {"pareto:4.5,1", 10, 2.0023580643359951156, 0.49985368447870465841, 3.2294073801998484905},
        {"pareto:4.5,1", 1000, 5.524669835241886897, 3.968664317596999039, 8.9809513400005200949},
        {"geometric:0.3", 10, 8.7118699912613411124, 12.265412373131466366, 15},
        {"geometric:0.3", 1000, 21.486814430778176667, 13.005618599157950648, 28},
        {"negbinomial:3,0.4", 10, 10.585158848769796072, 10.865062992941746069, 17},
        {"negbinomial:3,0.4", 1000, 21.852901814249357483, 8.7392166918296906718, 27},
        // Finite mixtures, F = sum W_i F_i of the closed forms in the
        // mixtures' known-answer test below.
        {"mix:0.9*exponential:1+0.1*exponential:20", 10, 17.317265475331605593, 423.82192516466988836,
         59.455176350218554531},
        {"mix:0.9*exponential:1+0.1*exponential:20", 1000, 103.65771535112598457, 657.57382667262392123,
         151.50782163135647411},
        {"mix:0.5*normal:0,1+0.5*normal:5,1", 100, 7.2468251070732106078, 0.21766772456758788294,
         8.0827163513685691803},
        {"mix:0.7*poisson:3+0.3*poisson:30", 50, 39.788803759524768498, 11.710115572950766181, 46},
        // Fréchet: 0.5 Pareto(3, 1) + 0.5 Exp(1), F(x) = (1 - x^-3 [x >= 1] + 1 - e^-x)/2.
        {"mix:0.5*pareto:3,1+0.5*exponential:1", 10, 2.9474762384787315379, 2.6926246019911881250,
         5.4818028616267382608},
    };
    for (const auto& c : cases) {
      CAPTURE(c.spec);
      CAPTURE(c.n);
      const analytic::MaxOfIid max{dist::parse_load_law(c.spec), c.n};
      const analytic::MaxMoments m = analytic::moments(max);
      CHECK(close(m.mean, c.mean, 1e-9));
      CHECK(close(m.variance, c.variance, 1e-9));
      CHECK(close(analytic::quantile(max, 0.95), c.q95, 1e-9));
    }
    // The Pareto closed form against the law's own quadrature.
    const dist::LoadLaw pareto = dist::Pareto{4.5, 1.0};
    const analytic::MaxOfIid max{pareto, 1000};
    CHECK(close(analytic::numeric_moments(max).mean, analytic::mean(max), 1e-9));
    // The Fréchet limit: a_n = XM n^(1/ALPHA), E ~ a_n Γ(1 - 1/ALPHA).
    const analytic::FrechetApprox f = analytic::frechet_limit(dist::Pareto{4.5, 1.0}, 1000);
    CHECK(close(f.scale, std::pow(1000.0, 1.0 / 4.5), 1e-15));
    CHECK(close(analytic::mean(f), f.scale * std::tgamma(1.0 - 1.0 / 4.5), 1e-14));
  }

  TEST_CASE("task-time laws: scattered decomposition exact processor sums against 40-digit values") {
    // gamma:2,1 tasks: t_p ~ Gamma(20, 1); geometric:0.3: t_p = 10 +
    // NegBinomial(10, 0.3) failures (n = 10 tasks, N = 100 processors).
    CHECK(close(*analytic::scatter_exact_quantile(dist::Gamma{2, 1}, 10, 100, 0.99), 1.051109674186678319, 1e-9));
    CHECK(close(*analytic::scatter_exact_mean(dist::Gamma{2, 1}, 10, 100), 0.65134598257498201934, 1e-9));
    CHECK(close(*analytic::scatter_exact_mean(dist::Geometric{0.3}, 10, 100), 0.81600165852068176103, 1e-9));
    CHECK(*analytic::scatter_exact_quantile(dist::Geometric{0.3}, 10, 100, 0.99) == doctest::Approx(1.37).epsilon(1e-12));
    CHECK_FALSE(analytic::scatter_exact_mean(dist::Lognormal{0, 1}, 10, 100));
    // Integer tasks: the quantile is l = (t - m_proc)/m_proc of an integer t,
    // rounded as the simulation rounds it, so a sample quantile at the same t
    // has the same bits (an ulp apart, a tie would read as z = inf).
    const dist::LoadLaw nb = dist::NegBinomial{3, 0.4};
    const double m_proc = 10 * dist::mean(nb);
    const double t = analytic::quantile(analytic::MaxOfIid{dist::NegBinomial{30, 0.4}, 100}, 0.99);
    CHECK(*analytic::scatter_exact_quantile(nb, 10, 100, 0.99) == (t - m_proc) / m_proc);
  }

  TEST_CASE("task-time laws: integer measured times sum by exact convolution as enumeration says") {
    // Values 1, 1, 2, 4 (P = 1/2, 1/4, 1/4); n = 3 tasks per processor, N = 5
    // processors. The law of the sum by enumerating the 4^3 ordered draws.
    const fs::path file = scratch_file("lattice.txt", "1\n4\n2\n1\n");
    const dist::LoadLaw law = dist::parse_load_law("empirical:" + file.string());
    const double values[] = {1, 1, 2, 4};
    std::vector<double> mass(13, 0.0);  // sums 0..12
    for (const double a : values)
      for (const double b : values)
        for (const double c : values) mass[static_cast<std::size_t>(a + b + c)] += 1.0 / 64.0;
    double below = 0.0, mean_max = 0.0, q90 = -1.0;
    for (std::size_t s = 0; s < mass.size(); ++s) {
      const double before = std::pow(below, 5.0);
      below += mass[s];
      const double h = std::pow(below, 5.0);
      mean_max += static_cast<double>(s) * (h - before);
      if (q90 < 0 && h >= 0.9) q90 = static_cast<double>(s);
    }
    const double m_proc = 3 * 2.0;  // the sample's mean is 2
    CHECK(*analytic::scatter_exact_mean(law, 3, 5) == doctest::Approx((mean_max - m_proc) / m_proc).epsilon(1e-14));
    CHECK(*analytic::scatter_exact_quantile(law, 3, 5, 0.9) == (q90 - m_proc) / m_proc);
    fs::remove(file);
  }

  TEST_CASE("task-time laws: a measured sample from a file is the law of its values") {
    const fs::path file = scratch_file("times.txt", "3\n1.5\r\n  2\n+4\n1.5\n\n");
    const dist::LoadLaw law = dist::parse_load_law("empirical:" + file.string());
    CHECK(dist::to_spec(law) == "empirical:" + file.string());
    CHECK_FALSE(dist::is_integer_valued(law));
    CHECK(dist::mean(law) == 2.4);
    CHECK(dist::variance(law) == doctest::Approx(0.94).epsilon(1e-15));  // (0.81·2 + 0.16 + 0.36 + 2.56)/5
    CHECK(dist::cdf(law, 1.5) == 0.4);
    CHECK(dist::pdf(law, 1.5) == 0.4);
    CHECK(dist::quantile(law, 0.4) == 1.5);
    CHECK(dist::quantile(law, 0.41) == 2.0);
    CHECK(dist::quantile_upper(law, 0.2) == 3.0);
    // The maximum of n values: P(Z <= 3) = 0.8^n, E Z over the atoms.
    const double p3 = std::pow(0.8, 3), p2 = std::pow(0.6, 3), p15 = std::pow(0.4, 3);
    const double mean3 = 4 * (1 - p3) + 3 * (p3 - p2) + 2 * (p2 - p15) + 1.5 * p15;
    const analytic::MaxOfIid max{law, 3};
    CHECK(analytic::mean(max) == doctest::Approx(mean3).epsilon(1e-15));
    CHECK(analytic::quantile(max, 0.5) == 3.0);  // 0.8^3 = 0.512
    CHECK(analytic::quantile(max, 0.52) == 4.0);
    // A CSV column by name; integer values make an integer law.
    const fs::path csv = scratch_file("cells.csv", "cell,work\n0,7\n1,3\n2,5\n");
    const dist::LoadLaw counts = dist::parse_load_law("empirical:" + csv.string() + ":work");
    CHECK(dist::is_integer_valued(counts));
    CHECK(dist::support_max(counts) == 7.0);
    fs::remove(file);
    fs::remove(csv);
  }

  TEST_CASE("task-time laws: bad sample files are one line naming the file and the line") {
    const auto message = [](const std::string& spec) {
      const std::string m = refusal(spec);
      CHECK(m.find('\n') == std::string::npos);
      return m;
    };
    const fs::path text = scratch_file("bad.txt", "1\n2\nabc\n");
    CHECK(message("empirical:" + text.string()).find("line 3: 'abc' is not a number") != std::string::npos);
    const fs::path nan = scratch_file("nan.txt", "1\nnan\n");
    CHECK(message("empirical:" + nan.string()).find("line 2") != std::string::npos);
    const fs::path gap = scratch_file("gap.txt", "1\n\n2\n");
    CHECK(message("empirical:" + gap.string()).find("line 2: a blank line") != std::string::npos);
    const fs::path empty = scratch_file("empty.txt", "");
    CHECK(message("empirical:" + empty.string()).find("the file is empty") != std::string::npos);
    CHECK(message("empirical:/nonexistent/times.txt").find("cannot open the file") != std::string::npos);
    const fs::path csv = scratch_file("short.csv", "a,b\n1,2\n3\n");
    CHECK(message("empirical:" + csv.string() + ":b").find("line 3: 1 field, but the column 'b' is field 2") != std::string::npos);
    CHECK(message("empirical:" + csv.string() + ":c").find("the columns are 'a', 'b'") != std::string::npos);
    // Negative times, where a command needs nonnegative ones.
    const fs::path negative = scratch_file("negative.txt", "2\n-1\n");
    const dist::LoadLaw law = dist::parse_load_law("empirical:" + negative.string());
    try {
      dist::require_nonnegative(law, "task times must be >= 0");
      FAIL("a negative time was accepted");
    } catch (const engine::InputError& e) {
      CHECK(std::string(e.what()).find("line 2: the value -1 is negative") != std::string::npos);
    }
    // Too large for the memory at hand: refused before reading.
    const fs::path good = scratch_file("good.txt", "1\n2\n3\n");
    CHECK(dist::read_empirical_sample(good.string(), "", 1e9).sorted.size() == 3);
    try {
      dist::read_empirical_sample(good.string(), "", 16);
      FAIL("a file beyond the memory budget was read");
    } catch (const engine::InputError& e) {
      CHECK(std::string(e.what()).find("may need up to") != std::string::npos);
    }
    for (const auto& p : {text, nan, gap, empty, csv, negative, good}) fs::remove(p);
  }

  TEST_CASE("task-time laws: finite mixtures - specs - facts and their refusals") {
    // The spec prints back as given (weights and components canonical); a
    // '+' inside a number's exponent does not split the terms.
    for (const char* spec :
         {"mix:0.9*exponential:1+0.1*exponential:20", "mix:0.5*normal:0,1+0.5*normal:5,1",
          "mix:0.7*poisson:3+0.3*poisson:30", "mix:0.3*constant:0+0.7*poisson:5",
          "mix:0.25*normal:1e+20,1e+16+0.75*gamma:2,1e+19", "mix:0.5*pareto:3,1+0.5*exponential:1"}) {
      CAPTURE(spec);
      CHECK(dist::to_spec(dist::parse_load_law(spec)) == spec);
    }
    CHECK(dist::to_spec(dist::parse_load_law("mix:5e-1*uniform:0,1+.5*uniform:5,6")) ==
          "mix:0.5*uniform:0,1+0.5*uniform:5,6");
    CHECK(dist::law_ranges_help().find("mix:W1*LAW1+W2*LAW2") != std::string::npos);
    // Facts: the hull of the supports; continuous or integer-valued as every
    // component is; the moments every component has; the heaviest tail's
    // domain (Fréchet before any exponential tail, an unbounded component
    // before bounded ones, a uniform's finite end: reversed Weibull).
    const dist::LoadLaw exp_mix = dist::parse_load_law("mix:0.9*exponential:1+0.1*exponential:20");
    const dist::LoadLaw pois_mix = dist::parse_load_law("mix:0.7*poisson:3+0.3*poisson:30");
    const dist::LoadLaw gap = dist::parse_load_law("mix:0.5*uniform:0,1+0.5*uniform:5,6");
    const dist::LoadLaw heavy = dist::parse_load_law("mix:0.5*pareto:3,1+0.5*exponential:1");
    CHECK(dist::is_continuous(exp_mix));
    CHECK_FALSE(dist::is_integer_valued(exp_mix));
    CHECK(dist::is_integer_valued(pois_mix));
    CHECK_FALSE(dist::is_continuous(pois_mix));
    CHECK(dist::support_min(gap) == 0.0);
    CHECK(dist::support_max(gap) == 6.0);
    CHECK(dist::max_domain(gap) == dist::MaxDomain::reversed_weibull);
    CHECK(dist::max_domain(dist::parse_load_law("mix:0.5*uniform:0,1+0.5*normal:0,1")) == dist::MaxDomain::gumbel);
    CHECK(dist::max_domain(exp_mix) == dist::MaxDomain::gumbel);
    CHECK(dist::max_domain(heavy) == dist::MaxDomain::frechet);
    CHECK(dist::finite_moment_order(heavy) == 3.0);
    CHECK(dist::max_domain(dist::parse_load_law("mix:0.5*binomial:10,0.5+0.5*constant:3")) == dist::MaxDomain::none);
    CHECK_THROWS_AS(dist::require_finite_variance(dist::parse_load_law("mix:0.5*pareto:1.5,1+0.5*exponential:1"), "x"),
                    engine::InputError);
    // One value only: the point mass there.
    const dist::LoadLaw point = dist::parse_load_law("mix:0.5*constant:2+0.5*binomial:2,1");
    CHECK(dist::variance(point) == 0.0);
    CHECK(dist::quantile(point, 0.3) == 2.0);
    // Each malformed spec is refused with its rule named.
    const std::pair<const char*, const char*> refused[] = {
        {"mix:0.5*normal:0,1+0.4*normal:5,1", "the weights sum to 0.9, not to 1"},
        {"mix:-0.5*normal:0,1+1.5*normal:5,1", "the weight '-0.5' must be > 0"},
        {"mix:0*normal:0,1+1*normal:5,1", "the weight '0' must be > 0"},
        {"mix:0.5*mix:0.5*normal:0,1+0.5*normal:1,1+0.5*normal:5,1", "a mixture, which cannot nest"},
        {"mix:0.5*cauchy:0,1+0.5*normal:5,1", "unknown law 'cauchy'"},
        {"mix:0.5normal:0,1+0.5*normal:5,1", "the term '0.5normal:0,1' is not WEIGHT*LAW"},
        {"mix:0.5*+0.5*normal:5,1", "a term has no law after its '*'"},
        {"mix:0.5*normal:0,1+", "the term '' is not WEIGHT*LAW"},
        {"mix:1*normal:0,1", "expected 2 to 16 terms"},
        {"mix:0.5*normal:0,-1+0.5*normal:5,1", "the component 'normal:0,-1': SIGMA must be in"},
        {"mix:0.5*normal:0,1+0.5*poisson:3", "all continuous or all integer-valued"},
        {"mix:0.5*constant:0.5+0.5*poisson:3", "all continuous or all integer-valued"},
        {"mix:0.5*empirical:times.txt+0.5*normal:0,1", "an empirical law cannot be a component"},
        {"mix:x*normal:0,1+0.5*normal:1,1", "the weight 'x' is not a finite number"},
    };
    for (const auto& [spec, rule] : refused) {
      CAPTURE(spec);
      const std::string message = refusal(spec);
      CHECK(message.find(rule) != std::string::npos);
      CHECK(message.find('\n') == std::string::npos);
    }
  }

  TEST_CASE("task-time laws: finite mixtures - cdf - quantiles and moments against closed forms") {
    // Values at 40 digits (mpmath) of the closed forms
    //   0.9 Exp(1) + 0.1 Exp(20): F(x) = 1 - 0.9 e^-x - 0.1 e^(-x/20),
    //     f(x) = 0.9 e^-x + 0.005 e^(-x/20), mean 0.9 + 2 = 2.9, E X^2 =
    //     0.9·2 + 0.1·800 = 81.8, variance 81.8 - 2.9^2 = 73.39;
    //   0.5 N(0,1) + 0.5 N(5,1): F(x) = (Phi(x) + Phi(x - 5))/2, symmetric
    //     about 2.5, variance 1 + 2.5^2 = 7.25;
    //   0.7 Poisson(3) + 0.3 Poisson(30): F(k) = 0.7 P3(k) + 0.3 P30(k), mean
    //     11.1, variance 0.7·3 + 0.3·30 + 0.7·8.1^2 + 0.3·18.9^2 = 164.19;
    // quantiles by bisection to 40 digits on these F (integer: the smallest
    // k with F(k) >= p).
    // A gap in the support (F is flat at 1/2 on [1, 5]: the quantile at 1/2
    // is the smallest x with F(x) >= 1/2) and a zero-inflated Poisson
    // (P(X = 0) = 0.3 + 0.7 e^-5, variance 0.3·3.5^2 + 0.7·(5 + 1.5^2)).
    // The normal mixture's median is conditioned by f(2.5) = 0.0175: a few ulps.
    const char* const exp_mix = "mix:0.9*exponential:1+0.1*exponential:20";
    const char* const normal_mix = "mix:0.5*normal:0,1+0.5*normal:5,1";
    const char* const poisson_mix = "mix:0.7*poisson:3+0.3*poisson:30";
    const char* const gap = "mix:0.5*uniform:0,1+0.5*uniform:5,6";
    const char* const zip = "mix:0.3*constant:0+0.7*poisson:5";
    struct Known {
      const char* spec;
      std::string what;  // the function: cdf, ccdf, pdf, quantile, upper (quantile_upper), mean, variance
      double at;         // x or the level (unused by the moments)
      double value;
      double tolerance;  // relative; 0: exactly
    };
    const Known known[] = {
        {exp_mix, "cdf", 3.0, 0.8691208408264166701, 4e-16},
        {exp_mix, "ccdf", 100.0, 0.00067379469990854670966, 4e-16},
        {exp_mix, "pdf", 3.0, 0.04911190141320283774, 4e-16},
        {exp_mix, "mean", 0.0, 2.9, 4e-16},
        {exp_mix, "variance", 0.0, 73.39, 4e-15},
        {exp_mix, "quantile", 0.5, 0.80116149667663717086, 4e-15},
        {exp_mix, "quantile", 0.99, 46.051701859880913698, 4e-15},
        {exp_mix, "upper", 1e-12, 506.56872045869005048, 4e-15},
        {normal_mix, "cdf", 2.5, 0.5, 2e-16},
        {normal_mix, "quantile", 0.5, 2.5, 2e-15},
        {normal_mix, "quantile", 0.975, 6.6448536270986180423, 4e-15},
        {normal_mix, "upper", 1e-10, 11.254027707160142491, 4e-15},
        {normal_mix, "pdf", 1.0, 0.12105227737245411757, 4e-16},
        {normal_mix, "mean", 0.0, 2.5, 4e-16},
        {normal_mix, "variance", 0.0, 7.25, 4e-16},
        {poisson_mix, "cdf", 10.0, 0.69980206876726839958, 1e-14},
        {poisson_mix, "pdf", 30.0, 0.021790357941477448585, 1e-14},
        {poisson_mix, "quantile", 0.5, 4.0, 0.0},
        {poisson_mix, "quantile", 0.9, 32.0, 0.0},
        {poisson_mix, "quantile", 0.99, 40.0, 0.0},
        {poisson_mix, "upper", 1e-6, 58.0, 0.0},
        {poisson_mix, "mean", 0.0, 11.1, 4e-16},
        {poisson_mix, "variance", 0.0, 164.19, 4e-15},
        {gap, "quantile", 0.25, 0.5, 4e-16},
        {gap, "quantile", 0.75, 5.5, 4e-16},
        {gap, "cdf", 3.0, 0.5, 0.0},
        {gap, "quantile", 0.5, 1.0, 0.0},
        {zip, "pdf", 0.0, 0.30471656289935982697, 4e-16},
        {zip, "variance", 0.0, 8.75, 4e-15},
        {zip, "quantile", 0.3, 0.0, 0.0},
        {zip, "quantile", 0.31, 1.0, 0.0},
    };
    const std::map<std::string, double (*)(const dist::LoadLaw&, double)> functions = {
        {"cdf", dist::cdf},
        {"ccdf", dist::ccdf},
        {"pdf", dist::pdf},
        {"quantile", dist::quantile},
        {"upper", dist::quantile_upper},
        {"mean", [](const dist::LoadLaw& law, double) { return dist::mean(law); }},
        {"variance", [](const dist::LoadLaw& law, double) { return dist::variance(law); }},
    };
    for (const Known& k : known) {
      CAPTURE(k.spec);
      CAPTURE(k.what);
      CAPTURE(k.at);
      const double got = functions.at(k.what)(dist::parse_load_law(k.spec), k.at);
      CHECK(std::abs(got - k.value) <= k.tolerance * std::abs(k.value));
    }
  }

  TEST_CASE("task-time laws: finite mixtures - exact maxima over a gap in the support by the closed form") {
    // Two uniforms with a gap: F(x)^n = (x/2)^n on [0, 1], 2^-n on [1, 5],
    // ((x - 4)/2)^n on [5, 6], so with h = 2^-n
    //   E Z = 6 - h/(n+1) - 4h - 2(1 - h/2)/(n+1),
    //   E Z^2 = 36 - 2h/(n+2) - 24h - 8(1 - h/4)/(n+2) - 16(1 - h/2)/(n+1).
    // F's kinks at 1 and 5 slow the quadrature down to ~1e-9 of the variance
    // (far below any Monte Carlo se; a smooth mixture keeps 1e-12).
    const analytic::MaxMoments gap =
        analytic::moments(analytic::MaxOfIid{dist::parse_load_law("mix:0.5*uniform:0,1+0.5*uniform:5,6"), 10});
    const double h = std::ldexp(1.0, -10);
    const double gap_mean = 6.0 - h / 11.0 - 4.0 * h - 2.0 * (1.0 - h / 2.0) / 11.0;
    const double gap_square =
        36.0 - 2.0 * h / 12.0 - 24.0 * h - 8.0 * (1.0 - h / 4.0) / 12.0 - 16.0 * (1.0 - h / 2.0) / 11.0;
    CHECK(close(gap.mean, gap_mean, 1e-9));
    CHECK(close(gap.variance, gap_square - gap_mean * gap_mean, 1e-8));
  }

  TEST_CASE("task-time laws: finite mixtures - first outputs pinned - one output chooses the component") {
    // The reproducibility contract: block_generator(1, 0), the first draws.
    const auto first = [](const char* spec) {
      return dist::visit_sampler(dist::parse_load_law(spec), [](const auto& s) { return test::draw(s, 1, 4); });
    };
    CHECK(first("mix:0.9*exponential:1+0.1*exponential:20") ==
          std::vector<double>{0.24013122406904894, 0.44428752217036022, 1.0333444418294249, 0.38475994239512662});
    CHECK(first("mix:0.7*poisson:3+0.3*poisson:30") == std::vector<double>{26, 1, 3, 2});
    // Constant components draw nothing: each draw is the choice's one
    // output, and the first component is drawn 1/4 of the time (4 sd).
    const dist::LoadLaw two = dist::parse_load_law("mix:0.25*constant:1+0.75*constant:2");
    dist::visit_sampler(two, [](const auto& s) {
      engine::Generator gen = engine::block_generator(77, 0);
      const engine::Generator start = gen;
      constexpr double kDraws = 100000;
      double ones = 0;
      for (int i = 0; i < kDraws; ++i) ones += s(gen) == 1.0 ? 1.0 : 0.0;
      CHECK(gen - start == kDraws);
      CHECK(std::abs(ones - 0.25 * kDraws) <= 4.0 * std::sqrt(kDraws * 0.25 * 0.75));
    });
  }

  TEST_CASE("task-time laws: finite mixtures - a malformed spec is one line naming --dist - exit 2 and no file") {
    const fs::path dir = test::scratch_folder("task_time_mix_refusals");
    const fs::path csv = dir / "out.csv";
    for (const char* spec :
         {"mix:0.5*normal:0,1+0.4*normal:5,1", "mix:-0.5*normal:0,1+1.5*normal:5,1", "mix:0*normal:0,1+1*normal:5,1",
          "mix:0.5*mix:0.5*normal:0,1+0.5*normal:1,1+0.5*normal:5,1", "mix:0.5*cauchy:0,1+0.5*normal:5,1",
          "mix:0.5normal:0,1+0.5*normal:5,1", "mix:0.5*+0.5*normal:5,1", "mix:1*normal:0,1"}) {
      CAPTURE(spec);
      const test::Captured r = test::run_captured(
          std::string(LBMC_BINARY) + " maxload --n 4 --reps 10 --dist \"" + spec + "\" --csv " + csv.string(), dir);
      CHECK(r.code == 2);
      CHECK(r.err.find("--dist") != std::string::npos);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK_FALSE(fs::exists(csv));
    }
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("task-time laws: the same seed gives the same bytes on 1 and 2 threads for every new law") {
    const fs::path sample = scratch_file("threads.txt", "1.5\n2.25\n7\n0.5\n3\n");
    const std::string laws = " --dist gamma:0.7,2 --dist lognormal:0,1 --dist weibull:0.8,1 --dist pareto:3,1"
                             " --dist geometric:0.1 --dist negbinomial:0.5,0.001 --dist negbinomial:1e4,0.01"
                             " --dist negbinomial:0.3,1e-7 --dist empirical:" + sample.string();
    for (const std::string command : {"maxload --n 7,300 --method brute", "maxshift --n 64", "scatter --tasks 10"}) {
      CAPTURE(command);
      std::string csv[2];
      for (int threads = 1; threads <= 2; ++threads) {
        const fs::path out = fs::temp_directory_path() / ("lbmc_task_time_threads_" + std::to_string(threads) + ".csv");
        REQUIRE(shell(std::string(LBMC_BINARY) + " " + command + laws + " --reps 3000 --seed 11 --quiet --threads " +
                      std::to_string(threads) + " --csv " + out.string() + " >/dev/null") == 0);
        csv[threads - 1] = slurp(out);
        fs::remove(out);
      }
      CHECK(csv[0] == csv[1]);
      CHECK(csv[0].find("empirical:") != std::string::npos);
    }
    fs::remove(sample);
  }

  TEST_CASE("task-time laws: finite mixtures - the sampler's goodness of fit on the exact law") {
    // KS, moments and the 1e-3 tail count for continuous mixtures;
    // chi-square on the exact cdf and moments for integer ones
    // (support/goodness_of_fit.hpp: levels 1e-3, 1e-4, 4 se).
    std::uint64_t seed = 4200;
    const auto draws = [&](const dist::LoadLaw& law) {
      return dist::visit_sampler(law, [&](const auto& s) { return test::draw(s, ++seed, 400'000); });
    };
    for (const char* spec :
         {"mix:0.9*exponential:1+0.1*exponential:20", "mix:0.5*normal:0,1+0.5*normal:5,1",
          "mix:0.5*uniform:0,1+0.5*uniform:5,6", "mix:0.2*gamma:0.5,1+0.3*lognormal:1,0.5+0.5*weibull:2,3"}) {
      CAPTURE(spec);
      const dist::LoadLaw law = dist::parse_load_law(spec);
      test::check_continuous_law(draws(law), law);
    }
    for (const char* spec : {"mix:0.7*poisson:3+0.3*poisson:30", "mix:0.3*constant:0+0.7*poisson:5",
                             "mix:0.5*geometric:0.3+0.25*negbinomial:3,0.4+0.25*binomial:40,0.5"}) {
      CAPTURE(spec);
      const dist::LoadLaw law = dist::parse_load_law(spec);
      test::check_integer_law(draws(law), law, test::exact_cdf(law));
    }
  }

  TEST_CASE("task-time laws: finite mixtures in every command - Monte Carlo within the exact references") {
    const std::string bin = LBMC_BINARY;
    const fs::path dir = test::scratch_folder("task_time_mix_commands");
    const fs::path csv = dir / "out.csv";
    const std::string exp_mix = " --dist mix:0.9*exponential:1+0.1*exponential:20";
    const std::string normal_mix = " --dist mix:0.5*normal:0,1+0.5*normal:5,1";
    const std::string poisson_mix = " --dist mix:0.7*poisson:3+0.3*poisson:30";
    // maxload: every exact reference (F^n: mean, variance, quantiles) passes
    // (--strict exits 1 on a failed one), by brute force and direct draws.
    for (const std::string& run : std::vector<std::string>{
             "maxload --n 10,1000 --method brute" + exp_mix + poisson_mix + normal_mix,
             "maxload --n 300 --method direct" + exp_mix + poisson_mix}) {
      CAPTURE(run);
      REQUIRE(shell(bin + " " + run + " --reps 20000 --seed 13 --strict --quiet --csv " + csv.string() +
                    " >/dev/null") == 0);
      const std::string rows = slurp(csv);
      CHECK(rows.find("mix:0.9*exponential:1+0.1*exponential:20") != std::string::npos);
      CHECK(rows.find(",exact,exact,") != std::string::npos);
      CHECK(rows.find(",fail") == std::string::npos);
    }
    // The other commands run them, their exact checks and bounds passing.
    for (const std::string& run : std::vector<std::string>{
             "maxshift --n 64" + exp_mix + poisson_mix, "scatter --tasks 10 --procs 16" + exp_mix,
             "rebalance --n 16" + poisson_mix, "compare --N 64 --P 8" + exp_mix + poisson_mix,
             "dynamic --p 8 --r-dist mix:0.9*exponential:1+0.1*exponential:20"}) {
      CAPTURE(run);
      const test::Captured r =
          test::run_captured(bin + " " + run + " --reps 2000 --seed 13 --strict --csv " + csv.string(), dir);
      CHECK(r.code == 0);
      CHECK(slurp(csv).find("mix:") != std::string::npos);
    }
    // scatter: no processor-sum law for a mixture, so no exact row, as for
    // lognormal tasks; the asymptotic forms stay.
    REQUIRE(shell(bin + " scatter --tasks 10 --procs 16 --reps 1000 --seed 13 --quiet" + exp_mix + " --csv " +
                  csv.string() + " >/dev/null") == 0);
    CHECK(slurp(csv).find(",exact,") == std::string::npos);
    CHECK(slurp(csv).find("salmon-printed") != std::string::npos);
  }
}

}  // namespace task_time_laws_test
