// Tests of the load-law samplers (distributions/samplers.hpp).
//
// fast: known answers (the first outputs of a fixed (seed, block), pinned: the
// reproducibility contract; gamma's and Weibull's also against 50-digit draws
// from the same generator outputs), the ziggurat tables against their
// defining equations in 50-digit arithmetic, the gamma squeeze against the
// acceptance probability it bounds, the guide table, degenerate laws, ranges,
// the table/rejection switch rule, parameter checks.
// statistical: goodness of fit at fixed seeds for every law and method
// (support/goodness_of_fit.hpp): chi-square against the exact pmf
// (Boost.Math through laws.hpp) for the integer laws, Kolmogorov-Smirnov
// against the exact cdf for the continuous ones, mean and variance within 4
// standard errors estimated from the run, tail frequencies, and chi-square
// over the ziggurat's own layers and tail. Every threshold is a quantile at
// a stated level (chi-square 1e-4, KS 1e-3, z-scores 4 ~ 6e-5), never a
// tuned constant.
#include "lbmc/dist/samplers.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/negative_binomial.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <numbers>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lbmc/dist/laws.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"
#include "lbmc/engine/rng.hpp"
#include "support/goodness_of_fit.hpp"

namespace samplers_test {

namespace {

using namespace lbmc;
using namespace lbmc::test;
using dist::DiscreteMethod;
using dist::DiscreteOptions;
using dist::LoadLaw;

constexpr double kEps = std::numeric_limits<double>::epsilon();

// Esseen's lattice Edgeworth expansion with continuity correction for an
// integer law of mean mu, sd and skewness g:
//   P(X <= k) = Phi(z) - phi(z) g (z^2 - 1)/6 + O(1/sd^2),  z = (k + 1/2 - mu)/sd.
// For the huge laws below (sd^2 >= 1e12) its error, ~1e-12, is far below
// Boost's (binomial cdf off by ~5e-5 at M = 2^53) and it is fast where
// Boost's Poisson cdf takes ~1 ms a call (and throws from lambda ~ 1e11).
Cdf lattice_edgeworth(double mu, double sd, double g) {
  auto correction = [=](double z) {
    return std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi) * g * (z * z - 1.0) / 6.0;
  };
  return {[=](double k) {
            const double z = (std::floor(k) + 0.5 - mu) / sd;
            return 0.5 * std::erfc(-z / std::sqrt(2.0)) - correction(z);
          },
          [=](double k) {
            const double z = (std::floor(k) + 0.5 - mu) / sd;
            return 0.5 * std::erfc(z / std::sqrt(2.0)) + correction(z);
          }};
}
Cdf binomial_edgeworth(double n, double p) {
  const double sd = std::sqrt(n * p * (1.0 - p));
  return lattice_edgeworth(n * p, sd, (1.0 - 2.0 * p) / sd);
}
Cdf poisson_edgeworth(double lambda) {
  return lattice_edgeworth(lambda, std::sqrt(lambda), 1.0 / std::sqrt(lambda));
}

// The engine outputs a draw used (pcg engines measure their distance).
template <class Sampler>
std::vector<int> outputs_per_draw(const Sampler& sampler, std::size_t count) {
  engine::Generator gen = engine::block_generator(99, 0);
  std::vector<int> used(count);
  for (int& u : used) {
    const engine::Generator before = gen;
    (void)sampler(gen);
    u = static_cast<int>(gen - before);
  }
  return used;
}

// ---------------------------------------------------------------------------
// Ziggurat tables in 50-digit arithmetic.

using Big = boost::multiprecision::cpp_bin_float_50;

double ulp(double x) {
  return std::nextafter(std::abs(x), std::numeric_limits<double>::infinity()) - std::abs(x);
}

// A table entry y is the rounding of g(exact inputs); the inputs stored are
// themselves rounded (by at most half an ulp each). Bound:
//   |y - g(stored inputs)| <= ulp(y)/2 + sum_j |dg/din_j| ulp(in_j)/2,
// plus one ulp of slack for the last-bit ambiguity of the dd computation.
// The partial derivatives are central differences in 50 digits.
template <class G>
void check_entry(const char* what, std::size_t i, double stored, G g, std::vector<double> inputs) {
  auto eval = [&](const std::vector<Big>& in) { return g(in); };
  std::vector<Big> in(inputs.begin(), inputs.end());
  const Big exact = eval(in);
  Big bound = Big(ulp(stored)) * Big(1.5);
  for (std::size_t j = 0; j < inputs.size(); ++j) {
    const Big h = Big(inputs[j]) * Big(1e-20);
    std::vector<Big> up = in, down = in;
    up[j] += h;
    down[j] -= h;
    const Big derivative = (eval(up) - eval(down)) / (2 * h);
    bound += boost::multiprecision::abs(derivative) * Big(ulp(inputs[j])) / 2;
  }
  const Big err = boost::multiprecision::abs(Big(stored) - exact);
  INFO(what, "[", i, "] = ", stored, ", exact ", exact.convert_to<double>(), ", error ",
       err.convert_to<double>(),
       " ulps of the entry: ", (err / Big(ulp(stored))).convert_to<double>(), ", bound ",
       (bound / Big(ulp(stored))).convert_to<double>());
  CHECK(err <= bound);
}

// Fast acceptance bounds are maximal: (2m+1) scale <= x_{i+1} exactly for m < accept.
// A signed table's second half (the negative sign) mirrors the first.
template <class Table>
void check_fast_path(const Table& t) {
  constexpr std::size_t kN = Table::kLayers;
  for (std::size_t j = 0; j < Table::kEntries; ++j) {
    const std::size_t i = j % kN;
    const double scale = std::abs(t.scale[j]);
    CHECK(scale == std::ldexp(t.x[i], -53));
    CHECK((t.scale[j] > 0.0) == (j < kN));
    const std::uint64_t a = t.accept[j];
    if (a > 0) CHECK(dist::detail::odd_to_double(a - 1) * scale <= t.x[i + 1]);
    if (a < (std::uint64_t{1} << 52))
      CHECK(dist::detail::odd_to_double(a) * scale > t.x[i + 1]);
  }
}

template <class Table, class Density, class Inverse, class Tail>
void check_ziggurat(const Table& t, Density f, Inverse finv, Tail tail_area) {
  constexpr std::size_t kN = Table::kLayers;
  REQUIRE(t.x[1] == t.r);
  REQUIRE(t.x[kN] == 0.0);
  REQUIRE(t.f[kN] == 1.0);
  // v = r f(r) + int_r^inf f
  check_entry("v", 0, t.v,
              [&](const std::vector<Big>& in) { return in[0] * f(in[0]) + tail_area(in[0]); },
              {t.r});
  // x_0 = v / f(r)
  check_entry("x", 0, t.x[0], [&](const std::vector<Big>& in) { return in[1] / f(in[0]); },
              {t.r, t.v});
  // f_i = f(x_i)
  for (std::size_t i = 1; i < kN; ++i) {
    check_entry("f", i, t.f[i], [&](const std::vector<Big>& in) { return f(in[0]); }, {t.x[i]});
  }
  // x_{i+1} = f^-1(f(x_i) + v / x_i): every layer has area v
  for (std::size_t i = 1; i + 1 < kN; ++i) {
    check_entry("x", i + 1, t.x[i + 1],
                [&](const std::vector<Big>& in) { return finv(f(in[0]) + in[1] / in[0]); },
                {t.x[i], t.v});
  }
  // The top layer closes: f(x_{L-1}) + v / x_{L-1} = 1.
  const Big top = f(Big(t.x[kN - 1])) + Big(t.v) / Big(t.x[kN - 1]);
  INFO("closure defect ", (top - 1).convert_to<double>());
  CHECK(boost::multiprecision::abs(top - 1) <= Big(4.0 * kEps));
  check_fast_path(t);
}

// ---------------------------------------------------------------------------
// Task-time references in 50-digit arithmetic, drawn from the same generator
// outputs as the samplers: the ziggurat exponential and normal, the open
// uniform; every formula after them evaluated in Big. The exponent 1/K is
// taken as the samplers take it, rounded to double (so the references are
// exact for the law of K' = 1/fl(1/K), an ulp from K).

// Weibull by inversion: LAMBDA·E^(1/K).
std::vector<double> reference_weibull(const dist::Weibull& law, std::uint64_t seed, std::uint64_t block,
                                      std::size_t count) {
  engine::Generator gen = engine::block_generator(seed, block);
  const dist::ExponentialSampler unit({1.0});
  std::vector<double> out;
  for (std::size_t i = 0; i < count; ++i) {
    out.push_back(Big(Big(law.lambda) * pow(Big(unit(gen)), Big(1.0 / law.k))).convert_to<double>());
  }
  return out;
}

// Gamma with K >= 1 by Marsaglia & Tsang (2000) with the exact acceptance
// test: t = c·x (c and t as the sampler rounds them: they define the
// proposal), accepted when u < exp(t^2/(2c^2) + d(1 - (1+t)^3 + 3 ln(1+t))),
// value THETA·d·(1+t)^3.
std::vector<double> reference_gamma(const dist::Gamma& law, std::uint64_t seed, std::uint64_t block,
                                    std::size_t count) {
  engine::Generator gen = engine::block_generator(seed, block);
  const dist::NormalSampler unit({0.0, 1.0});
  const double d = law.k - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  std::vector<double> out;
  for (std::size_t i = 0; i < count; ++i) {
    for (;;) {
      const double t = c * unit(gen);
      if (1.0 + t <= 0.0) continue;
      const Big s = 1 + Big(t);
      const Big g = Big(t) * Big(t) / (2 * Big(c) * Big(c)) + Big(d) * (1 - s * s * s + 3 * log(s));
      if (Big(engine::uniform_open01(gen)) < exp(g)) {
        out.push_back(Big(Big(law.theta) * Big(d) * s * s * s).convert_to<double>());
        break;
      }
    }
  }
  return out;
}

// Gamma with K < 1 by the ziggurat on X^K (gamma_ziggurat.hpp), on the
// sampler's own table and from the same generator outputs, every decision
// and value exact: z = (2m+1)·2^-53·x_i, value THETA·z^a; the wedge's
// height as the sampler rounds it (it defines the proposal) against
// exp(-z^a); the tail's x = x0 - log U (rounded to double, as the sampler
// holds it) accepted when log u < -(1 - 1/a) log(x/x0), value THETA·x.
std::vector<double> reference_small_shape_gamma(const dist::Gamma& law, std::uint64_t seed, std::uint64_t block,
                                                std::size_t count) {
  const dist::SmallShapeGammaSampler sampler(law);
  const dist::GammaPowerTable& table = sampler.table();
  const auto& t = table.layers;
  const Big a(table.exponent);
  const Big x0(table.tail_start);
  const Big theta(law.theta);
  engine::Generator gen = engine::block_generator(seed, block);
  auto tail = [&] {
    for (;;) {
      const double x = table.tail_start - Big(log(Big(engine::uniform_open01(gen)))).convert_to<double>();
      if (log(Big(engine::uniform_open01(gen))) < -(1 - 1 / a) * log(Big(x) / x0)) return Big(theta * Big(x));
    }
  };
  std::vector<double> out;
  while (out.size() < count) {
    const std::uint64_t bits = gen();
    const std::size_t i = static_cast<std::size_t>(bits & t.kEntryMask);
    const std::uint64_t m = bits >> 12;
    const Big z = Big(2 * m + 1) * Big(t.x[i]) / Big(0x1p53);
    if (m >= t.accept[i]) {
      if (i == 0) {
        out.push_back(tail().convert_to<double>());
        continue;
      }
      const double height = dist::detail::wedge_height(t, i, engine::uniform01(gen));
      if (!(Big(height) < exp(-pow(z, a)))) continue;
    }
    out.push_back(Big(theta * pow(z, a)).convert_to<double>());
  }
  return out;
}

// |got - want| <= ulps·ulp(want), element by element.
void check_within_ulps(const std::vector<double>& got, const std::vector<double>& want, double ulps) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("value ", i, ": ", got[i], " vs ", want[i], " (", (got[i] - want[i]) / ulp(want[i]), " ulps)");
    CHECK(std::abs(got[i] - want[i]) <= ulps * ulp(want[i]));
  }
}

}  // namespace

// ===========================================================================

