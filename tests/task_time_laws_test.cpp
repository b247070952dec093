// The task-time laws: the table of law facts (parsing, specs, ranges, help),
// measured samples from files, the exact maxima and processor sums against
// 40-digit values (mpmath quadrature and sums, computed independently), and
// the refusal of laws whose moments do not exist.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "lbmc/analytic/frechet.hpp"
#include "lbmc/analytic/gumbel.hpp"
#include "lbmc/analytic/max_of_iid.hpp"
#include "lbmc/analytic/scatter.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/errors.hpp"
#include "support/files.hpp"

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
}
