// Moments: Welford updates and Chan/Pébay merges against two-pass values.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "lbmc/engine/moments.hpp"
#include "lbmc/engine/rng.hpp"

namespace moments_test {

using lbmc::engine::Moments;

namespace {

struct TwoPass {
  double mean, variance, m4;
};

TwoPass two_pass(const std::vector<double>& x) {
  double sum = 0;
  for (double v : x) sum += v;
  const double mean = sum / static_cast<double>(x.size());
  double s2 = 0, s4 = 0;
  for (double v : x) {
    s2 += (v - mean) * (v - mean);
    s4 += std::pow(v - mean, 4);
  }
  return {mean, s2 / static_cast<double>(x.size() - 1), s4 / static_cast<double>(x.size())};
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("moments: small exact case") {
    Moments m;
    for (double x : {1.0, 2.0, 3.0, 4.0}) m.add(x);
    CHECK(m.count() == 4);
    CHECK(m.mean() == doctest::Approx(2.5).epsilon(1e-15));
    CHECK(m.variance() == doctest::Approx(5.0 / 3.0).epsilon(1e-15));
    CHECK(m.mean_se() == doctest::Approx(std::sqrt(5.0 / 12.0)).epsilon(1e-15));
  }

  TEST_CASE("moments: merging blocks equals one stream and two-pass values") {
    auto gen = lbmc::engine::block_generator(7, 0);
    std::vector<double> x;
    for (int i = 0; i < 10000; ++i) x.push_back(1e6 + std::pow(lbmc::engine::uniform01(gen), 3.0));
    Moments whole;
    for (double v : x) whole.add(v);
    Moments merged;
    for (std::size_t start = 0; start < x.size(); start += 777) {
      Moments block;
      for (std::size_t i = start; i < std::min(x.size(), start + 777); ++i) block.add(x[i]);
      merged.merge(block);
    }
    const TwoPass ref = two_pass(x);
    CHECK(merged.count() == whole.count());
    CHECK(merged.mean() == doctest::Approx(ref.mean).epsilon(1e-14));
    CHECK(merged.variance() == doctest::Approx(ref.variance).epsilon(1e-9));
    CHECK(whole.variance() == doctest::Approx(ref.variance).epsilon(1e-9));
    // se of s² from the fourth central moment: √((m4 − s⁴(R−3)/(R−1))/R).
    const double r = static_cast<double>(x.size());
    const double se_ref = std::sqrt((ref.m4 - ref.variance * ref.variance * (r - 3) / (r - 1)) / r);
    CHECK(merged.variance_se() == doctest::Approx(se_ref).epsilon(1e-7));
    CHECK(whole.variance_se() == doctest::Approx(se_ref).epsilon(1e-7));
  }

  TEST_CASE("moments: a batch by two passes agrees with a long double reference") {
    auto gen = lbmc::engine::block_generator(11, 0);
    // A large offset and a skewed spread: the case where sums of powers lose
    // digits unless taken about the mean.
    std::vector<double> x;
    for (int i = 0; i < 4099; ++i) x.push_back(1e6 + std::pow(lbmc::engine::uniform01(gen), 3.0));
    long double sum = 0;
    for (double v : x) sum += v;
    const long double n = static_cast<long double>(x.size());
    const long double mean = sum / n;
    long double s2 = 0, s4 = 0;
    for (double v : x) {
      const long double d = static_cast<long double>(v) - mean;
      s2 += d * d;
      s4 += d * d * d * d;
    }
    const double variance = static_cast<double>(s2 / (n - 1));
    const double m4 = static_cast<double>(s4 / n);
    const Moments batch = Moments::of(x);
    CHECK(batch.count() == 4099);
    CHECK(batch.mean() == doctest::Approx(static_cast<double>(mean)).epsilon(1e-15));
    CHECK(batch.variance() == doctest::Approx(variance).epsilon(1e-12));
    const double r = static_cast<double>(x.size());
    const double se_ref = std::sqrt((m4 - variance * variance * (r - 3) / (r - 1)) / r);
    CHECK(batch.variance_se() == doctest::Approx(se_ref).epsilon(1e-10));
    Moments online;
    for (double v : x) online.add(v);
    CHECK(online.variance() == doctest::Approx(variance).epsilon(1e-9));
    CHECK(Moments::of({}).count() == 0);
  }

  TEST_CASE("moments: merging with an empty accumulator is the identity") {
    Moments a, empty;
    a.add(3.0);
    a.add(5.0);
    Moments b = a;
    b.merge(empty);
    CHECK(b.mean() == a.mean());
    CHECK(b.variance() == a.variance());
    empty.merge(a);
    CHECK(empty.mean() == a.mean());
    CHECK(empty.count() == 2);
  }
}

}  // namespace moments_test