TEST_SUITE("fast") {
  TEST_CASE("samplers: normal ziggurat table satisfies its defining equations (50-digit check)") {
    using boost::multiprecision::erfc;
    using boost::multiprecision::exp;
    using boost::multiprecision::log;
    using boost::multiprecision::sqrt;
    const auto& t = dist::normal_ziggurat();
    const Big pi = boost::math::constants::pi<Big>();
    check_ziggurat(
        t, [](const Big& x) { return Big(exp(-x * x / 2)); },
        [](const Big& y) { return Big(sqrt(-2 * log(y))); },
        [&](const Big& r) { return Big(sqrt(pi / 2) * erfc(r / sqrt(Big(2)))); });
    CHECK(t.r == doctest::Approx(3.85204615036839).epsilon(1e-14));
  }

  TEST_CASE("samplers: gamma X^K ziggurat tables satisfy their defining equations (50-digit check)") {
    // gamma_ziggurat.hpp: f(z) = exp(-z^a), a = 1/K. The values at the base
    // are double-double rounded (within an ulp); every layer's area is v
    // to the rounding of the sum f_i + v/x_i and of the quotient v/x_i; the
    // top layer's to the closure the construction checks (2^-36 relative);
    // x_i = (-log f_i)^(1/a) to the errors of portable_log and portable_exp
    // (portable_exp_log.hpp) carried through the inverse.
    using boost::multiprecision::exp;
    using boost::multiprecision::log;
    using boost::multiprecision::pow;
    for (const double k : {0.999, 0.7, 0.3, 0.05, 0.01, 1e-3}) {
      CAPTURE(k);
      const dist::GammaPowerTable table = dist::gamma_power_table(1.0 / k);
      const auto& t = table.layers;
      constexpr std::size_t kN = std::remove_cvref_t<decltype(t)>::kLayers;
      const Big a(table.exponent);
      const Big shape = 1 / a;
      const Big x0(table.tail_start);
      auto within_ulps = [](double stored, const Big& exact, double ulps) {
        INFO("stored ", stored, ", exact ", exact.convert_to<double>());
        CHECK(boost::multiprecision::abs(Big(stored) - exact) <= Big(ulps * ulp(stored)));
      };
      CHECK(table.exponent == 1.0 / k);
      REQUIRE(t.x[1] == t.r);
      REQUIRE(t.x[kN] == 0.0);
      REQUIRE(t.f[kN] == 1.0);
      CHECK(t.f[0] == 0.0);
      // The base: r = x0^K', f(r) = e^-x0, v = r f(r) + K' Γ(K', x0), x_0 = v/f(r).
      within_ulps(t.r, pow(x0, shape), 1.0);
      within_ulps(t.f[1], exp(-x0), 1.0);
      within_ulps(t.v, Big(t.r) * exp(-x0) + shape * boost::math::tgamma(shape, x0), 1.0);
      within_ulps(t.x[0], Big(t.v) / Big(t.f[1]), 0.5);
      within_ulps(table.tail_power, 1 - shape, 1.0);
      // Every layer's area x_i (f_{i+1} - f_i) is v.
      for (std::size_t i = 1; i + 1 < kN; ++i) {
        const Big area = Big(t.x[i]) * (Big(t.f[i + 1]) - Big(t.f[i]));
        const double bound = t.x[i] * (ulp(t.f[i + 1]) + ulp(t.v / t.x[i])) / 2.0;
        INFO("layer ", i, ": area - v = ", Big(area - Big(t.v)).convert_to<double>(), ", bound ", bound);
        CHECK(boost::multiprecision::abs(area - Big(t.v)) <= Big(bound));
      }
      const Big top = Big(t.x[kN - 1]) * (1 - Big(t.f[kN - 1]));
      INFO("top layer's area / v - 1 = ", Big(top / Big(t.v) - 1).convert_to<double>());
      CHECK(boost::multiprecision::abs(top / Big(t.v) - 1) <= Big(0x1p-36));
      // x_i = (-log f_i)^(1/a): relative error below (1.03 + 2|log x| + 1/a)u
      // + 2^-59 (1 + 1/t)/a, t = -log f_i (design note of portable_exp_log.hpp:
      // two logarithms, a quotient, an exponential), with 1% for the
      // second-order terms.
      constexpr double u = 0x1p-53;
      for (std::size_t i = 2; i < kN; ++i) {
        const Big tt = -log(Big(t.f[i]));
        const Big exact = pow(tt, shape);
        const double log_x = std::abs(std::log(t.x[i]));
        const double bound = 1.01 * ((1.03 + 2.0 * log_x + k) * u + 0x1p-59 * (1.0 + 1.0 / tt.convert_to<double>()) * k);
        const Big error = boost::multiprecision::abs(Big(t.x[i]) / exact - 1);
        INFO("x[", i, "] = ", t.x[i], ": relative error ", error.convert_to<double>(), ", bound ", bound);
        CHECK(error <= Big(bound));
      }
      check_fast_path(t);
    }
  }

  TEST_CASE(
      "samplers: exponential ziggurat table satisfies its defining equations (50-digit check)") {
    using boost::multiprecision::exp;
    using boost::multiprecision::log;
    const auto& t = dist::exponential_ziggurat();
    check_ziggurat(
        t, [](const Big& x) { return Big(exp(-x)); }, [](const Big& y) { return Big(-log(y)); },
        [](const Big& r) { return Big(exp(-r)); });
    CHECK(t.r == doctest::Approx(9.2561645442655).epsilon(1e-14));
  }

  TEST_CASE("samplers: the first outputs of a fixed seed and block are pinned") {
    // The reproducibility contract (DESIGN §2): these numbers may change only
    // with a deliberate change of algorithm, noted in CHANGELOG.md.
    constexpr std::uint64_t kSeed = 20240611;
    constexpr std::uint64_t kBlock = 3;
    auto first = [&](const auto& sampler) { return draw(sampler, kSeed, 6, kBlock); };
    using V = std::vector<double>;
    CHECK(first(dist::NormalSampler({0.0, 1.0})) == V{0x1.473e8b9cccebp-1, 0x1.2b8e7e63ca8c2p+0,
                                                      -0x1.8e3deb8faa815p+0, -0x1.46c9731d035cep-1,
                                                      0x1.f7e00710f7a8fp-3, 0x1.011041b256e2bp-1});
    CHECK(first(dist::ExponentialSampler({1.0})) == V{0x1.4783d4e17dc31p+0, 0x1.0df435fe29b53p+1,
                                                      0x1.006b9ce09f7ap+0, 0x1.7f56e7fbd5888p-2,
                                                      0x1.bf27688887fabp-2, 0x1.c093da41ed638p-1});
    CHECK(first(dist::UniformSampler({0.0, 1.0})) == V{0x1.41876a81e58d8p-1, 0x1.c7674efd9c1aep-1,
                                                       0x1.9cf6f7bf5ef5dp-1, 0x1.e7b70a9b8fcdcp-3,
                                                       0x1.f956e1be605ap-4, 0x1.38e13eeb1bc32p-2});
    CHECK(first(dist::ConstantSampler({2.5})) == V{2.5, 2.5, 2.5, 2.5, 2.5, 2.5});
    CHECK(first(dist::PoissonSampler({4.5})) == V{5, 7, 6, 3, 2, 3});
    CHECK(first(dist::PoissonSampler({1e9})) ==
          V{1000011607, 1000030825, 999957739, 1000025224, 999956460, 1000016836});
    CHECK(first(dist::BinomialSampler({20, 0.3})) == V{7, 9, 8, 5, 4, 5});
    CHECK(first(dist::BinomialSampler({1'000'000'000, 0.7})) ==
          V{699994682, 699985878, 700019360, 699988443, 700019945, 699992286});
  }

  TEST_CASE("samplers: the same seed and block give the same numbers while other blocks give others") {
    const dist::NormalSampler normal({0.0, 1.0});
    CHECK(draw(normal, 7, 1000, 5) == draw(normal, 7, 1000, 5));
    CHECK(draw(normal, 7, 1000, 5) != draw(normal, 7, 1000, 6));
    const dist::PoissonSampler poisson({3.0});
    CHECK(draw(poisson, 7, 1000, 5) == draw(poisson, 7, 1000, 5));
  }

  TEST_CASE("samplers: the fast paths use exactly one generator output") {
    // Normal and exponential: the fast path is taken with probability
    // sum_j accept_j / 2^52 / (number of entries), and then uses one output;
    // the wedge and the tail use more. The observed share of one-output draws
    // must match (4 sd).
    auto check_share = [](const auto& sampler, const auto& t) {
      double p = 0.0;
      for (std::uint64_t a : t.accept) {
        p += static_cast<double>(a) * 0x1.0p-52 / static_cast<double>(t.kEntries);
      }
      const std::vector<int> used = outputs_per_draw(sampler, 200'000);
      const auto n = static_cast<double>(used.size());
      const auto ones = static_cast<double>(std::count(used.begin(), used.end(), 1));
      INFO("one-output share ", ones / n, " vs ", p);
      CHECK(std::abs(ones - n * p) <= 4.0 * std::sqrt(n * p * (1.0 - p)));
      CHECK(*std::min_element(used.begin(), used.end()) == 1);
      CHECK(p > 0.97);
    };
    check_share(dist::NormalSampler({0.0, 1.0}), dist::normal_ziggurat());
    check_share(dist::ExponentialSampler({1.0}), dist::exponential_ziggurat());
    // Uniform and table samplers: always one (tails beyond 2^-32 aside).
    for (int u : outputs_per_draw(dist::UniformSampler({0.0, 1.0}), 10'000)) REQUIRE(u == 1);
    for (int u : outputs_per_draw(dist::PoissonSampler({7.0}), 10'000)) REQUIRE(u == 1);
    for (int u : outputs_per_draw(dist::BinomialSampler({40, 0.6}), 10'000)) REQUIRE(u == 1);
  }

  TEST_CASE("samplers: the squeezed wedge tests decide as the curve itself does") {
    // The wedge tests bound the curve by Taylor polynomials and evaluate exp()
    // only between the bounds; every decision must be the plain comparison
    // of the height with exp(). Abscissae are drawn where the fast path fails
    // (m >= accept), heights at random and at relative distances 2^-k from
    // the curve on both sides, where a wrong bound would flip the decision.
    engine::Generator gen = engine::block_generator(99, 0);
    auto check = [&gen](const auto& t, auto under_curve, auto curve) {
      std::int64_t tests = 0, mismatches = 0;
      for (std::size_t j = 1; j < t.kEntries; ++j) {
        const std::size_t i = j % t.kLayers;
        if (i == 0) continue;
        const double bottom = t.f[i];
        const double height = t.f[i + 1] - t.f[i];
        for (int k = 0; k < 200; ++k) {
          const std::uint64_t span = (std::uint64_t{1} << 52) - t.accept[j];
          const std::uint64_t m = t.accept[j] + gen() % span;
          const double z = dist::detail::odd_to_double(m) * t.scale[j];
          std::vector<double> us{engine::uniform01(gen)};
          for (int e : {8, 12, 20, 30, 35, 36, 37, 40, 50}) {
            for (double sign : {-1.0, 1.0}) {
              const double u = (curve(z) * (1.0 + sign * std::ldexp(1.0, -e)) - bottom) / height;
              if (u >= 0.0 && u < 1.0) us.push_back(u);
            }
          }
          for (double u : us) {
            const bool plain = bottom + u * height < curve(z);
            mismatches += under_curve(t, i, z, u) != plain ? 1 : 0;
            ++tests;
          }
        }
      }
      INFO(tests, " wedge decisions");
      CHECK(tests > 100'000);
      CHECK(mismatches == 0);
    };
    // With the C library's exp (pcg64) and with lbmc's own (the counter-based stream).
    const dist::PortableMath portable{&dist::exp_log_tables()};
    const auto normal_curve = [](double z) { return std::exp(-0.5 * z * z); };
    const auto exponential_curve = [](double z) { return std::exp(-z); };
    check(dist::normal_ziggurat(),
          [](const auto& t, std::size_t i, double z, double u) { return dist::detail::normal_under_curve(t, i, z, u); },
          normal_curve);
    check(dist::exponential_ziggurat(),
          [](const auto& t, std::size_t i, double z, double u) {
            return dist::detail::exponential_under_curve(t, i, z, u);
          },
          exponential_curve);
    check(dist::normal_ziggurat(),
          [&](const auto& t, std::size_t i, double z, double u) {
            return dist::detail::normal_under_curve(t, i, z, u, portable);
          },
          normal_curve);
    check(dist::exponential_ziggurat(),
          [&](const auto& t, std::size_t i, double z, double u) {
            return dist::detail::exponential_under_curve(t, i, z, u, portable);
          },
          exponential_curve);
  }

  TEST_CASE("samplers: degenerate laws are point masses and consume no randomness") {
    auto check_point = [](const auto& sampler, double value) {
      engine::Generator gen = engine::block_generator(1, 2);
      const engine::Generator before = gen;
      for (int i = 0; i < 5; ++i) CHECK(sampler(gen) == value);
      const bool unchanged = gen == before;
      CHECK(unchanged);
    };
    check_point(dist::ConstantSampler({-3.25}), -3.25);
    check_point(dist::PoissonSampler({0.0}), 0.0);
    check_point(dist::BinomialSampler({0, 0.3}), 0.0);
    check_point(dist::BinomialSampler({17, 0.0}), 0.0);
    check_point(dist::BinomialSampler({17, 1.0}), 17.0);
    check_point(dist::BinomialSampler({std::int64_t{1} << 53, 1.0}), 0x1.0p53);
    CHECK(dist::PoissonSampler({0.0}).method() == DiscreteMethod::point);
    CHECK(dist::BinomialSampler({17, 1.0}).method() == DiscreteMethod::point);
  }

  TEST_CASE("samplers: outputs stay in range") {
    SUBCASE("exponential: (0, inf), never 0") {
      const auto& t = dist::exponential_ziggurat();
      for (double scale : t.scale) CHECK(scale > 0.0);  // smallest output
      for (double mean : {1.0, 1e-300}) {
        const auto xs = draw(dist::ExponentialSampler({mean}), 11, 1 << 20);
        CHECK(std::all_of(xs.begin(), xs.end(),
                          [](double x) { return x > 0.0 && std::isfinite(x); }));
      }
    }
    SUBCASE("normal: finite, never exactly mu") {
      const auto xs = draw(dist::NormalSampler({0.0, 1.0}), 12, 1 << 20);
      CHECK(
          std::all_of(xs.begin(), xs.end(), [](double x) { return x != 0.0 && std::isfinite(x); }));
    }
    SUBCASE("uniform: [a, b), b impossible even where a + (b - a) u rounds to b") {
      for (const dist::Uniform law : {dist::Uniform{0.0, 1.0}, dist::Uniform{-3.0, 5.0},
                                      dist::Uniform{1.0, 2.0}, dist::Uniform{-1e308, 1e308}}) {
        const auto xs = draw(dist::UniformSampler(law), 13, 1 << 18);
        CHECK(std::all_of(xs.begin(), xs.end(), [&](double x) { return x >= law.a && x < law.b; }));
      }
      // [1, 1 + 2^-52) holds one double, 1; unclamped, half the draws would round to b.
      const auto xs = draw(dist::UniformSampler({1.0, 1.0 + 0x1.0p-52}), 14, 1000);
      CHECK(std::all_of(xs.begin(), xs.end(), [](double x) { return x == 1.0; }));
    }
    SUBCASE("integer laws: integers inside the support, every method and both fallback tails") {
      const DiscreteOptions wide_tails{0.25,
                                       std::size_t{1} << 16};  // the fallback on ~half the draws
      auto check = [](const auto& sampler, double lo, double hi) {
        const auto xs = draw(sampler, 15, 5'000);
        CHECK(std::all_of(xs.begin(), xs.end(),
                          [&](double x) { return x == std::floor(x) && x >= lo && x <= hi; }));
      };
      check(dist::PoissonSampler({3.0}, wide_tails), 0.0, 1e300);
      check(dist::PoissonSampler({200.0}, wide_tails), 0.0, 1e300);
      check(dist::PoissonSampler({12.0}, {0x1p-32, 0}), 0.0, 1e300);
      check(dist::BinomialSampler({30, 0.5}, wide_tails), 0.0, 30.0);
      check(dist::BinomialSampler({5, 0.99}, wide_tails), 0.0, 5.0);
      check(dist::BinomialSampler({30, 0.5}, {0x1p-32, 0}), 0.0, 30.0);
      check(dist::BinomialSampler({std::int64_t{1} << 53, 0.999}), 0.0, 0x1.0p53);
    }
  }

  TEST_CASE("samplers: the table / rejection switch rule") {
    // Table iff it has at most max_table cells or rejection is invalid
    // (lambda < 10, M min(p, 1-p) < 10). A table's tails hold <= tail_mass
    // each, and its tail masses agree with Boost's cdf where that is accurate:
    // within 1e-10 relative (<= 1e5 summed terms: 2e-11; each term 64 eps
    // (1 + |log p|) <= 4e-13; Boost a few eps).
    constexpr double kTail = 0x1p-32;
    auto check_table = [&](const dist::InversionTable& t, const LoadLaw& law) {
      const double lo = t.lo();
      const double hi = lo + static_cast<double>(t.size()) - 1.0;
      INFO("law ", dist::to_spec(law), ": table [", lo, ", ", hi, "]");
      CHECK(t.size() <= 65536);
      CHECK(t.below() <= kTail);
      CHECK(t.above() <= kTail);
      CHECK(t.below() == doctest::Approx(dist::cdf(law, lo - 1.0)).epsilon(1e-10));
      CHECK(t.above() == doctest::Approx(dist::ccdf(law, hi)).epsilon(1e-10));
    };
    for (double lambda : {0.3, 9.99, 10.0, 1e3, 1e6, 27628260.0}) {
      const dist::PoissonSampler s({lambda});
      REQUIRE(s.method() == DiscreteMethod::table);
      check_table(s.table(), dist::Poisson{lambda});
    }
    for (const dist::Binomial law : {dist::Binomial{40, 0.3}, dist::Binomial{1'000'000'000, 1e-8},
                                     dist::Binomial{110514297, 0.5}}) {
      const dist::BinomialSampler s(law);
      REQUIRE(s.method() == DiscreteMethod::table);
      check_table(s.table(), law);
    }
    // p > 1/2: the table is that of 1 - p.
    const dist::BinomialSampler flipped({1'000'000'000, 0.999});
    REQUIRE(flipped.method() == DiscreteMethod::table);
    check_table(flipped.table(), dist::Binomial{1'000'000'000, 1.0 - 0.999});
    // The switch points (pinned: they move only if the rule does).
    CHECK(dist::PoissonSampler({27628260.0}).method() == DiscreteMethod::table);
    CHECK(dist::PoissonSampler({27628261.0}).method() == DiscreteMethod::rejection);
    CHECK(dist::PoissonSampler({1e9}).method() == DiscreteMethod::rejection);
    CHECK(dist::BinomialSampler({110514297, 0.5}).method() == DiscreteMethod::table);
    CHECK(dist::BinomialSampler({110514298, 0.5}).method() == DiscreteMethod::rejection);
    CHECK(dist::BinomialSampler({std::int64_t{1} << 53, 1e-15}).method() == DiscreteMethod::table);
    CHECK(dist::BinomialSampler({std::int64_t{1} << 53, 1.0 - 1e-15}).method() ==
          DiscreteMethod::table);
    // Rejection only where valid.
    CHECK(dist::PoissonSampler({9.99}, {kTail, 0}).method() == DiscreteMethod::table);
    CHECK(dist::PoissonSampler({10.0}, {kTail, 0}).method() == DiscreteMethod::rejection);
    CHECK(dist::BinomialSampler({199, 0.05}, {kTail, 0}).method() == DiscreteMethod::table);
    CHECK(dist::BinomialSampler({200, 0.95}, {kTail, 0}).method() == DiscreteMethod::rejection);
  }

  TEST_CASE("samplers: the inversion table and its guide (known answers)") {
    constexpr std::uint64_t kTop = std::uint64_t{1} << 63;
    const dist::InversionTable t(5.0, std::vector<double>{0.25, 0.5, 0.25}, 0.0, 0.0);
    CHECK(t.lo() == 5.0);
    CHECK(t.size() == 3);
    CHECK(t.thresholds() == std::vector<std::uint64_t>{0, kTop / 4, 3 * (kTop / 4), kTop, kTop});
    // The cell of each u: the first and last u of every cell.
    const auto check_cells = [](const dist::InversionTable& table,
                                std::initializer_list<std::pair<std::uint64_t, std::size_t>> cells) {
      for (const auto& [u, cell] : cells) {
        CAPTURE(u);
        CHECK(table.locate(u) == cell);
      }
    };
    check_cells(t, {{0, 1}, {kTop / 4 - 1, 1}, {kTop / 4, 2}, {3 * (kTop / 4) - 1, 2}, {3 * (kTop / 4), 3},
                    {kTop - 1, 3}});
    // Tails outside: cell 0 below, cell n+1 above.
    const dist::InversionTable u(0.0, std::vector<double>{0.5}, 0.125, 0.375);
    check_cells(u, {{0, 0}, {kTop / 8 - 1, 0}, {kTop / 8, 1}, {5 * (kTop / 8) - 1, 1}, {5 * (kTop / 8), 2},
                    {kTop - 1, 2}});
    // Many cells, some of zero mass: locate agrees with a linear search and
    // finds every threshold, with guides of 1024 to 2^18 buckets and through
    // the bisection of buckets that hold many thresholds.
    engine::Generator gen = engine::block_generator(3, 3);
    // Flat masses (1000 and 100000 cells), 300 cells of masses 2^-min(j,
    // 299-j), whose tails crowd into the first and last buckets, and a bell
    // of sd 500 at cell 15000 of 20001, a wide table whose guide has fewer
    // buckets than 2 (cells + 2).
    for (const std::size_t cells : {std::size_t{1000}, std::size_t{100'000}, std::size_t{300}, std::size_t{20'001}}) {
      CAPTURE(cells);
      std::vector<double> probs(cells);
      for (std::size_t j = 0; j < probs.size(); ++j) {
        const double z = (static_cast<double>(j) - 15000.0) / 500.0;
        probs[j] = cells == 20'001 ? std::exp(-z * z / 2.0)
                   : cells == 300  ? std::ldexp(1.0, -static_cast<int>(std::min(j, cells - 1 - j)))
                   : (j % 7 == 3)  ? 0.0
                                   : 1.0 + static_cast<double>(j % 13);
      }
      double total = 0.0;
      for (double p : probs) total += p;
      for (double& p : probs) p /= total;
      const dist::InversionTable w(0.0, probs, 0.0, 0.0);
      if (cells == 20'001) CHECK(w.buckets() < std::bit_ceil(2 * (cells + 2)));
      const auto& thr = w.thresholds();
      for (int k = 0; k < 100'000; ++k) {
        const std::uint64_t x = gen() >> 1;
        const auto linear = static_cast<std::size_t>(std::upper_bound(thr.begin(), thr.end(), x) - thr.begin());
        REQUIRE(w.locate(x) == linear);
      }
      // Every threshold below 2^63 and the u just below it.
      for (std::size_t j = 0; j + 1 < thr.size(); ++j) {
        if (thr[j] == 0 || thr[j] >= kTop) continue;
        REQUIRE(w.locate(thr[j]) > j);
        REQUIRE(w.locate(thr[j] - 1) <= j);
      }
    }
  }

  TEST_CASE("samplers: Poisson and binomial tables draw the same variates without the value guide") {
    const dist::DiscreteOptions unguided{0x1p-32, dist::kDefaultMaxTable, false};
    const auto same_draws = [](const auto& guided, const auto& plain) {
      REQUIRE(guided.method() == dist::DiscreteMethod::table);
      REQUIRE(plain.method() == dist::DiscreteMethod::table);
      CHECK(guided.portable().value_guide.buckets != nullptr);
      CHECK(plain.portable().value_guide.buckets == nullptr);
      engine::Generator a = engine::block_generator(11, 3);
      engine::Generator b = a;
      for (int k = 0; k < 100'000; ++k) REQUIRE(guided(a) == plain(b));
      const bool same_outputs_used = a == b;
      CHECK(same_outputs_used);
    };
    for (const double lambda : {0.5, 10.0, 300.0}) {
      CAPTURE(lambda);
      same_draws(dist::PoissonSampler(dist::Poisson{lambda}), dist::PoissonSampler(dist::Poisson{lambda}, unguided));
    }
    for (const auto& [trials, p] : {std::pair<std::int64_t, double>{1000, 0.01}, {40, 0.9}, {4096, 0.5}}) {
      CAPTURE(trials);
      same_draws(dist::BinomialSampler(dist::Binomial{trials, p}),
                 dist::BinomialSampler(dist::Binomial{trials, p}, unguided));
    }
  }

  TEST_CASE("samplers: the value guide gives the table's cell wherever it settles a draw") {
    constexpr std::uint64_t kTop = std::uint64_t{1} << 63;
    engine::Generator gen = engine::block_generator(5, 1);
    // Masses 2^-min(j, 299-j) (tails crowded into the end buckets), a table
    // with cells of zero mass, and bells of sd 20 and 500.
    const auto bell = [](std::size_t cells, double sd) {
      std::vector<double> p(cells);
      for (std::size_t j = 0; j < cells; ++j) {
        const double z = (static_cast<double>(j) - static_cast<double>(cells / 2)) / sd;
        p[j] = std::exp(-z * z / 2.0);
      }
      return p;
    };
    std::vector<double> crowded(300), holes(1000);
    for (std::size_t j = 0; j < 300; ++j) crowded[j] = std::ldexp(1.0, -static_cast<int>(std::min(j, 299 - j)));
    for (std::size_t j = 0; j < 1000; ++j) holes[j] = j % 97 == 3 ? 0.0 : 1.0 + static_cast<double>(j % 13);
    for (std::vector<double> probs : {crowded, holes, bell(201, 20.0), bell(20'001, 500.0)}) {
      CAPTURE(probs.size());
      const double total = std::accumulate(probs.begin(), probs.end(), 0.0);
      for (double& p : probs) p = p / total * (1.0 - 0x1p-20);
      const dist::InversionTable table(0.0, probs, 0x1p-21, 0x1p-21);
      // Values unrelated to the cells' indices; the tails marked -1.
      std::vector<std::int64_t> values(table.size() + 2, -1);
      for (std::size_t i = 1; i <= table.size(); ++i) values[i] = 7 + 3 * static_cast<std::int64_t>(i);
      const dist::CellValueGuide guide(table, dist::SharedArray(values));
      if (probs.size() == 20'001) {
        CHECK(guide.empty());  // two thresholds in most of 4096 buckets
        continue;
      }
      REQUIRE_FALSE(guide.empty());
      // The fewest buckets that leave at most 2^-8 of the draws to the
      // search: 1024 for the crowded tails, 2048 for the bell of sd 20. 1000
      // cells about as wide as 1024 buckets leave 1% even with 4096, the
      // most: those, which leave at most 2^-6.
      const bool crowded_guide = probs.size() == 1000;
      CHECK(guide.buckets() == (crowded_guide ? 4096 : probs.size() == 201 ? 2048 : 1024));
      const double most_unsettled = crowded_guide ? 0x1p-6 : 0x1p-8;
      int unsettled = 0;
      constexpr int kDraws = 200'000;
      for (int k = 0; k < kDraws; ++k) {
        const std::uint64_t u = gen() >> 1;
        const std::int64_t value = guide.value(u);
        const std::int64_t expected = values[table.locate(u)];
        if (value >= 0) {
          REQUIRE(value == expected);
        } else if (expected >= 0) {
          ++unsettled;
        }
      }
      // At most that share of the draws is left to the search: 4 se above.
      CHECK(unsettled <= kDraws * most_unsettled + 4.0 * std::sqrt(kDraws * most_unsettled));
      // Every threshold below 2^63 and the u just below it.
      const auto& thr = table.thresholds();
      for (std::size_t j = 0; j + 1 < thr.size(); ++j) {
        if (thr[j] == 0 || thr[j] >= kTop) continue;
        for (const std::uint64_t u : {thr[j] - 1, thr[j]}) {
          const std::int64_t value = guide.value(u);
          if (value >= 0) REQUIRE(value == values[table.locate(u)]);
        }
      }
    }
    // Values a bucket cannot hold (past 2^31 - 1): no guide.
    {
      const dist::InversionTable table = dist::PoissonSampler({10.0}).table();
      const auto ending_at = [&](std::int64_t largest) {
        std::vector<std::int64_t> v(table.size() + 2, -1);
        for (std::size_t i = 1; i <= table.size(); ++i) v[i] = largest - static_cast<std::int64_t>(table.size() - i);
        return dist::CellValueGuide(table, dist::SharedArray(v));
      };
      constexpr std::int64_t kWidest = (std::int64_t{1} << 31) - 1;
      CHECK_FALSE(ending_at(kWidest).empty());
      CHECK(ending_at(kWidest + 1).empty());
    }
    // The integer laws' tables of the benchmarks: 1024 buckets (16 KiB) for
    // Poisson(10), 4096 (64 KiB) for Binomial(4096, 1/2), whose 1024 buckets
    // would leave it 2^-6 of the draws.
    const auto marked = [](const dist::InversionTable& t) {
      return dist::SharedArray(std::vector<std::int64_t>(t.size() + 2, -1));
    };
    const dist::InversionTable poisson = dist::PoissonSampler({10.0}).table();
    CHECK(dist::CellValueGuide(poisson, marked(poisson)).buckets() == 1024);
    const dist::InversionTable binomial = dist::BinomialSampler({4096, 0.5}).table();
    CHECK(dist::CellValueGuide(binomial, marked(binomial)).buckets() == 4096);
    // Cell 0, the lower tail, must be marked.
    CHECK_THROWS_AS(dist::CellValueGuide(poisson, dist::SharedArray(std::vector<std::int64_t>(poisson.size() + 2, 0))),
                    std::logic_error);
  }

  TEST_CASE("samplers: the cubic guide gives the table's value wherever it settles a draw") {
    // Tables too wide for the value guide: a bell of sd 500, one with cells
    // of no mass every 97 (t jumps there), and the negative binomial's
    // tables from 0 (R = 1000), from a lower quantile (R = 1e4; 1e5, a wide
    // table of 443 593 cells) and from 0 past 2^18 cells (R = 0.3). Every
    // threshold and the u just below it, and random u: a value the guide
    // settles, and one nearby_value decides, is the table's; what neither
    // decides is left to the table's search.
    constexpr std::uint64_t kTop = std::uint64_t{1} << 63;
    engine::Generator gen = engine::block_generator(6, 1);
    std::vector<double> bell(20'001), holes(30'000);
    for (std::size_t j = 0; j < bell.size(); ++j) {
      const double z = (static_cast<double>(j) - 10'000.0) / 500.0;
      bell[j] = std::exp(-z * z / 2.0);
    }
    for (std::size_t j = 0; j < holes.size(); ++j) {
      const double z = (static_cast<double>(j) - 15'000.0) / 3000.0;
      holes[j] = j % 97 == 3 ? 0.0 : std::exp(-z * z / 2.0);
    }
    const auto normalised = [](std::vector<double> p) {
      const double total = std::accumulate(p.begin(), p.end(), 0.0);
      for (double& x : p) x = x / total * (1.0 - 0x1p-20);
      return p;
    };
    struct Case {
      dist::InversionTable table;
      std::int64_t first;
      double least_settled;  // the share of draws value() settles, at least
    };
    const dist::NegBinomialSampler narrow({1e3, 0.01}), centred({1e4, 0.01}), wide({1e5, 0.01}), falling({0.3, 3e-5});
    REQUIRE(narrow.cubic_guided());
    REQUIRE(centred.cubic_guided());
    REQUIRE(wide.cubic_guided());
    REQUIRE(falling.cubic_guided());
    // The shares settled at once: a guide that settles few is broken (the
    // bell's cells are narrower than its buckets, so more of them hold a
    // threshold where t bends).
    const Case cases[] = {{dist::InversionTable(0.0, normalised(bell), 0x1p-21, 0x1p-21), 5, 0.95},
                          {dist::InversionTable(0.0, normalised(holes), 0x1p-21, 0x1p-21), 0, 0.9},
                          {narrow.table(), 0, 0.99},
                          {centred.table(), static_cast<std::int64_t>(centred.table().lo()), 0.99},
                          {wide.table(), static_cast<std::int64_t>(wide.table().lo()), 0.99},
                          {falling.table(), 0, 0.99}};
    for (const Case& c : cases) {
      CAPTURE(c.table.size());
      const dist::CubicCellGuide guide(c.table, c.first);
      REQUIRE_FALSE(guide.empty());
      const std::uint64_t* thresholds = c.table.thresholds().data();
      long settled = 0, nearby = 0, searched = 0;
      const auto check = [&](std::uint64_t u) {
        const std::size_t i = c.table.locate(u);
        const std::int64_t expected = i - 1 < c.table.size() ? c.first + static_cast<std::int64_t>(i) - 1 : -1;
        const std::int64_t value = guide.value(u);
        if (value >= 0) {
          REQUIRE(value == expected);
          ++settled;
          return;
        }
        const std::int64_t near = guide.nearby_value(u, thresholds);
        if (near >= 0) {
          REQUIRE(near == expected);
          ++nearby;
        } else {
          ++searched;
        }
      };
      // Two draws at once (settle_pair, the loops' form): value() of each.
      const auto check_pair = [&guide](std::uint64_t u0, std::uint64_t u1) {
        std::int64_t v0 = 0, v1 = 0;
        const bool both = guide.settle_pair(u0 << 1, (u1 << 1) | 1, v0, v1);
        REQUIRE(v0 == guide.value(u0));
        REQUIRE(v1 == guide.value(u1));
        REQUIRE(both == (v0 >= 0 && v1 >= 0));
      };
      constexpr long kDraws = 400'000;
      std::uint64_t previous = 0;
      for (long k = 0; k < kDraws; ++k) {
        const std::uint64_t u = gen() >> 1;
        check(u);
        check_pair(previous, u);
        previous = u;
      }
      INFO("settled ", settled, ", nearby ", nearby, ", searched ", searched);
      CHECK(static_cast<double>(settled) >= c.least_settled * kDraws);
      const auto& thr = c.table.thresholds();
      for (std::size_t j = 0; j + 1 < thr.size(); ++j) {
        if (thr[j] == 0 || thr[j] >= kTop) continue;
        check(thr[j] - 1);
        check(thr[j]);
        check_pair(thr[j] - 1, thr[j]);
        check_pair(thr[j], previous);
      }
    }
  }

  TEST_CASE("samplers: the negative binomial's tails beyond a table from a lower quantile") {
    // The conditional laws below lo and above hi, drawn by the tails'
    // searches (the cold path of 2^-40 of the draws): every value beyond
    // the table, and the mean within 4 se of the exact conditional mean
    // (Boost's masses summed over 2·10^4 values beyond each end).
    const dist::NegBinomialSampler sampler({1e4, 0.01});
    const dist::InversionTable& table = sampler.table();
    REQUIRE(table.lo() > 0.0);
    const double lo = table.lo();
    const double hi = lo + static_cast<double>(table.size()) - 1.0;
    const boost::math::negative_binomial_distribution<double> d(1e4, 0.01);
    engine::Generator gen = engine::block_generator(8, 2);
    for (const bool below : {true, false}) {
      CAPTURE(below);
      double mass = 0.0, first = 0.0, second = 0.0;
      for (int j = 1; j <= 20'000; ++j) {
        const double k = below ? lo - j : hi + j;
        const double f = boost::math::pdf(d, k);
        mass += f;
        first += f * k;
        second += f * k * k;
      }
      const double mean = first / mass;
      const double sd = std::sqrt(second / mass - mean * mean);
      const std::uint64_t u = below ? 0 : (std::uint64_t{1} << 63) - 1;
      constexpr int kDraws = 20'000;
      double sum = 0.0;
      for (int r = 0; r < kDraws; ++r) {
        const auto x = static_cast<double>(sampler.tail_value(u, gen));
        REQUIRE((below ? x < lo : x > hi));
        sum += x;
      }
      const double estimate = sum / kDraws;
      INFO("mean ", estimate, " against ", mean, " (sd ", sd, ")");
      CHECK(std::abs(estimate - mean) <= 4.0 * sd / std::sqrt(kDraws));
    }
  }

  TEST_CASE("samplers: Loader log-probabilities agree with 50-digit values") {
    // Reference: log-gamma in 50 digits (Boost.Math on cpp_bin_float_50); Boost's
    // double pdf is itself off by ~3e-6 relative at M = 2^53, Loader's is not.
    // Each of the <= 8 double terms is accurate to a few ulps and none exceeds
    // 2 (1 + |log p|) in magnitude: 64 eps (1 + |log p|) bounds the error.
    using boost::math::lgamma;
    using boost::multiprecision::log;
    for (double lambda : {10.0, 137.5, 1e4, 1e9, 1e15}) {
      for (double z : {-6.0, -2.0, -0.3, 0.0, 0.5, 3.0, 7.0}) {
        const double k = std::max(0.0, std::floor(lambda + z * std::sqrt(lambda)));
        const Big bk(k), bl(lambda);
        const auto expected = Big(-bl + bk * log(bl) - lgamma(bk + 1)).convert_to<double>();
        INFO("Poisson ", lambda, " at ", k);
        CHECK(std::abs(dist::detail::poisson_log_pmf(k, lambda) - expected) <=
              64.0 * kEps * (1.0 + std::abs(expected)));
      }
    }
    for (const auto& [trials, prob] :
         {std::pair{100.0, 0.3}, {1e6, 0.5}, {1e9, 1e-3}, {0x1.0p53, 0.25}}) {
      const double n = trials, p = prob;  // plain variables: INFO captures them
      const double sd = std::sqrt(n * p * (1.0 - p));
      for (double z : {-1e9, -5.0, -1.0, 0.0, 0.7, 4.0, 1e9}) {
        const double k = std::clamp(std::floor(n * p + z * sd), 0.0, n);
        const Big bn(n), bk(k), bp(p), bq(1 - bp);  // the law's q = 1 - p, exactly
        const auto expected = Big(lgamma(bn + 1) - lgamma(bk + 1) - lgamma(bn - bk + 1) +
                                  bk * log(bp) + (bn - bk) * log(bq))
                                  .convert_to<double>();
        INFO("binomial ", n, ", ", p, " at ", k);
        CHECK(std::abs(dist::detail::binomial_log_pmf(k, n, p, 1.0 - p) - expected) <=
              64.0 * kEps * (1.0 + std::abs(expected)));
      }
    }
  }

  TEST_CASE("samplers: visit_sampler builds the sampler of the held law") {
    auto same_as_direct = [](const LoadLaw& law, const auto& direct) {
      using Direct = std::decay_t<decltype(direct)>;
      const std::vector<double> via = dist::visit_sampler(law, [](const auto& sampler) {
        CHECK(std::is_same_v<std::decay_t<decltype(sampler)>, Direct>);
        return draw(sampler, 5, 8);
      });
      CHECK(via == draw(direct, 5, 8));
    };
    same_as_direct(dist::Normal{1.0, 2.0}, dist::NormalSampler({1.0, 2.0}));
    same_as_direct(dist::Binomial{10, 0.4}, dist::BinomialSampler({10, 0.4}));
    same_as_direct(dist::Poisson{2.0}, dist::PoissonSampler({2.0}));
    same_as_direct(dist::Exponential{3.0}, dist::ExponentialSampler({3.0}));
    same_as_direct(dist::Uniform{-1.0, 1.0}, dist::UniformSampler({-1.0, 1.0}));
    same_as_direct(dist::Constant{4.0}, dist::ConstantSampler({4.0}));
    // Parsed specs work the same way.
    CHECK(dist::visit_sampler(dist::parse_load_law("poisson:0"), [](const auto& s) {
            return draw(s, 1, 3);
          }) == std::vector<double>{0.0, 0.0, 0.0});
  }

  TEST_CASE("samplers: invalid parameters are rejected") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    CHECK_THROWS_AS(dist::NormalSampler({0.0, 0.0}), engine::InputError);
    CHECK_THROWS_AS(dist::NormalSampler({nan, 1.0}), engine::InputError);
    CHECK_THROWS_AS(dist::ExponentialSampler({0.0}), engine::InputError);
    CHECK_THROWS_AS(dist::ExponentialSampler({inf}), engine::InputError);
    CHECK_THROWS_AS(dist::UniformSampler({1.0, 1.0}), engine::InputError);
    CHECK_THROWS_AS(dist::UniformSampler({0.0, inf}), engine::InputError);
    CHECK_THROWS_AS(dist::PoissonSampler({-1.0}), engine::InputError);
    CHECK_THROWS_AS(dist::PoissonSampler({nan}), engine::InputError);
    CHECK_THROWS_AS(dist::PoissonSampler({1.0}, {0.0, 16}), engine::InputError);
    CHECK_THROWS_AS(dist::BinomialSampler({-1, 0.5}), engine::InputError);
    CHECK_THROWS_AS(dist::BinomialSampler({10, 1.5}), engine::InputError);
    CHECK_THROWS_AS(dist::BinomialSampler({(std::int64_t{1} << 53) + 1, 0.5}), engine::InputError);
    CHECK_THROWS_AS(dist::GammaSampler({0.0, 1.0}), engine::InputError);
    CHECK_THROWS_AS(dist::GammaSampler({0.3, inf}), engine::InputError);
    CHECK_THROWS_AS(dist::SmallShapeGammaSampler({1.0, 1.0}), engine::InputError);
    CHECK_THROWS_AS(dist::SmallShapeGammaSampler({0.3, 0.0}), engine::InputError);
  }

  TEST_CASE("laws: specs whose cdf or rate cannot be computed are refused as input") {
    // Past the parser, Boost.Math would throw at the first cdf, and the
    // command would fail (exit 3) instead of naming the bad --dist (exit 2).
    CHECK_THROWS_AS(dist::parse_load_law("exponential:1e-320"), engine::InputError);
    CHECK_THROWS_AS(dist::parse_load_law("poisson:4e17"), engine::InputError);
    CHECK_THROWS_AS(dist::parse_load_law("poisson:1e11"), engine::InputError);
    const dist::LoadLaw largest = dist::parse_load_law("poisson:1e10");
    CHECK(dist::cdf(largest, 1e10) == doctest::Approx(0.5).epsilon(0.01));
    CHECK(dist::ccdf(largest, 1e10) == doctest::Approx(0.5).epsilon(0.01));
    const dist::LoadLaw smallest = dist::parse_load_law("exponential:1e-100");
    CHECK(dist::cdf(smallest, 1e-100) == doctest::Approx(1.0 - std::exp(-1.0)));
  }

}  // TEST_SUITE("fast")

// ===========================================================================

TEST_SUITE("statistical") {
  constexpr std::size_t kN = std::size_t{1} << 20;

  TEST_CASE("samplers: normal goodness of fit by KS and moments and the 0.999 tail") {
    std::uint64_t seed = 1001;
    for (const dist::Normal law :
         {dist::Normal{0.0, 1.0}, dist::Normal{-2.5, 3.0}, dist::Normal{100.0, 0.01}}) {
      check_continuous_law(draw(dist::NormalSampler(law), seed++, kN), law);
    }
  }

  TEST_CASE("samplers: normal ziggurat layers and tail by chi-square over 2^24 draws") {
    // Bins at the layer edges +-x_i and, beyond r, at 3.9, 4.2, 4.5, 5: a wrong
    // layer, wedge or tail shows up in its own bins.
    const auto& t = dist::normal_ziggurat();
    const LoadLaw law = dist::Normal{0.0, 1.0};
    const auto xs = draw(dist::NormalSampler({0.0, 1.0}), 1011, std::size_t{1} << 24);
    std::vector<double> edges{0.0};
    for (std::size_t i = 1; i < t.kLayers; ++i) {
      edges.push_back(t.x[i]);
      edges.push_back(-t.x[i]);
    }
    for (double e : {3.9, 4.2, 4.5, 5.0}) {
      edges.push_back(e);
      edges.push_back(-e);
    }
    check_chi_square(xs, law, edges);
    // The tail algorithm alone: |Z| > r has probability 1.2e-4 (~2000 draws).
    std::vector<double> abs_xs(xs.size());
    std::transform(xs.begin(), xs.end(), abs_xs.begin(), [](double x) { return std::abs(x); });
    const double p = 2.0 * dist::ccdf(law, t.r);
    const auto n = static_cast<double>(xs.size());
    const auto count = static_cast<double>(
        std::count_if(abs_xs.begin(), abs_xs.end(), [&](double x) { return x > t.r; }));
    INFO("#(|Z| > r) = ", count, ", expected ", n * p);
    CHECK(std::abs(count - n * p) <= 4.0 * std::sqrt(n * p * (1.0 - p)));
    check_tail_count(xs, law, 4.5);
  }

  TEST_CASE("samplers: exponential goodness of fit by KS and moments and the 0.999 tail") {
    std::uint64_t seed = 2001;
    for (const dist::Exponential law :
         {dist::Exponential{1.0}, dist::Exponential{0.25}, dist::Exponential{1e3}}) {
      check_continuous_law(draw(dist::ExponentialSampler(law), seed++, kN), law);
    }
  }

  TEST_CASE("samplers: exponential ziggurat layers and tail by chi-square over 2^24 draws") {
    // Bins at the layer edges and beyond r at r + 0.5, r + 1, r + 2, r + 3, 2r
    // (beyond 2r the tail has been entered twice).
    const auto& t = dist::exponential_ziggurat();
    const LoadLaw law = dist::Exponential{1.0};
    const auto xs = draw(dist::ExponentialSampler({1.0}), 2011, std::size_t{1} << 24);
    std::vector<double> edges;
    for (std::size_t i = 1; i < t.kLayers; ++i) edges.push_back(t.x[i]);
    for (double e : {t.r + 0.5, t.r + 1.0, t.r + 2.0, t.r + 3.0, 2.0 * t.r}) edges.push_back(e);
    check_chi_square(xs, law, edges);
    check_tail_count(xs, law, t.r);
    check_tail_count(xs, law, t.r + 2.0);
  }

  TEST_CASE("samplers: uniform goodness of fit by KS and moments") {
    std::uint64_t seed = 3001;
    for (const dist::Uniform law :
         {dist::Uniform{0.0, 1.0}, dist::Uniform{-3.0, 5.0}, dist::Uniform{1e6, 1e6 + 1.0}}) {
      const auto xs = draw(dist::UniformSampler(law), seed++, kN);
      check_ks(xs, law);
      check_moments(xs, law);
    }
  }

  TEST_CASE("samplers: binomial goodness of fit by chi-square on the exact pmf and moments") {
    struct Case {
      dist::Binomial law;
      DiscreteOptions options;
      DiscreteMethod method;
    };
    const DiscreteOptions standard{};
    const DiscreteOptions rejection{0x1p-32, 0};    // BTRS wherever valid
    const DiscreteOptions fallback{0.05, 1 << 16};  // 10% of draws in the exact tail search
    const Case cases[] = {
        {{1, 0.5}, standard, DiscreteMethod::table},
        {{10, 0.3}, standard, DiscreteMethod::table},
        {{1000, 0.02}, standard, DiscreteMethod::table},
        {{200, 0.97}, standard, DiscreteMethod::table},
        {{1'000'000'000'000, 2e-12}, standard, DiscreteMethod::table},
        {{60, 0.4}, fallback, DiscreteMethod::table},
        {{9, 0.97}, fallback, DiscreteMethod::table},
        {{100, 0.1}, rejection, DiscreteMethod::rejection},  // M p = 10: BTRS's validity edge
        {{100, 0.3}, rejection, DiscreteMethod::rejection},
        {{1000, 0.9}, rejection, DiscreteMethod::rejection},      // p > 1/2: BTRS on 1 - p
        {{110514297, 0.5}, standard, DiscreteMethod::table},      // largest table at p = 1/2
        {{110514298, 0.5}, standard, DiscreteMethod::rejection},  // smallest BTRS at p = 1/2
        {{1'000'000'000'000, 0.3}, standard, DiscreteMethod::rejection},
        {{std::int64_t{1} << 53, 0.3}, standard, DiscreteMethod::rejection},  // the largest M
    };
    std::uint64_t seed = 4001;
    for (const Case& c : cases) {
      const dist::BinomialSampler sampler(c.law, c.options);
      INFO("binomial ", c.law.trials, ", ", c.law.p);
      CHECK(sampler.method() == c.method);
      const auto n = static_cast<double>(c.law.trials);
      const bool huge = n * c.law.p * (1.0 - c.law.p) >= 1e11;
      const auto cdf = huge ? binomial_edgeworth(n, c.law.p) : exact_cdf(c.law);
      check_integer_law(draw(sampler, seed++, kN), c.law, cdf);
      // The counter-based stream's form: the same table, lbmc's own log and exp.
      check_integer_law(draw_counter_stream(sampler, seed++, kN), c.law, cdf);
    }
  }

  TEST_CASE("samplers: Poisson goodness of fit by chi-square on the exact pmf and moments") {
    struct Case {
      double lambda;
      DiscreteOptions options;
      DiscreteMethod method;
    };
    const DiscreteOptions standard{};
    const DiscreteOptions rejection{0x1p-32, 0};
    const DiscreteOptions fallback{0.05, 1 << 16};
    const Case cases[] = {
        {0.01, standard, DiscreteMethod::table},
        {1.0, standard, DiscreteMethod::table},
        {9.99, rejection, DiscreteMethod::table},  // PTRS invalid below 10
        {10.0, standard, DiscreteMethod::table},
        {10.0, rejection, DiscreteMethod::rejection},  // PTRS's validity edge
        {250.0, standard, DiscreteMethod::table},
        {250.0, rejection, DiscreteMethod::rejection},
        {30.0, fallback, DiscreteMethod::table},
        {27628260.0, standard, DiscreteMethod::table},      // largest table
        {27628261.0, standard, DiscreteMethod::rejection},  // smallest PTRS
        {1e12, standard, DiscreteMethod::rejection},
        {1e15, standard, DiscreteMethod::rejection},
    };
    std::uint64_t seed = 5001;
    for (const Case& c : cases) {
      const dist::PoissonSampler sampler({c.lambda}, c.options);
      INFO("Poisson ", c.lambda);
      CHECK(sampler.method() == c.method);
      const auto cdf = c.lambda >= 1e12 ? poisson_edgeworth(c.lambda) : exact_cdf(dist::Poisson{c.lambda});
      check_integer_law(draw(sampler, seed++, kN), dist::Poisson{c.lambda}, cdf);
      // The counter-based stream's form: the same table, lbmc's own log and exp.
      check_integer_law(draw_counter_stream(sampler, seed++, kN), dist::Poisson{c.lambda}, cdf);
    }
  }

}  // TEST_SUITE("statistical")

TEST_SUITE("fast") {
  TEST_CASE("laws: each range is accepted at its edges and refused just beyond") {
    using dist::parse_load_law;
    const char* accepted[] = {"normal:1e100,1e100", "normal:-1e100,2e94", "normal:0,1e-100", "normal:1,1e-6",
                              "uniform:-1e100,1e100", "uniform:1,1.00001", "uniform:0,1e-100",
                              "exponential:1e-100", "exponential:1e100", "poisson:1e10", "poisson:0",
                              "binomial:9007199254740992,1", "constant:-1e100", "constant:-0"};
    for (const char* spec : accepted) {
      CAPTURE(spec);
      const LoadLaw law = parse_load_law(spec);
      // Every moment a command forms is finite and the spread is nonzero
      // unless the law is a point mass.
      CHECK(std::isfinite(dist::mean(law)));
      CHECK(std::isfinite(dist::variance(law)));
      CHECK(std::isfinite(dist::variance(law) * 0x1p62 * 0x1p62));
    }
    const char* refused[] = {"normal:1.1e100,1", "normal:0,1.1e100", "normal:0,9e-101", "normal:1,9e-7",
                             "uniform:-1.1e100,0", "uniform:1,1.0000009", "uniform:0,9e-101",
                             "exponential:9e-101", "exponential:1.1e100", "poisson:1.1e10",
                             "binomial:9007199254740994,1", "constant:1.1e100"};
    for (const char* spec : refused) {
      CAPTURE(spec);
      CHECK_THROWS_AS(parse_load_law(spec), engine::InputError);
    }
    // Quantiles of the largest integer laws (where Boost's own root bracketing
    // leaves the range its series converge in) are the exact smallest k.
    for (const char* spec : {"poisson:1e10", "binomial:9007199254740992,0.3"}) {
      CAPTURE(spec);
      const LoadLaw law = parse_load_law(spec);
      for (const double p : {1e-12, 0.3, 0.5, 0.999, 1.0 - 1e-9}) {
        CAPTURE(p);
        const double k = dist::quantile(law, p);
        CHECK(k == std::floor(k));
        CHECK(dist::cdf(law, k) >= p);
        CHECK(dist::cdf(law, k - 1.0) < p);
        const double u = dist::quantile_upper(law, p);
        CHECK(dist::ccdf(law, u) <= p);
        CHECK(dist::ccdf(law, u - 1.0) > p);
      }
    }
    // -0 is zero: the spec prints without a sign.
    CHECK(dist::to_spec(parse_load_law("constant:-0")) == "constant:0");
    CHECK(std::string(dist::law_ranges_help()).find("poisson:LAMBDA") != std::string::npos);
  }
}

// ---------------------------------------------------------------------------
// The task-time laws' samplers.

TEST_SUITE("fast") {
  TEST_CASE("samplers: task-time laws - the first outputs of a fixed seed and block are pinned") {
    // The reproducibility contract (DESIGN §2), as for the papers' laws above.
    constexpr std::uint64_t kSeed = 20240611;
    constexpr std::uint64_t kBlock = 3;
    auto first = [&](const auto& sampler) { return draw(sampler, kSeed, 6, kBlock); };
    using V = std::vector<double>;
    // Gamma and Weibull pins are also checked against 50-digit values drawn
    // from the same generator outputs (reference_gamma,
    // reference_small_shape_gamma, reference_weibull).
    const V gamma_pins{0x1.a006d7ca4da77p+2, 0x1.2d744322ce035p+0, 0x1.4651badc52f54p+2,
                       0x1.05006e0daab1cp+4, 0x1.e3318bcc6dd7bp+1, 0x1.14cb41117dca6p+1};
    CHECK(first(dist::GammaSampler({2.5, 2.0})) == gamma_pins);
    check_within_ulps(gamma_pins, reference_gamma({2.5, 2.0}, kSeed, kBlock, 6), 7.0);
    // K < 1 (gamma_ziggurat.hpp): THETA·z^a within FixedPower's 5.2u.
    const V small_shape_pins{0x1.127b3abab524ep-2, 0x1.0907d901f6b28p+0, 0x1.4d83814550248p-2,
                             0x1.f1a0669784cfap-8, 0x1.32bf237ba253ep-9, 0x1.30c6c9023795ep-5};
    CHECK(first(dist::GammaSampler({0.3, 1.0})) == small_shape_pins);
    check_within_ulps(small_shape_pins, reference_small_shape_gamma({0.3, 1.0}, kSeed, kBlock, 6), 6.0);
    CHECK(first(dist::LognormalSampler({0.0, 0.5})) == V{0x1.60650dd0efc8ep+0, 0x1.cb8cf1410528cp+0,
                                                         0x1.d66f19ae0f813p-2, 0x1.741cda470daa7p-1,
                                                         0x1.2182db0ddbf27p+0, 0x1.490d54ca806f8p+0});
    const V weibull_pins{0x1.2db1cc1ce63afp+1, 0x1.a502bba6f3505p+1, 0x1.0047b8e54bd3dp+1,
                         0x1.09f2009188a4ep+0, 0x1.26b241546ccd9p+0, 0x1.d4cb2984f9c68p+0};
    CHECK(first(dist::WeibullSampler({1.5, 2.0})) == weibull_pins);
    check_within_ulps(weibull_pins, reference_weibull({1.5, 2.0}, kSeed, kBlock, 6), 6.0);
    CHECK(first(dist::ParetoSampler({4.5, 1.0})) == V{0x1.542e67e6ce8acp+0, 0x1.990ddb778430dp+0, 0x1.3fd26e0a5968ap+0,
                                                      0x1.163522501ec18p+0, 0x1.1a164f599dcadp+0, 0x1.37065772c3baap+0});
    CHECK(first(dist::GeometricSampler({0.3})) == V{3, 7, 5, 1, 1, 2});
    CHECK(first(dist::GeometricSampler({0.02})) == V{64, 105, 50, 19, 22, 44});  // the ziggurat
    CHECK(first(dist::NegBinomialSampler({3.0, 0.4})) == V{5, 9, 7, 2, 1, 2});
    CHECK(first(dist::NegBinomialSampler({1e3, 0.01})) == V{99998, 102866, 101714, 96743, 95367, 97376});
    // A table from a lower quantile, with its cubic guide.
    CHECK(first(dist::NegBinomialSampler({1e4, 0.01})) == V{993219, 1002192, 998601, 982897, 978487, 984916});
    // Wide tables (up to 2^21 cells) from a lower quantile and (R < 1) from 0.
    CHECK(first(dist::NegBinomialSampler({1e5, 0.01})) == V{9910244, 9938518, 9927219, 9877572, 9863567, 9883975});
    CHECK(first(dist::NegBinomialSampler({1e6, 0.01})) ==
          V{99032459, 99121769, 99086091, 98929112, 98884763, 98949379});
    CHECK(first(dist::NegBinomialSampler({0.3, 3e-5})) == V{5588, 27293, 15952, 195, 22, 451});
    // Past the table: block rejection, log-concave and (R < 1) log-convex.
    CHECK(first(dist::NegBinomialSampler({1e7, 0.01})) ==
          V{990098609, 990385246, 990273970, 989778238, 989632419, 989839357});
    CHECK(first(dist::NegBinomialSampler({0.3, 1e-7})) == V{1676671, 8242476, 4801152, 59916, 6513, 135371});
    // The degenerate ends draw nothing.
    engine::Generator gen = engine::block_generator(kSeed, kBlock);
    const engine::Generator before = gen;
    CHECK(dist::GeometricSampler({1.0})(gen) == 1.0);
    CHECK(dist::NegBinomialSampler({2.0, 1.0})(gen) == 0.0);
    CHECK((gen == before));
  }

  TEST_CASE("samplers: the geometric's table is its failures' plus one - from the same outputs") {
    CHECK(dist::GeometricSampler({0.3}).tabled());
    CHECK(dist::GeometricSampler({0.05}).tabled());
    CHECK_FALSE(dist::GeometricSampler({0.02}).tabled());  // the ziggurat
    CHECK_FALSE(dist::GeometricSampler({1.0}).tabled());   // the point 1
    const dist::NegBinomialSampler failures({1.0, 0.3});
    const dist::GeometricSampler trials({0.3});
    engine::Generator a = engine::block_generator(3, 1);
    engine::Generator b = a;
    for (int i = 0; i < 100'000; ++i) REQUIRE(trials.integer(a) == 1 + failures.integer(b));
    CHECK((a == b));
    // The offset needs the table: block rejection has none.
    CHECK_THROWS_AS(dist::NegBinomialSampler({1e7, 0.01}, 1), std::logic_error);
  }

  TEST_CASE("samplers: gamma with K < 1 - pinned draws through the wedge and the tail") {
    // Seeds whose first six draws at K = 0.3 pass wedge tests (accepted and
    // rejected: seed 7769) and the tail beyond x0 with a rejected proposal
    // (seed 96024, the fourth draw), and K = 0.01 (FixedPower squares its
    // tabulated power four times: within its 2^4·6.2u < 100u).
    auto first = [](double k, std::uint64_t seed) { return draw(dist::GammaSampler({k, 2.0}), seed, 6, 3); };
    using V = std::vector<double>;
    const V wedge_pins{0x1.77a1951c4bcbep-4, 0x1.7d6da8741a885p-1, 0x1.9a2061da09efdp-15,
                       0x1.6a3b06c540f3p-2,  0x1.dd9344a017defp-1, 0x1.762949c94dcc1p-7};
    CHECK(first(0.3, 7769) == wedge_pins);
    check_within_ulps(wedge_pins, reference_small_shape_gamma({0.3, 2.0}, 7769, 3, 6), 6.0);
    const V tail_pins{0x1.b28aef9beadeap-1, 0x1.9c5d6de0d9aaap-3, 0x1.257b35a56c5f2p-8,
                      0x1.ef68207a21953p+3, 0x1.570906bd41013p-9, 0x1.d320e02734eb6p-3};
    CHECK(first(0.3, 96024) == tail_pins);
    check_within_ulps(tail_pins, reference_small_shape_gamma({0.3, 2.0}, 96024, 3, 6), 6.0);
    CHECK(*std::max_element(tail_pins.begin(), tail_pins.end()) > 2.0 * dist::gamma_power_table(1.0 / 0.3).tail_start);
    const V tiny_pins{0x1.ba79e4a9bfa62p-67,  0x1.40ec3f9d6cef2p-16, 0x1.c25cd384965cp-32,
                      0x1.4447cb54ca658p-207, 0x1.1a56503d0d091p-300, 0x1.795a2c8983aaap-170};
    CHECK(first(0.01, 20240611) == tiny_pins);
    check_within_ulps(tiny_pins, reference_small_shape_gamma({0.01, 2.0}, 20240611, 3, 6), 100.0);
  }

  TEST_CASE("samplers: the gamma squeeze never accepts beyond Marsaglia-Tsang's acceptance probability") {
    // A point t is accepted at once when u·w < S (computed); then u < S(1 + 2^-52)/w,
    // which must not exceed the acceptance probability exp(-3d·L(t)),
    // L(t) = t - t^2/2 + t^3/3 - ln(1 + t), here in 50 digits, over t in (-1, 8]
    // and near its ends and 0, and where the proposal puts its points (t = c·x,
    // |x| <= 10), for the d of K = 1, 1.3 (the boost of 0.3), 2.5, 10, 1e6.
    std::vector<double> grid;
    for (int i = 1; i < 20'000; ++i) grid.push_back(-1.0 + 9.0 * i / 20'000.0);
    for (int e = 1; e <= 60; ++e) {
      for (const double t : {-1.0 + std::ldexp(1.0, -e), std::ldexp(1.0, -e), -std::ldexp(1.0, -e)}) grid.push_back(t);
    }
    for (const double k : {1.0, 1.3, 2.5, 10.0, 1e6}) {
      CAPTURE(k);
      const double d = k - 1.0 / 3.0;
      const double c = 1.0 / std::sqrt(9.0 * d);
      std::vector<double> ts = grid;
      for (int i = -1000; i <= 1000; ++i) ts.push_back(c * (i / 100.0));
      const auto squeeze = dist::detail::GammaSqueeze::of(d);
      std::int64_t accepting = 0;
      for (const double t : ts) {
        if (1.0 + t <= 0.0) continue;  // redrawn by the sampler
        const double w = dist::detail::GammaSqueeze::clipped_one_plus(t);
        const double scaled = squeeze.scaled_bound(t, w);
        if (scaled <= 0.0) continue;  // accepts no u
        ++accepting;
        const Big bt(t);
        const Big loss = bt - bt * bt / 2 + bt * bt * bt / 3 - log1p(bt);
        const Big probability = exp(-3 * Big(d) * loss);
        const Big reach = Big(scaled) * (1 + Big(0x1p-52)) / Big(w);
        INFO("t = ", t, ": squeeze ", reach.convert_to<double>(), ", acceptance ", probability.convert_to<double>());
        CHECK(reach <= probability);
      }
      CHECK(accepting > 1000);
    }
  }

  TEST_CASE("samplers: the negative binomial table and block rejection switch where a wide table would pass 2^21 cells") {
    CHECK(dist::NegBinomialSampler({3.0, 0.4}).blocks() == nullptr);
    CHECK(dist::NegBinomialSampler({0.5, 1e-3}).blocks() == nullptr);
    CHECK(dist::NegBinomialSampler({1e3, 0.01}).blocks() == nullptr);
    CHECK(dist::NegBinomialSampler({2.0, 1.0}).blocks() == nullptr);
    // A mean past 2^18 with a table from a lower quantile within 2^18 cells.
    const dist::NegBinomialSampler centred({1e4, 0.01});
    CHECK(centred.blocks() == nullptr);
    CHECK(centred.table().lo() > 0.0);
    CHECK(centred.table().size() <= std::size_t{1} << 18);
    // Wide tables, past 2^18 cells: from a lower quantile, and from 0 (R < 1).
    const dist::NegBinomialSampler wide({1e5, 0.01});
    CHECK(wide.blocks() == nullptr);
    CHECK(wide.table().lo() > 0.0);
    CHECK(wide.table().size() > std::size_t{1} << 18);
    CHECK(wide.table().size() <= std::size_t{1} << 21);
    CHECK(wide.cubic_guided());
    // The last wide table built is kept: the same law again shares it.
    CHECK(dist::NegBinomialSampler({1e5, 0.01}).table().thresholds().data() == wide.table().thresholds().data());
    const dist::NegBinomialSampler falling({0.3, 3e-5});
    CHECK(falling.blocks() == nullptr);
    CHECK(falling.table().lo() == 0.0);
    CHECK(falling.table().size() > std::size_t{1} << 18);
    CHECK(falling.cubic_guided());
    // Past 2^20 cells (sd 1e5).
    const dist::NegBinomialSampler widest({1e6, 0.01});
    CHECK(widest.blocks() == nullptr);
    CHECK(widest.table().size() > std::size_t{1} << 20);
    CHECK(widest.table().size() <= std::size_t{1} << 21);
    CHECK(widest.cubic_guided());
    CHECK(dist::NegBinomialSampler({1e7, 0.01}).blocks() != nullptr);
    CHECK(dist::NegBinomialSampler({1.0, 1e-5}).blocks() != nullptr);
    CHECK(dist::NegBinomialSampler({0.5, 1e-6}).blocks() != nullptr);
  }

  TEST_CASE("samplers: the negative binomial's table cells hold Boost's masses - between the anchors too") {
    // The masses between two of Boost's anchors come from the ratio of
    // successive masses in double-double: every cell's width, 2^63 f(k)
    // rounded (the mode's takes the residue), must be Boost's pdf there to
    // 1e-12 (Boost's own values lie up to ~1e-14 from the exact masses at
    // these sizes, and a run carries its anchor's error; a ratio off by one
    // step would be off by ~1/k ~ 1e-7).
    // Laws: a table from 0 whose far left underflows (NegBinomial(1000,
    // 0.01)), one from a lower quantile, the widest, and R < 1 from 0.
    struct Law {
      double r, p;
      std::size_t every;
    };
    for (const Law law : {Law{1e3, 0.01, 1}, Law{1e5, 0.01, 5}, Law{1e6, 0.01, 25}, Law{0.3, 3e-5, 9}}) {
      CAPTURE(law.r);
      CAPTURE(law.p);
      const dist::NegBinomialSampler sampler({law.r, law.p});
      REQUIRE(sampler.blocks() == nullptr);
      const dist::InversionTable& table = sampler.table();
      const auto& thr = table.thresholds();
      const boost::math::negative_binomial_distribution<double, engine::MathPolicy> d(law.r, law.p);
      // The mode's width holds the rounding residue: it and its neighbours
      // (whose masses may tie with it) are left out.
      const double mode = law.r > 1.0 ? std::floor((law.r - 1.0) * (1.0 - law.p) / law.p) - table.lo() : 0.0;
      std::size_t checked = 0, worse = 0;
      for (std::size_t j = 0; j < table.size(); j += law.every) {
        if (std::abs(static_cast<double>(j) - mode) <= 1.0) continue;
        const double mass = boost::math::pdf(d, table.lo() + static_cast<double>(j));
        const double width = static_cast<double>(thr[j + 1] - thr[j]);
        ++checked;
        if (std::abs(width - 0x1p63 * mass) > 1e-12 * 0x1p63 * mass + 1.0) ++worse;
      }
      INFO(checked, " cells checked");
      CHECK(worse == 0);
    }
  }

  TEST_CASE("samplers: negative binomial log-probabilities agree with 50-digit values") {
    // Reference: log-gamma in 50 digits, log f(k) = lgamma(k + R) - lgamma(R)
    // - lgamma(k + 1) + R log P + k log(1 - P), P and 1 - P exact. Points: the
    // head (where stirlerr comes from the law's table), the stirlerr switch
    // at R + k = 32, the body and both far tails, for R from 0.01 to 1e10.
    // The terms of Loader's form are bounded by |log f| + 40 (the bd0's
    // are positive, the stirlerr's below 1, the log term below 35), each to
    // a few ulps: 16 eps (40 + |log f|) bounds the error.
    using boost::math::lgamma;
    using boost::multiprecision::log;
    struct Law {
      double r, p;
    };
    for (const Law law : {Law{0.01, 1e-12}, Law{0.5, 1e-6}, Law{1.0, 1e-5}, Law{2.5, 1e-3}, Law{31.7, 0.2},
                          Law{1e4, 0.01}, Law{1e10, 0.5}, Law{3.0, 0.999}}) {
      const double q = 1.0 - law.p;
      const double mean = law.r * q / law.p;
      const double sd = std::sqrt(law.r * q) / law.p;
      std::vector<double> ks{0, 1, 2, 5, 17, 30, 31, 32, 33, 100};
      for (double z : {-8.0, -3.0, -1.0, -0.2, 0.0, 0.3, 1.0, 4.0, 12.0, 40.0}) {
        ks.push_back(std::max(0.0, std::floor(mean + z * sd)));
      }
      const dist::detail::NegBinomialLogPmf log_pmf(law.r, law.p);
      const Big br(law.r), bp(law.p), bq(1 - bp);
      for (const double k : ks) {
        const Big bk(k);
        const auto expected =
            Big(lgamma(bk + br) - lgamma(br) - lgamma(bk + 1) + br * log(bp) + bk * log(bq)).convert_to<double>();
        INFO("negbinomial ", law.r, ", ", law.p, " at ", k, ": ", log_pmf(k), " vs ", expected);
        CHECK(std::abs(log_pmf(k) - expected) <= 16.0 * kEps * (40.0 + std::abs(expected)));
      }
    }
  }

  TEST_CASE("samplers: negative binomial blocks - squeeze <= f/h <= ceiling and the hats cover the law") {
    // For every block (every 3rd past 1000), at its ends, its middle and
    // three more offsets: the squeeze the fast path can accept at most, the
    // exact f(k)/h' (50-digit log-gamma) and the ceiling above which the
    // cold path rejects must be in that order, and f(k)/h' <= 1. Beyond the
    // blocks, the geometric tail hats must cover f. Laws: concave with both
    // tails, concave from 0, convex (R < 1) with blocks up to 2^34 wide, and
    // a mode past 2·10^10.
    using boost::math::lgamma;
    using boost::multiprecision::exp;
    using boost::multiprecision::log;
    struct Law {
      double r, p;
    };
    for (const Law law : {Law{1e7, 0.01}, Law{30.0, 2e-5}, Law{1.0, 1e-5}, Law{0.5, 1e-6}, Law{0.01, 1e-12},
                          Law{2.0, 1e-9}, Law{1e10, 0.3}}) {
      CAPTURE(law.r);
      CAPTURE(law.p);
      const dist::NegBinomialSampler sampler({law.r, law.p});
      REQUIRE(sampler.blocks() != nullptr);
      const dist::BlockRejection& blocks = *sampler.blocks();
      const Big br(law.r), bp(law.p), bq(1 - bp);
      const Big log_norm = br * log(bp) - lgamma(br);
      auto log_f = [&](double k) { return lgamma(Big(k) + br) - lgamma(Big(k) + 1) + Big(k) * log(bq) + log_norm; };
      const std::size_t stride = blocks.blocks() > 1000 ? 3 : 1;
      std::size_t checked = 0;
      for (std::size_t j = 0; j < blocks.blocks(); j += stride) {
        const double width = std::ldexp(1.0, static_cast<int>(blocks.block_shift(j)));
        const Big height(blocks.block_height(j));
        for (double offset : {0.0, 1.0, std::floor(width / 3), std::floor(width / 2), width - 2.0, width - 1.0}) {
          if (offset < 0.0 || offset >= width) continue;
          const double k = blocks.block_start(j) + offset;
          const Big ratio = exp(log_f(k)) / height;
          INFO("block ", j, " at ", k, ": squeeze ", blocks.squeeze(j, offset), ", f/h ", ratio.convert_to<double>(),
               ", ceiling ", blocks.ceiling(j, offset));
          CHECK(Big(blocks.squeeze(j, offset)) <= ratio);
          CHECK(ratio <= Big(blocks.ceiling(j, offset)));
          CHECK(ratio <= 1);
          ++checked;
        }
      }
      CHECK(checked > 300);
      const double sd = std::sqrt(law.r * (1.0 - law.p)) / law.p;
      for (double step : {1.0, 2.0, 10.0, 1000.0, sd / 10, sd, 5 * sd}) {
        const double k = blocks.last() + std::floor(step);
        INFO("upper tail at ", k);
        CHECK(log_f(k) <= Big(blocks.log_tail_hat(true, k)));
        if (blocks.first() - std::floor(step) >= 0.0) {
          const double below = blocks.first() - std::floor(step);
          INFO("lower tail at ", below);
          CHECK(log_f(below) <= Big(blocks.log_tail_hat(false, below)));
        }
      }
    }
  }
}

TEST_SUITE("statistical") {
  TEST_CASE("samplers: task-time laws - goodness of fit by KS or chi-square on the exact law and moments") {
    // Continuous laws: KS against Boost's cdf, moments (the variance's se
    // needs a 4th moment: Pareto with ALPHA = 9), and the 1e-3 tail count.
    const LoadLaw continuous[] = {dist::Gamma{2.5, 2.0},     dist::Gamma{0.3, 1.0},  dist::Lognormal{0.0, 0.5},
                                  dist::Lognormal{1.0, 1.2}, dist::Weibull{1.5, 2.0}, dist::Weibull{0.5, 1.0},
                                  dist::Pareto{9.0, 1.0},    dist::Gamma{1e6, 1e-3}};
    std::uint64_t seed = 900;
    for (const auto& law : continuous) {
      CAPTURE(dist::to_spec(law));
      const auto xs = dist::visit_sampler(law, [&](const auto& s) { return draw(s, ++seed, 400'000); });
      check_continuous_law(xs, law);
    }
    // A heavy tail: KS only (the variance is infinite).
    const LoadLaw heavy = dist::Pareto{1.5, 2.0};
    check_ks(dist::visit_sampler(heavy, [&](const auto& s) { return draw(s, ++seed, 400'000); }), heavy);
    // Integer laws: chi-square on Boost's exact cdf, table and mixture paths.
    const LoadLaw integer[] = {dist::Geometric{0.3}, dist::Geometric{1e-4}, dist::NegBinomial{3.0, 0.4},
                               dist::NegBinomial{0.5, 1e-3}, dist::NegBinomial{1e3, 0.01},
                               dist::NegBinomial{1e4, 0.01}, dist::NegBinomial{1e6, 0.3},
                               dist::NegBinomial{1e5, 0.01}, dist::NegBinomial{0.3, 3e-5},
                               dist::NegBinomial{1e6, 0.01}, dist::NegBinomial{0.5, 1e-6}};
    for (const auto& law : integer) {
      CAPTURE(dist::to_spec(law));
      const auto xs = dist::visit_sampler(law, [&](const auto& s) { return draw(s, ++seed, 400'000); });
      check_integer_law(xs, law, exact_cdf(law));
    }
  }

  TEST_CASE("samplers: negative binomial block rejection - goodness of fit past the table") {
    // Chi-square (level 1e-4) against Boost's exact cdf over bins fixed
    // from the law alone: each value 0..63 (the head, where R < 1 puts most
    // of its mass and the blocks are single values) and the integer parts of
    // the quantiles at j/2048; the moments within 4 se. Laws: the benchmark's
    // point, concave from 0 (R = 1), convex (R = 0.3 and 0.01, blocks up to
    // 2^30 wide) and a standard deviation of 1.4e7 (blocks past 2^11). At
    // the benchmark's point, a law moved by 0.2 sd must fail the same test.
    const auto edges = head_and_quantile_edges;
    struct Law {
      double r, p;
    };
    std::uint64_t seed = 3100;
    for (const Law law : {Law{1e7, 0.01}, Law{1.0, 1e-5}, Law{0.3, 1e-7}, Law{0.01, 1e-9}, Law{2.0, 1e-7}}) {
      const LoadLaw nb = dist::NegBinomial{law.r, law.p};
      CAPTURE(dist::to_spec(nb));
      const dist::NegBinomialSampler sampler({law.r, law.p});
      REQUIRE(sampler.blocks() != nullptr);
      const auto xs = draw(sampler, ++seed, 400'000);
      CHECK(std::all_of(xs.begin(), xs.end(), [](double x) { return x == std::floor(x) && x >= 0.0; }));
      check_chi_square(xs, nb, edges(nb));
      check_moments(xs, nb);
    }
    const auto xs = draw(dist::NegBinomialSampler({1e7, 0.01}), 3200, 400'000);
    // The mean moves by (R' - R)(1 - P)/P, 0.2 sd = 0.2 sqrt(R (1 - P))/P.
    const LoadLaw moved = dist::NegBinomial{1e7 * (1.0 + 0.2 / std::sqrt(0.99e7)), 0.01};
    const ChiSquare wrong = chi_square(xs, exact_cdf(moved), edges(moved));
    // Its expected excess over the df is ~ n·0.2^2 = 16000.
    INFO("against the moved law: chi-square ", wrong.statistic, ", critical ", wrong.critical);
    CHECK(wrong.statistic > 4.0 * wrong.critical);
  }

  TEST_CASE("samplers: block rejection's geometric tails - given a share of the hat to draw from") {
    // The samplers leave 2^-40 of the hat to the tails beyond the blocks;
    // here the blocks stop where a tail's hat holds 1%, so that the tail
    // proposals (a geometric variate by inversion, the exact test) are drawn
    // often enough to be tested: the counts beyond the blocks within 4 sd
    // of their expectation, and chi-square over the whole law as above.
    struct Law {
      double r, p;
    };
    std::uint64_t seed = 3300;
    for (const Law law : {Law{1e4, 0.01}, Law{0.3, 1e-7}, Law{2.0, 1e-7}}) {
      const LoadLaw nb = dist::NegBinomial{law.r, law.p};
      CAPTURE(dist::to_spec(nb));
      dist::UnimodalLaw unimodal = dist::detail::negbinomial_unimodal(law.r, law.p);
      unimodal.tail_mass = 0.01;
      const dist::BlockRejection sampler(unimodal);
      const auto xs = draw(sampler, ++seed, 400'000);
      check_tail_count(xs, nb, sampler.last());
      const auto above = std::count_if(xs.begin(), xs.end(), [&](double x) { return x > sampler.last(); });
      CHECK(above > 400);
      if (sampler.first() > 0.0) {
        const double p_below = dist::cdf(nb, sampler.first() - 1.0);
        const auto below = static_cast<double>(
            std::count_if(xs.begin(), xs.end(), [&](double x) { return x < sampler.first(); }));
        INFO("below the blocks: ", below, ", expected ", 4e5 * p_below);
        CHECK(std::abs(below - 4e5 * p_below) <= 4.0 * std::sqrt(4e5 * p_below * (1.0 - p_below)));
        CHECK(below > 400);
      }
      check_chi_square(xs, nb, head_and_quantile_edges(nb));
    }
  }

  TEST_CASE("samplers: negative binomial block rejection - one output a draw nearly always") {
    // A property of the method (block_rejection.hpp), not a timing: at the
    // benchmark's point 99% of the buckets fix their block and the squeeze
    // accepts ~99% of the proposals, so a draw takes ~1.03 outputs.
    const std::vector<int> used = outputs_per_draw(dist::NegBinomialSampler({1e7, 0.01}), 200'000);
    const double mean = std::accumulate(used.begin(), used.end(), 0.0) / static_cast<double>(used.size());
    INFO("outputs per draw ", mean);
    CHECK(mean < 1.06);
  }

  TEST_CASE("samplers: gamma and Weibull goodness of fit on each of their paths") {
    // Gamma at K = 1 (the squeeze's smallest d), K = 0.08 and 0.01 (X^K
    // ziggurats whose power squares its tabulated one once and four times);
    // Weibull at K = 2 (the square root) and 0.1 (the largest tabulated
    // power). KS only where the fourth moment is too large for the run to
    // estimate the variance's se.
    std::uint64_t seed = 2000;
    for (const LoadLaw& law : {LoadLaw{dist::Gamma{1.0, 1.0}}, LoadLaw{dist::Gamma{0.08, 2.0}},
                               LoadLaw{dist::Weibull{2.0, 1.0}}}) {
      CAPTURE(dist::to_spec(law));
      check_continuous_law(dist::visit_sampler(law, [&](const auto& s) { return draw(s, ++seed, 400'000); }), law);
    }
    for (const LoadLaw& law : {LoadLaw{dist::Gamma{0.01, 1.0}}, LoadLaw{dist::Weibull{0.1, 1.0}}}) {
      CAPTURE(dist::to_spec(law));
      check_ks(dist::visit_sampler(law, [&](const auto& s) { return draw(s, ++seed, 400'000); }), law);
    }
  }

  TEST_CASE("samplers: gamma with K < 1 - goodness of fit against Boost's cdf") {
    // The X^K ziggurat (gamma_ziggurat.hpp) from K near 1 (the exponential's
    // shape) to K = 1e-3 (nearly a box; FixedPower's slow path, a = 1000):
    // KS at level 1e-3 against Boost's gamma cdf, the moments within 4 se,
    // and the count beyond the 1e-3 upper quantile. At K = 1e-3 the values
    // below 2^-1074 (the law's mass there is 0.47) underflow to 0: their
    // count within 4 sd, and KS over the others (the zeros hold the first
    // places of the sorted sample, the cdf below 2^-1074).
    std::uint64_t seed = 4100;
    for (const double k : {0.999, 0.7, 0.3, 0.05, 0.02}) {
      const LoadLaw law = dist::Gamma{k, 1.5};
      CAPTURE(dist::to_spec(law));
      check_continuous_law(dist::visit_sampler(law, [&](const auto& s) { return draw(s, ++seed, 400'000); }), law);
    }
    const double k = 1e-3;
    std::vector<double> xs = draw(dist::GammaSampler({k, 1.0}), ++seed, 400'000);
    std::sort(xs.begin(), xs.end());
    const auto n = static_cast<double>(xs.size());
    const auto zeros = static_cast<double>(std::count(xs.begin(), xs.end(), 0.0));
    const double below = boost::math::gamma_p(k, 0x1p-1074);
    INFO("zeros ", zeros, ", expected ", n * below);
    CHECK(std::abs(zeros - n * below) <= 4.0 * std::sqrt(n * below * (1.0 - below)));
    double d = 0.0;
    for (std::size_t i = static_cast<std::size_t>(zeros); i < xs.size(); ++i) {
      const double f = boost::math::gamma_p(k, xs[i]);
      d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
    }
    const double statistic = d * (std::sqrt(n) + 0.12 + 0.11 / std::sqrt(n));
    INFO("K = 1e-3: KS over the values above 0, scaled ", statistic);
    CHECK(statistic <= std::sqrt(-0.5 * std::log(1e-3 / 2.0)));
  }

  TEST_CASE("samplers: gamma X^K ziggurat layers and tail by chi-square over 2^24 draws") {
    // Bins at the layer edges (THETA·x_i^a) and beyond the tail's start x0
    // at x0 + 0.5, + 1, + 2, + 3: a wrong layer, wedge or tail shows up in
    // its own bins. The tail alone (X > x0, 3.4e-5 at K = 0.3: ~570 draws)
    // within 4 sd. A law with K 1% larger fails the same test twice over.
    for (const double k : {0.3, 0.999}) {
      CAPTURE(k);
      const dist::GammaSampler sampler({k, 1.0});
      const dist::GammaPowerTable table = dist::gamma_power_table(1.0 / k);
      const LoadLaw law = dist::Gamma{k, 1.0};
      const auto xs = draw(sampler, 4200, std::size_t{1} << 24);
      std::vector<double> edges;
      for (std::size_t i = 1; i < table.layers.kLayers; ++i) edges.push_back(std::pow(table.layers.x[i], table.exponent));
      const double x0 = table.tail_start;
      for (double e : {x0 + 0.5, x0 + 1.0, x0 + 2.0, x0 + 3.0}) edges.push_back(e);
      check_chi_square(xs, law, edges);
      check_tail_count(xs, law, x0);
      check_tail_count(xs, law, x0 + 2.0);
      const LoadLaw moved = dist::Gamma{1.01 * k, 1.0};
      const ChiSquare wrong = chi_square(xs, exact_cdf(moved), edges);
      INFO("against K 1% larger: chi-square ", wrong.statistic, ", critical ", wrong.critical);
      CHECK(wrong.statistic > 2.0 * wrong.critical);
    }
  }

  TEST_CASE("samplers: gamma with K < 1 - one output a draw nearly always") {
    // A property of the method (gamma_ziggurat.hpp), not a timing: 0.32% of
    // the draws at K = 0.3 leave the fast path (0.11% at K = 0.01), where
    // the boost Gamma(K + 1)·U^(1/K) took about 3.1 outputs a draw.
    for (const double k : {0.3, 0.01}) {
      CAPTURE(k);
      const std::vector<int> used = outputs_per_draw(dist::GammaSampler({k, 1.0}), 200'000);
      const double mean = std::accumulate(used.begin(), used.end(), 0.0) / static_cast<double>(used.size());
      INFO("outputs per draw ", mean);
      CHECK(mean < 1.01);
    }
  }

  TEST_CASE("samplers: a wrong task-time law is detected") {
    // Gamma draws tested against a gamma of 2% larger scale fail.
    const auto xs = draw(dist::GammaSampler({2.5, 2.0}), 77, 400'000);
    const double m = std::accumulate(xs.begin(), xs.end(), 0.0) / static_cast<double>(xs.size());
    CHECK(std::abs(m - dist::mean(dist::Gamma{2.5, 2.04})) > 8.0 * std::sqrt(dist::variance(dist::Gamma{2.5, 2.0}) / 4e5));
  }
}

}  // namespace samplers_test
