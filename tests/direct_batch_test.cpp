// The vectorised loops of direct maxima: the logarithm to the ulp, the
// exponential and normal tail quantiles against long-double references, the
// NaN left for the scalar path, and fill() against one draw at a time.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <boost/math/special_functions/erf.hpp>

#include "lbmc/engine/rng.hpp"
#include "maxload/direct_batch.hpp"
#include "maxload/direct_max.hpp"

namespace direct_batch_test {

using namespace lbmc;

namespace {

// |got − ref| in units of the last place of ref.
double ulps(double got, long double ref) {
  const double r = static_cast<double>(ref);
  const double ulp = std::nextafter(std::abs(r), std::numeric_limits<double>::infinity()) - std::abs(r);
  return static_cast<double>(std::abs(static_cast<long double>(got) - ref)) / ulp;
}

// The upper normal quantile at q = −expm1(−x) in long double.
long double normal_upper_reference(long double x) {
  const long double q = -std::expm1(-x);
  return boost::math::constants::root_two<long double>() * boost::math::erfc_inv(2.0L * q);
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("direct batch: log_of_normal within one ulp of the logarithm over the whole range") {
    auto gen = engine::block_generator(11, 0);
    double worst = 0.0;
    for (int i = 0; i < 1'000'000; ++i) {
      // Random bits with the exponent field drawn over every normal exponent.
      const std::uint64_t exponent = 1 + gen() % 2046;
      const std::uint64_t bits = (exponent << 52) | (gen() >> 12);
      const double x = std::bit_cast<double>(bits);
      worst = std::max(worst, ulps(exp::log_of_normal(x), std::log(static_cast<long double>(x))));
    }
    for (const double x : {1.0, std::nextafter(1.0, 0.0), std::nextafter(1.0, 2.0), std::sqrt(2.0), std::sqrt(0.5),
                           2.0, 0.5, 0x1p-1022, std::numeric_limits<double>::max(), 1e-3, 6.1e-5}) {
      CAPTURE(x);
      if (x == 1.0) {
        CHECK(exp::log_of_normal(x) == 0.0);
      } else {
        worst = std::max(worst, ulps(exp::log_of_normal(x), std::log(static_cast<long double>(x))));
      }
    }
    MESSAGE("log_of_normal: worst error " << worst << " ulp");
    CHECK(worst <= 1.0);
  }

  TEST_CASE("direct batch: exponential and normal tail quantiles against long-double references") {
    // x from 1e-300 to just below the series limit 1e-3, and the domain edges.
    std::vector<double> x;
    for (double v = 1e-300; v < 1e-3; v *= 1.0123) x.push_back(v);
    x.push_back(std::nextafter(1e-3, 0.0));
    const double per_n = 1.0 / 65536.0;
    std::vector<double> e(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) e[i] = x[i] / per_n;  // exact: a power of two
    std::vector<double> exponential(x.size()), normal(x.size());
    exp::exponential_max_batch(e.data(), exponential.data(), e.size(), per_n, 2.0);
    exp::normal_max_batch(e.data(), normal.data(), e.size(), per_n, 1.0, 3.0);
    double worst_exponential = 0.0, worst_normal = 0.0;
    std::size_t normal_defined = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      CAPTURE(x[i]);
      const long double xl = x[i];
      const long double log_q = std::log(-std::expm1(-xl));
      worst_exponential = std::max(worst_exponential, ulps(exponential[i], -2.0L * log_q));
      if (-log_q <= 25.0L) {
        ++normal_defined;
        REQUIRE(!std::isnan(normal[i]));
        worst_normal = std::max(worst_normal, ulps(normal[i], 1.0L + 3.0L * normal_upper_reference(xl)));
      } else {
        CHECK(std::isnan(normal[i]));  // q < e^-25: left to the scalar path
      }
    }
    MESSAGE("exponential: worst " << worst_exponential << " ulp; normal (AS 241): worst " << worst_normal
                                  << " ulp over " << normal_defined << " points");
    CHECK(normal_defined > 100);
    CHECK(worst_exponential <= 2.0);
    CHECK(worst_normal <= 8.0);
  }

  TEST_CASE("direct batch: NaN outside the domain - for the scalar path to fill") {
    const double per_n = 0.5;
    const std::vector<double> e = {0.0, 0x1p-1030, 1.9e-3, 1.0, 1e-4};  // x = e/2
    std::vector<double> out(e.size());
    exp::exponential_max_batch(e.data(), out.data(), e.size(), per_n, 1.0);
    CHECK(std::isnan(out[0]));  // zero
    CHECK(std::isnan(out[1]));  // subnormal
    CHECK(!std::isnan(out[2]));
    CHECK(std::isnan(out[3]));  // x = 0.5 >= 1e-3
    CHECK(!std::isnan(out[4]));
  }

  TEST_CASE("direct batch: fill() equals one draw at a time - to the last bits") {
    for (const std::int64_t n : {2, 500, 65536}) {
      for (const dist::LoadLaw& law : {dist::LoadLaw{dist::Normal{1, 2}}, dist::LoadLaw{dist::Exponential{3}},
                                       dist::LoadLaw{dist::Uniform{0, 1}}, dist::LoadLaw{dist::Poisson{4}}}) {
        CAPTURE(n);
        CAPTURE(dist::to_spec(law));
        const exp::DirectMaxSampler sampler(law, n);
        auto one_gen = engine::block_generator(5, 1);
        auto batch_gen = one_gen;
        std::vector<double> batch(3000);  // more than one internal chunk
        sampler.fill(batch_gen, batch);
        double worst = 0.0;
        for (const double z : batch) {
          const double one = sampler(one_gen);
          worst = std::max(worst, std::abs(z - one) / std::max(1.0, std::abs(one)));
        }
        CHECK(worst <= 1e-14);
        CHECK(batch_gen() == one_gen());  // the same outputs consumed
      }
    }
  }
}

}  // namespace direct_batch_test
