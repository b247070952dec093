// The radix sorts (radix_sort.hpp): the parallel sort of doubles gives the
// order of std::sort, the same bits for any thread count, every pass (taken
// or skipped), small and large buckets of its top digit, and both zeros; the serial sort of keyed values gives the
// order of std::stable_sort by the digits it reads, with repeated sorts
// reusing its counts.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <omp.h>

#include "lbmc/engine/radix_sort.hpp"
#include "lbmc/engine/rng.hpp"

namespace radix_sort_test {

using lbmc::engine::ScratchVector;

namespace {

// Values of several shapes: each exercises other passes of the sort.
ScratchVector<double> sample(int kind, std::size_t n) {
  auto gen = lbmc::engine::block_generator(11, static_cast<std::uint64_t>(kind));
  ScratchVector<double> values(n);
  const double inf = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    const double u = lbmc::engine::uniform01(gen);
    switch (kind) {
      case 0:  // both signs, wide range, ties
        values[i] = i % 5 == 0 ? std::floor(8.0 * u) - 4.0 : std::ldexp(u - 0.5, static_cast<int>(i % 200) - 100);
        break;
      case 1:  // small integers: the low passes are skipped
        values[i] = std::floor(1000.0 * u);
        break;
      case 2:  // one binade: the top pass is skipped
        values[i] = 1.0 + u;
        break;
      case 3:  // concentrated, as maxima are: many small buckets of the top digit
        values[i] = 4.3 + 0.3 * (u - 0.5);
        break;
      case 4:  // three top digits, each a large bucket sorted by its low digits
        values[i] = 1.0 + std::ldexp(static_cast<double>(i % 3), -20) + std::ldexp(u, -45);
        break;
      default:  // zeros of both signs, infinities, subnormals among the rest
        values[i] = i % 7 == 0   ? 0.0
                    : i % 7 == 1 ? -0.0
                    : i % 97 == 0 ? (u < 0.5 ? inf : -inf)
                    : i % 7 == 2 ? std::numeric_limits<double>::denorm_min() * (1.0 + 1000.0 * u)
                                 : u - 0.5;
        break;
    }
  }
  return values;
}

std::vector<std::uint64_t> bits(const ScratchVector<double>& values) {
  std::vector<std::uint64_t> out;
  out.reserve(values.size());
  for (double x : values) out.push_back(std::bit_cast<std::uint64_t>(x));
  return out;
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("radix sort: the order of std::sort - the same bits on 1 to 4 threads") {
    const int threads_before = omp_get_max_threads();
    for (int kind = 0; kind < 6; ++kind) {
      for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{40000}, std::size_t{300001}}) {
        CAPTURE(kind);
        CAPTURE(n);
        const ScratchVector<double> input = sample(kind, n);
        ScratchVector<double> expected = input;
        std::sort(expected.begin(), expected.end());
        std::vector<std::uint64_t> first;
        for (int threads = 1; threads <= 4; ++threads) {
          CAPTURE(threads);
          omp_set_num_threads(threads);
          ScratchVector<double> sorted = input;
          lbmc::engine::radix_sort(sorted);
          // Equal as numbers to std::sort's result (which may order the two
          // zeros either way) ...
          REQUIRE(sorted.size() == expected.size());
          CHECK(std::equal(sorted.begin(), sorted.end(), expected.begin()));
          // ... the same multiset of bit patterns ...
          std::vector<std::uint64_t> in_bits = bits(input), out_bits = bits(sorted);
          std::sort(in_bits.begin(), in_bits.end());
          std::vector<std::uint64_t> sorted_bits = out_bits;
          std::sort(sorted_bits.begin(), sorted_bits.end());
          CHECK(in_bits == sorted_bits);
          // ... and the same bits for every thread count.
          if (threads == 1) first = out_bits;
          CHECK(out_bits == first);
        }
      }
    }
    omp_set_num_threads(threads_before);
  }

  TEST_CASE("radix sort: -0 before +0 past the short-array cut") {
    ScratchVector<double> values(50000);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = i % 2 == 0 ? 0.0 : -0.0;
    lbmc::engine::radix_sort(values);
    CHECK(std::signbit(values[24999]));
    CHECK_FALSE(std::signbit(values[25000]));
  }

  TEST_CASE("radix sort: the serial sort is std::stable_sort by the digits it reads") {
    auto gen = lbmc::engine::block_generator(13, 0);
    using Words = lbmc::engine::RadixDigits<10, 34, 3>;  // the top 30 bits
    using Low = lbmc::engine::RadixDigits<10, 0, 4>;     // bits 0 to 39
    const auto identity = [](std::uint64_t w) { return w; };
    std::vector<std::uint32_t> counts;
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{70000}}) {
      for (int shape = 0; shape < 3; ++shape) {
        CAPTURE(n);
        CAPTURE(shape);
        // Words with few distinct top bits (long runs of equal keys), with
        // constant middle bits (a skipped pass), or spread everywhere.
        std::vector<std::uint64_t> words(n);
        for (std::uint64_t& w : words) {
          const std::uint64_t r = gen();
          w = shape == 0 ? (r & 0xFFFF'FFFFu) | ((r % 5) << 60) : shape == 1 ? r & ~(std::uint64_t{0x3FF} << 44) : r;
        }
        std::vector<std::uint64_t> scratch(n);
        for (const bool low : {false, true}) {
          CAPTURE(low);
          std::vector<std::uint64_t> want = words;
          std::vector<std::uint64_t> got = words;
          if (low) {
            std::stable_sort(want.begin(), want.end(), [](std::uint64_t a, std::uint64_t b) {
              return (a & 0xFF'FFFF'FFFFu) < (b & 0xFF'FFFF'FFFFu);
            });
            lbmc::engine::radix_sort_serial<Low>(got.data(), scratch.data(), n, identity, counts);
          } else {
            std::stable_sort(want.begin(), want.end(),
                             [](std::uint64_t a, std::uint64_t b) { return (a >> 34) < (b >> 34); });
            lbmc::engine::radix_sort_serial<Words>(got.data(), scratch.data(), n, identity, counts);
          }
          CHECK(got == want);
        }
      }
    }
    // Keyed values that are not the key: equal keys keep their order.
    std::vector<std::pair<double, int>> keyed;
    for (int i = 0; i < 30000; ++i) keyed.push_back({static_cast<double>((i * 7919) % 97) - 48.0, i});
    std::vector<std::pair<double, int>> want = keyed;
    std::stable_sort(want.begin(), want.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<double, int>> scratch(keyed.size());
    std::vector<std::size_t> wide_counts;
    lbmc::engine::radix_sort_serial<lbmc::engine::RadixDigits<8, 0, 8>>(
        keyed.data(), scratch.data(), keyed.size(), [](const auto& v) { return lbmc::engine::ordered_bits(v.first); },
        wide_counts);
    CHECK(keyed == want);
  }
}

}  // namespace radix_sort_test
