// The maximum of processor sums with unequal task counts
// (analytic/max_of_sums): the groups of block and cyclic, E C against
// independent computations written here from their definitions, against the
// scattered decomposition when every processor holds the same count, and
// against Monte Carlo through the strategies' own makespans.
//
// Independent references (long double):
//  - exponential tasks of mean m: a sum of n is Erlang, P(S > x) =
//    e^{-y} Σ_{j<n} y^j/j! with y = x/m; E C = ∫_0^X (1 − Π_g F_g^{m_g}) dx by
//    the composite Simpson rule (step m/512; X where the integrand is below
//    1e-30);
//  - Poisson(λ) and geometric(P) tasks: the pmf of a sum by its recurrence
//    (Poisson(nλ): p_k = p_{k-1}·nλ/k; n trials plus j failures, j
//    NegBinomial(n, P): q_0 = P^n, q_{j+1} = q_j·(j + n)(1 − P)/(j + 1)),
//    cdfs by running sums, then E C = Σ_k (1 − Π_g F_g(k)^{m_g});
//  - integer empirical tasks: the pmf of a sum by repeated direct
//    convolution, then the same sum;
//  - constant tasks V: C = V·(the largest count); normal(0, 1) tasks on one
//    processor beside an idle one: E max(0, Z) = 1/√(2π).
// Wide integer sums (tail tables of ~2e4 cells) are checked against the
// scattered decomposition's strided sums. The groups are checked against the
// assignments themselves (processor of each task, counted). Statistical
// tests: fixed seeds, tolerances of 4 standard errors; block and cyclic
// differ by over 40 standard errors at N = 10, P = 4.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lbmc/analytic/max_of_sums.hpp"
#include "lbmc/analytic/reference_unavailable.hpp"
#include "lbmc/analytic/scatter.hpp"
#include "lbmc/dist/laws.hpp"
#include "lbmc/dist/samplers.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/rng.hpp"
#include "compare/makespans.hpp"
#include "support/files.hpp"

