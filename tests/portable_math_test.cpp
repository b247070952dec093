// Tests of our own exp, log and fixed powers (portable_exp_log.hpp,
// fixed_power.hpp): every value against its 50-digit counterpart
// (Boost.Multiprecision), at the error bounds the design notes prove, on
// random arguments over the whole range and on the places where a table
// method goes wrong first (cell edges, binade edges, the neighbourhood of
// log's zero, the edges of exp's range), and the special values.
#include <doctest/doctest.h>

#include <bit>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "lbmc/dist/fixed_power.hpp"
#include "lbmc/dist/portable_exp_log.hpp"
#include "lbmc/engine/rng.hpp"

namespace portable_math_test {

namespace {

using namespace lbmc;
using Big = boost::multiprecision::cpp_bin_float_50;

constexpr double kUnit = 0x1p-53;  // the unit roundoff
constexpr double kInf = std::numeric_limits<double>::infinity();

// A double with a uniform mantissa and a uniform exponent in [lo, hi].
double random_double(engine::Generator& gen, int lo, int hi) {
  const double mantissa = 1.0 + engine::uniform01(gen);
  const auto span = static_cast<std::uint64_t>(hi - lo + 1);
  return std::ldexp(mantissa, lo + static_cast<int>(gen() % span));
}

// The largest |computed - exact|/bound over xs, exact and bound in 50 digits.
template <class Computed, class Exact, class Bound>
double worst_ratio(const std::vector<double>& xs, Computed computed, Exact exact, Bound bound) {
  double worst = 0.0;
  for (const double x : xs) {
    const Big e = exact(x);
    const double ratio = Big(boost::multiprecision::abs(Big(computed(x)) - e) / bound(e)).convert_to<double>();
    if (!(ratio <= worst)) {
      worst = ratio;
      INFO("x = ", x, " (", std::bit_cast<std::uint64_t>(x), "): error / bound = ", ratio);
      CHECK(ratio <= 1.0);
    }
  }
  return worst;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("portable log: within 2^-53 |log x| + 2^-59 of the 50-digit value") {
    const dist::ExpLogTables& t = dist::exp_log_tables();
    engine::Generator gen = engine::block_generator(41, 0);
    std::vector<double> xs;
    for (int i = 0; i < 20'000; ++i) xs.push_back(random_double(gen, -1022, 1023));
    for (int i = 0; i < 5'000; ++i) xs.push_back(random_double(gen, -8, 1));  // the binades near 1
    for (int k = -2000; k <= 2000; ++k) xs.push_back(1.0 + k * 0x1p-52);      // log's zero
    for (int k = 1; k <= 20; ++k) xs.push_back(std::nextafter(1.0, 0.0) - k * 0x1p-53);
    // Both ends of every cell, in three binades of x.
    for (std::uint64_t i = 0; i < dist::ExpLogTables::kCells; ++i) {
      const std::uint64_t first = dist::ExpLogTables::kLogOffset + (i << 45);
      for (const std::uint64_t bits : {first, first + (std::uint64_t{1} << 45) - 1}) {
        for (const double scale : {1.0, 0x1p-600, 0x1p500}) xs.push_back(std::bit_cast<double>(bits) * scale);
      }
    }
    for (const double x : {0x1p-1074, 0x1.8p-1060, 0x1p-1023, 0x1p-1022, std::numeric_limits<double>::max()}) {
      xs.push_back(x);
    }
    const double worst = worst_ratio(
        xs, [&](double x) { return dist::portable_log(t, x); },
        [](double x) { return Big(log(Big(x))); },
        [](const Big& e) { return Big(kUnit * boost::multiprecision::abs(e) + Big(0x1p-59)); });
    MESSAGE("largest error / bound: ", worst);
    CHECK(dist::portable_log(t, 1.0) == 0.0);
    CHECK(dist::portable_log(t, 0.0) == -kInf);
    CHECK(dist::portable_log(t, kInf) == kInf);
    CHECK(std::isnan(dist::portable_log(t, -1.0)));
    CHECK(std::isnan(dist::portable_log(t, std::nan(""))));
  }

  TEST_CASE("portable exp: within 1.03·2^-53 relative of the 50-digit value") {
    const dist::ExpLogTables& t = dist::exp_log_tables();
    engine::Generator gen = engine::block_generator(42, 0);
    std::vector<double> ys;
    for (int i = 0; i < 20'000; ++i) ys.push_back(1416.0 * engine::uniform01(gen) - 708.0);
    for (int i = 0; i < 2'000; ++i) ys.push_back((engine::uniform01(gen) - 0.5) * random_double(gen, -60, 0));
    // The edges of the reduction's cells, y = (n + 1/2)·ln2/128, and of the
    // fast range and past it (results still normal up to 709.78).
    for (int n = -300; n <= 300; ++n) {
      const double edge = (n + 0.5) * 0.693147180559945309417 / 128.0;
      for (const double y : {std::nextafter(edge, -kInf), edge, std::nextafter(edge, kInf)}) ys.push_back(y);
    }
    for (const double y : {707.99, 708.0, 709.0, 709.78, -707.99, -708.0, -708.39}) ys.push_back(y);
    const double worst = worst_ratio(
        ys, [&](double y) { return dist::portable_exp(t, y); },
        [](double y) { return Big(exp(Big(y))); }, [](const Big& e) { return Big(1.03 * kUnit * e); });
    MESSAGE("largest error / bound: ", worst);
    // Subnormal results: rounded twice, so within the bound plus half of
    // the subnormal spacing 2^-1074.
    std::vector<double> deep;
    for (int i = 0; i < 2'000; ++i) deep.push_back(-708.4 - 36.7 * engine::uniform01(gen));
    worst_ratio(
        deep, [&](double y) { return dist::portable_exp(t, y); }, [](double y) { return Big(exp(Big(y))); },
        [](const Big& e) { return Big(1.03 * kUnit * e + Big(0x1p-1074) / 2); });
    CHECK(dist::portable_exp(t, 0.0) == 1.0);
    CHECK(dist::portable_exp(t, 709.79) == kInf);
    CHECK(dist::portable_exp(t, 1e300) == kInf);
    CHECK(dist::portable_exp(t, kInf) == kInf);
    CHECK(dist::portable_exp(t, -746.0) == 0.0);
    CHECK(dist::portable_exp(t, -kInf) == 0.0);
    CHECK(dist::portable_exp(t, -745.0) > 0.0);  // 2^-1074.5 and up round to the least subnormal
    CHECK(std::isnan(dist::portable_exp(t, std::nan(""))));
  }

  TEST_CASE("fixed power: scale·x^a within its stated relative error of the 50-digit value") {
    engine::Generator gen = engine::block_generator(43, 0);
    // Arguments: the Weibull sampler's E, the gamma boost's uniform, every
    // tabulated binade, the cells' edges, and beyond the tables.
    std::vector<double> xs;
    for (int i = 0; i < 1'500; ++i) xs.push_back(random_double(gen, -64, 63));
    for (int i = 0; i < 500; ++i) xs.push_back(engine::uniform_open01(gen));
    for (std::uint64_t cell = 0; cell <= 128; ++cell) {
      const double edge = 1.0 + static_cast<double>(cell) / 128.0;
      xs.push_back(edge);
      xs.push_back(std::nextafter(edge, 0.0) * 0x1p-20);
    }
    const std::vector<double> beyond{0x1p-70, 0x1.3p-1030, 0x1p64, 0x1.8p300};
    struct Case {
      double a, scale, bound;  // bound: in units of 2^-53, relative
    };
    // 5.2 with the scale in the tables (a <= 10); 2^j·6.2 after j squarings.
    const Case cases[] = {{1.0 / 1.5, 2.0, 5.2},  {1.0 / 0.3, 1.0, 5.2}, {0.5, 1.0, 5.2},        {10.0, 1.0, 5.2},
                          {1.0 / 7.0, 1e-3, 5.2}, {0.001, 3.0, 5.2},     {1.0 / 0.05, 0.7, 12.4}, {100.0, 1.0, 99.2},
                          {2.0, 0x1p-900, 5.2}};
    for (const Case& c : cases) {
      CAPTURE(c.a);
      CAPTURE(c.scale);
      const dist::FixedPower power(c.a, c.scale);
      auto exact = [&](double x) { return Big(Big(c.scale) * pow(Big(x), Big(c.a))); };
      const double min_normal = std::numeric_limits<double>::min();
      std::vector<double> normal_results;
      for (const double x : xs) {
        const Big e = exact(x);
        if (e > Big(min_normal) && e < Big(std::numeric_limits<double>::max())) normal_results.push_back(x);
      }
      worst_ratio(
          normal_results, [&](double x) { return power(x); }, exact,
          [&](const Big& e) { return Big(c.bound * kUnit * e); });
      // Beyond the tables: exp(a·log x), error (2a|log x| + a + 4)·2^-53.
      for (const double x : beyond) {
        const Big e = exact(x);
        if (!(e > Big(min_normal) && e < Big(std::numeric_limits<double>::max()))) continue;
        const double allowed = (2.0 * c.a * std::abs(std::log(x)) + c.a + 4.0) * kUnit;
        const Big error = boost::multiprecision::abs(Big(power(x)) - e) / e;
        INFO("beyond the tables: x = ", x, ", relative error ", error.convert_to<double>());
        CHECK(error <= Big(allowed));
      }
    }
    // Underflow and overflow are those of the exact value.
    CHECK(dist::FixedPower(100.0, 1.0)(0x1p-20) == 0.0);
    CHECK(dist::FixedPower(0.5, 1.0)(0.0) == 0.0);
    CHECK(dist::FixedPower(3.0, 1.0)(0x1p400) == kInf);
  }
}

}  // namespace portable_math_test