namespace max_of_sums_test {

using namespace lbmc;
using analytic::SumGroup;

namespace {

using Groups = std::vector<SumGroup>;

bool relative_close(double actual, double expected, double tolerance) {
  return std::abs(actual - expected) <= tolerance * std::abs(expected);
}

// The groups of an assignment, read off the processor of every task: counts
// per processor, then processors per count, most tasks first.
Groups groups_of(std::int64_t tasks, std::int64_t procs, const std::function<std::int64_t(std::int64_t)>& owner) {
  std::vector<std::int64_t> count(static_cast<std::size_t>(procs), 0);
  for (std::int64_t i = 0; i < tasks; ++i) ++count[static_cast<std::size_t>(owner(i))];
  std::map<std::int64_t, std::int64_t, std::greater<>> processors;
  for (const std::int64_t c : count) ++processors[c];
  Groups groups;
  for (const auto& [c, m] : processors) groups.push_back({c, m});
  return groups;
}

// E C = Σ_{k>=0} (1 − Π_g F_g(k)^{m_g}) from each group's cdf table on 0..K.
double lattice_mean(const std::vector<std::vector<long double>>& cdfs, const Groups& groups) {
  long double sum = 0.0L;
  const std::size_t cells = cdfs.front().size();
  for (std::size_t k = 0; k < cells; ++k) {
    long double h = 1.0L;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      h *= std::pow(cdfs[g][k], static_cast<long double>(groups[g].processors));
    }
    sum += 1.0L - h;
  }
  return static_cast<double>(sum);
}

// Running sums of a pmf on 0..cells-1.
std::vector<long double> running_sums(const std::vector<long double>& pmf) {
  std::vector<long double> cdf(pmf.size());
  long double total = 0.0L;
  for (std::size_t k = 0; k < pmf.size(); ++k) cdf[k] = total += pmf[k];
  return cdf;
}

// Poisson(μ) pmf on 0..cells-1 by p_k = p_{k-1}·μ/k.
std::vector<long double> poisson_pmf(long double mu, std::size_t cells) {
  std::vector<long double> p(cells);
  p[0] = std::exp(-mu);
  for (std::size_t k = 1; k < cells; ++k) p[k] = p[k - 1] * mu / static_cast<long double>(k);
  return p;
}

// The sum of n geometric(P) trials, n + NegBinomial(n, P) failures, on
// 0..cells-1: p_{n+j+1} = p_{n+j}·(j + n)(1 − P)/(j + 1), p_n = P^n.
std::vector<long double> geometric_sum_pmf(std::int64_t n, long double success, std::size_t cells) {
  std::vector<long double> p(cells, 0.0L);
  if (n == 0) {
    p[0] = 1.0L;
    return p;
  }
  const auto first = static_cast<std::size_t>(n);
  p[first] = std::pow(success, static_cast<long double>(n));
  for (std::size_t k = first; k + 1 < cells; ++k) {
    const auto j = static_cast<long double>(k - first);
    p[k + 1] = p[k] * (j + static_cast<long double>(n)) * (1.0L - success) / (j + 1.0L);
  }
  return p;
}

double poisson_mean(double lambda, const Groups& groups, std::size_t cells) {
  std::vector<std::vector<long double>> cdfs;
  for (const SumGroup& g : groups) {
    cdfs.push_back(running_sums(poisson_pmf(lambda * static_cast<long double>(g.tasks), cells)));
  }
  return lattice_mean(cdfs, groups);
}

double geometric_mean(double success, const Groups& groups, std::size_t cells) {
  std::vector<std::vector<long double>> cdfs;
  for (const SumGroup& g : groups) cdfs.push_back(running_sums(geometric_sum_pmf(g.tasks, success, cells)));
  return lattice_mean(cdfs, groups);
}

// Integer values >= 0 with equal weights: the pmf of a sum of n by direct
// convolution, on 0..cells-1.
double empirical_mean(const std::vector<int>& values, const Groups& groups, std::size_t cells) {
  std::vector<long double> one(cells, 0.0L);
  for (const int v : values) one[static_cast<std::size_t>(v)] += 1.0L / static_cast<long double>(values.size());
  std::vector<std::vector<long double>> cdfs;
  for (const SumGroup& g : groups) {
    std::vector<long double> pmf(cells, 0.0L);
    pmf[0] = 1.0L;
    for (std::int64_t t = 0; t < g.tasks; ++t) {
      std::vector<long double> next(cells, 0.0L);
      for (std::size_t a = 0; a < cells; ++a) {
        for (std::size_t b = 0; a + b < cells; ++b) next[a + b] += pmf[a] * one[b];
      }
      pmf = next;
    }
    cdfs.push_back(running_sums(pmf));
  }
  return lattice_mean(cdfs, groups);
}

// P(Erlang(n, 1) > y) = e^{-y} Σ_{j<n} y^j/j!; 0 tasks: the point mass at 0.
long double erlang_above(std::int64_t n, long double y) {
  long double term = 1.0L;
  long double sum = 0.0L;
  for (std::int64_t j = 0; j < n; ++j) {
    sum += term;
    term *= y / static_cast<long double>(j + 1);
  }
  return std::exp(-y) * sum;
}

// E C for exponential tasks of mean m by the composite Simpson rule.
double exponential_mean(double m, const Groups& groups) {
  const auto integrand = [&](long double x) {
    long double h = 1.0L;
    for (const SumGroup& g : groups) {
      h *= std::pow(1.0L - erlang_above(g.tasks, x / m), static_cast<long double>(g.processors));
    }
    return 1.0L - h;
  };
  const long double step = m / 512.0L;
  long double end = step;
  while (integrand(end) > 1e-30L) end *= 2.0L;
  const auto intervals = static_cast<std::int64_t>(std::ceil(end / step / 2.0L)) * 2;
  long double sum = integrand(0.0L) + integrand(static_cast<long double>(intervals) * step);
  for (std::int64_t i = 1; i < intervals; ++i) {
    sum += (i % 2 == 1 ? 4.0L : 2.0L) * integrand(static_cast<long double>(i) * step);
  }
  return static_cast<double>(sum * step / 3.0L);
}

double exact(const std::string& spec, const Groups& groups) {
  return *analytic::max_of_sums_mean(dist::parse_load_law(spec), groups);
}

// Makespans of block and cyclic over `reps` replications of N iid times.
struct MakespanMeans {
  double block = 0.0, block_se = 0.0, cyclic = 0.0, cyclic_se = 0.0;
};
MakespanMeans simulate(const std::string& spec, std::int64_t tasks, std::int64_t procs, int reps, std::uint64_t seed) {
  engine::Generator gen = engine::block_generator(seed, 0);
  std::vector<double> times(static_cast<std::size_t>(tasks));
  long double sum[2] = {0.0L, 0.0L}, squares[2] = {0.0L, 0.0L};
  dist::visit_sampler(dist::parse_load_law(spec), [&](const auto& sampler) {
    for (int r = 0; r < reps; ++r) {
      for (double& t : times) t = sampler(gen);
      const double c[2] = {exp::makespan_block(times, procs), exp::makespan_cyclic(times, procs)};
      for (int s = 0; s < 2; ++s) {
        sum[s] += c[s];
        squares[s] += static_cast<long double>(c[s]) * c[s];
      }
    }
    return 0;
  });
  double mean[2], se[2];
  for (int s = 0; s < 2; ++s) {
    const long double mu = sum[s] / reps;
    mean[s] = static_cast<double>(mu);
    se[s] = static_cast<double>(std::sqrt((squares[s] / reps - mu * mu) / (reps - 1)));
  }
  return {mean[0], se[0], mean[1], se[1]};
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("max of sums: the groups of block and cyclic") {
    // N = 10, P = 4: block chunks of 3 (3 3 3 1), cyclic 3 3 2 2.
    CHECK(analytic::block_groups(10, 4) == Groups{{3, 3}, {1, 1}});
    CHECK(analytic::cyclic_groups(10, 4) == Groups{{3, 2}, {2, 2}});
    // N = 10, P = 6: block chunks of 2 fill five processors, one idles.
    CHECK(analytic::block_groups(10, 6) == Groups{{2, 5}, {0, 1}});
    CHECK(analytic::cyclic_groups(10, 6) == Groups{{2, 4}, {1, 2}});
    CHECK(analytic::block_groups(8, 4) == Groups{{2, 4}});
    CHECK(analytic::cyclic_groups(8, 4) == Groups{{2, 4}});
    CHECK(analytic::block_groups(0, 3) == Groups{{0, 3}});
    CHECK(analytic::cyclic_groups(0, 3) == Groups{{0, 3}});
    for (std::int64_t p = 1; p <= 13; ++p) {
      for (std::int64_t n = 0; n <= 60; ++n) {
        CAPTURE(n);
        CAPTURE(p);
        const std::int64_t chunk = (n + p - 1) / p;
        CHECK(analytic::block_groups(n, p) == groups_of(n, p, [&](std::int64_t i) { return i / chunk; }));
        CHECK(analytic::cyclic_groups(n, p) == groups_of(n, p, [&](std::int64_t i) { return i % p; }));
      }
    }
    CHECK_THROWS_AS(analytic::block_groups(10, 0), engine::InputError);
    CHECK_THROWS_AS(analytic::cyclic_groups(-1, 4), engine::InputError);
  }

  TEST_CASE("max of sums: exponential tasks against Erlang sums by Simpson's rule") {
    for (const double m : {1.0, 2.5}) {
      for (const auto& [n, p] : std::vector<std::pair<std::int64_t, std::int64_t>>{{10, 4}, {7, 3}, {25, 6}, {3, 5}}) {
        CAPTURE(m);
        CAPTURE(n);
        CAPTURE(p);
        const dist::LoadLaw law = dist::Exponential{m};
        for (const Groups& groups : {analytic::block_groups(n, p), analytic::cyclic_groups(n, p)}) {
          CHECK(relative_close(*analytic::max_of_sums_mean(law, groups), exponential_mean(m, groups), 1e-11));
        }
      }
    }
  }

  TEST_CASE("max of sums: integer tasks against summed pmfs") {
    for (const auto& [n, p] : std::vector<std::pair<std::int64_t, std::int64_t>>{{10, 4}, {7, 3}, {25, 6}, {3, 5}}) {
      CAPTURE(n);
      CAPTURE(p);
      for (const Groups& groups : {analytic::block_groups(n, p), analytic::cyclic_groups(n, p)}) {
        CHECK(relative_close(exact("poisson:3", groups), poisson_mean(3.0, groups, 400), 1e-13));
        CHECK(relative_close(exact("poisson:0.25", groups), poisson_mean(0.25, groups, 200), 1e-13));
        CHECK(relative_close(exact("geometric:0.3", groups), geometric_mean(0.3, groups, 800), 1e-13));
      }
    }
    // An integer sample 1 1 2 4: the lattice sums of its convolutions.
    const auto file = test::scratch_folder("max_of_sums") / "sample.txt";
    std::ofstream(file) << "1\n4\n2\n1\n";
    const dist::LoadLaw sample = dist::parse_load_law("empirical:" + file.string());
    for (const Groups& groups : {analytic::block_groups(10, 4), analytic::cyclic_groups(10, 4),
                                 analytic::block_groups(9, 7), analytic::cyclic_groups(9, 7)}) {
      CHECK(relative_close(*analytic::max_of_sums_mean(sample, groups), empirical_mean({1, 1, 2, 4}, groups, 20),
                           1e-13));
    }
  }

  TEST_CASE("max of sums: constant and normal tasks") {
    CHECK(exact("constant:2.5", analytic::block_groups(10, 4)) == 7.5);
    CHECK(exact("constant:2.5", analytic::cyclic_groups(10, 4)) == 7.5);
    CHECK(exact("constant:2.5", analytic::cyclic_groups(10, 6)) == 5.0);
    CHECK(exact("constant:2.5", analytic::block_groups(3, 5)) == 2.5);
    // One normal(0, 1) time beside an idle processor: E max(0, Z) = 1/√(2π).
    CHECK(relative_close(exact("normal:0,1", Groups{{1, 1}, {0, 1}}), 0.39894228040143267794, 1e-12));
  }

  TEST_CASE("max of sums: equal counts agree with the scattered decomposition") {
    const auto file = test::scratch_folder("max_of_sums") / "sample.txt";
    std::ofstream(file) << "1\n4\n2\n1\n";
    for (const std::string& spec : std::vector<std::string>{"exponential:1", "exponential:3", "gamma:2,1",
                                                            "gamma:0.3,2", "normal:5,1", "poisson:3", "binomial:5,0.3",
                                                            "negbinomial:0.5,0.3", "geometric:0.3",
                                                            "empirical:" + file.string()}) {
      for (const auto& [n, p] : std::vector<std::pair<std::int64_t, std::int64_t>>{{10, 100}, {3, 8}, {1, 1000}}) {
        CAPTURE(spec);
        CAPTURE(n);
        CAPTURE(p);
        const dist::LoadLaw law = dist::parse_load_law(spec);
        const double proc_mean = static_cast<double>(n) * dist::mean(law);
        const double scatter = proc_mean * (1.0 + *analytic::scatter_exact_mean(law, n, p));
        CHECK(relative_close(*analytic::max_of_sums_mean(law, Groups{{n, p}}), scatter, 1e-12));
        // The same processors in two groups of the same count.
        CHECK(relative_close(*analytic::max_of_sums_mean(law, Groups{{n, p / 2}, {n, p - p / 2}}), scatter, 1e-12));
      }
    }
  }

  TEST_CASE("max of sums: wide sums agree with the scattered decomposition") {
    // Poisson(3e5) and binomial(7e5, 1/2) processor sums: tail tables of
    // 20000-30000 cells against max_of_iid's strided sums.
    for (const auto& [spec, n] : std::vector<std::pair<std::string, std::int64_t>>{{"poisson:3", 100'000},
                                                                                   {"binomial:1000,0.5", 700}}) {
      CAPTURE(spec);
      const dist::LoadLaw law = dist::parse_load_law(spec);
      const double proc_mean = static_cast<double>(n) * dist::mean(law);
      const double scatter = proc_mean * (1.0 + *analytic::scatter_exact_mean(law, n, 7));
      CHECK(relative_close(exact(spec, Groups{{n, 7}}), scatter, 1e-13));
    }
    // Exponential tasks with 142858 tasks a processor (Gamma shapes past
    // where Boost's incomplete gamma overflows near 0): between the maxima of
    // 6 and of 7 sums of the larger count.
    const double both = exact("exponential:1", analytic::block_groups(1'000'000, 7));
    CHECK(both > exact("exponential:1", Groups{{142'858, 6}}));
    CHECK(both < exact("exponential:1", Groups{{142'858, 7}}));
    // Wider than the lattice sums take: Poisson(1e9) sums.
    CHECK_THROWS_AS(analytic::max_of_sums_mean(dist::Poisson{1000.0}, Groups{{1'000'000, 2}, {999'999, 1}}),
                    analytic::ReferenceUnavailable);
  }

  TEST_CASE("max of sums: unknown laws and bad groups") {
    CHECK_FALSE(analytic::max_of_sums_mean(dist::Lognormal{0.0, 1.0}, Groups{{3, 2}, {2, 2}}).has_value());
    CHECK_FALSE(analytic::max_of_sums_mean(dist::Uniform{0.0, 1.0}, Groups{{3, 2}}).has_value());
    // Groups of no processors are left out; idle processors finish at 0.
    CHECK(exact("poisson:3", Groups{{3, 2}, {2, 2}, {50, 0}}) == exact("poisson:3", Groups{{3, 2}, {2, 2}}));
    CHECK(exact("exponential:1", Groups{{3, 2}, {0, 5}}) == exact("exponential:1", Groups{{3, 2}}));
    CHECK_THROWS_AS(analytic::max_of_sums_mean(dist::Poisson{3.0}, Groups{{-1, 2}}), engine::InputError);
    CHECK_THROWS_AS(analytic::max_of_sums_mean(dist::Poisson{3.0}, Groups{{3, -2}}), engine::InputError);
    CHECK_THROWS_AS(analytic::max_of_sums_mean(dist::Poisson{3.0}, Groups{{3, 0}}), engine::InputError);
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("max of sums: Monte Carlo block and cyclic makespans at N = 10 and P = 4") {
    std::uint64_t seed = 401;
    for (const std::string spec : {"exponential:1", "poisson:3"}) {
      CAPTURE(spec);
      const double block = exact(spec, analytic::block_groups(10, 4));
      const double cyclic = exact(spec, analytic::cyclic_groups(10, 4));
      const MakespanMeans sim = simulate(spec, 10, 4, 200'000, seed++);
      CAPTURE(sim.block);
      CAPTURE(sim.cyclic);
      CHECK(std::abs(sim.block - block) <= 4 * sim.block_se);
      CHECK(std::abs(sim.cyclic - cyclic) <= 4 * sim.cyclic_se);
      // Power: the other decomposition's groups are many se away.
      CHECK(std::abs(sim.block - cyclic) > 20 * sim.block_se);
      CHECK(std::abs(sim.cyclic - block) > 20 * sim.cyclic_se);
    }
  }
}

}  // namespace max_of_sums_test
