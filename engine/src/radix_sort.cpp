// The parallel, thread-count-independent radix sort of doubles
// (radix_sort.hpp): one most-significant-digit pass, then each bucket sorted
// by radix_sort_serial while it sits in the core's cache.
#include "lbmc/engine/radix_sort.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <omp.h>

namespace lbmc::engine {
namespace {

using Digits = RadixDigits<8, 0, 8>;

struct OrderedKey {
  std::uint64_t operator()(double x) const { return ordered_bits(x); }
};

// Below this many values std::sort is as fast, and a thread gets no share
// smaller than it.
constexpr std::size_t kShortArray = std::size_t{1} << 14;
// The first pass's digit: 12 bits, 4096 buckets.
constexpr int kTopBits = 12;
constexpr std::size_t kTopBuckets = std::size_t{1} << kTopBits;
// Buckets of fewer values are sorted by std::sort: a radix sort's tables
// (2 · 8 · 256 counts) would outweigh them.
constexpr std::size_t kSmallBucket = 256;

// The bits in which some value's key differs from the first value's.
std::uint64_t varying_bits(const ScratchVector<double>& values, int threads) {
  const std::uint64_t first = ordered_bits(values.front());
  std::uint64_t varying = 0;
  const auto n = static_cast<std::int64_t>(values.size());
#pragma omp parallel for num_threads(threads) schedule(static) reduction(| : varying)
  for (std::int64_t i = 0; i < n; ++i) varying |= ordered_bits(values[static_cast<std::size_t>(i)]) ^ first;
  return varying;
}

// The sort on `threads` threads, counts in Count (which must hold n).
//  1. The top digit: the kTopBits bits ending at the highest bit in which
//     the keys differ. Each thread counts the digits of a contiguous share;
//     the places are given digit by digit, thread by thread (the stable
//     order), and each thread moves its share into `other`.
//  2. Each bucket (one top digit) of `other` is sorted by every digit, with
//     the same bucket of `values` as its scratch, by radix_sort_serial
//     (which skips the digits its values share) or, when small, std::sort.
//     A bucket of concentrated data (maxima spread over a few binades) holds
//     about n/1000 values: its passes run in L2 instead of memory.
// A sort by key is unique (ordered_bits is one-to-one), so the result does
// not depend on the threads or on how the buckets were shared.
template <class Count>
void sort_on_threads(ScratchVector<double>& values, int threads) {
  const std::size_t n = values.size();
  const auto share = static_cast<std::size_t>(threads);
  const std::uint64_t varying = varying_bits(values, threads);
  if (varying == 0) return;  // every key equal
  const int top_bit = 63 - std::countl_zero(varying);
  const int shift = std::max(0, top_bit + 1 - kTopBits);
  const auto top_digit = [shift](double x) {
    return static_cast<std::size_t>(ordered_bits(x) >> shift) & (kTopBuckets - 1);
  };
  ScratchVector<double> other(n);  // not zeroed: the first pass writes every element
  // counts[t·kTopBuckets + d]: how many of thread t's share have digit d,
  // then where the first of them goes; starts[d]: where bucket d begins.
  std::vector<Count> counts(share * kTopBuckets);
  std::vector<std::size_t> starts(kTopBuckets + 1);
#pragma omp parallel num_threads(threads)
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t begin = n * t / share;
    const std::size_t end = n * (t + 1) / share;
    Count* mine = counts.data() + t * kTopBuckets;
    std::fill(mine, mine + kTopBuckets, Count{0});
    for (std::size_t i = begin; i < end; ++i) ++mine[top_digit(values[i])];
#pragma omp barrier
#pragma omp single
    {
      Count place = 0;
      for (std::size_t d = 0; d < kTopBuckets; ++d) {
        starts[d] = place;
        for (std::size_t u = 0; u < share; ++u) {
          const Count here = counts[u * kTopBuckets + d];
          counts[u * kTopBuckets + d] = place;
          place += here;
        }
      }
      starts[kTopBuckets] = place;
    }
    for (std::size_t i = begin; i < end; ++i) other[mine[top_digit(values[i])]++] = values[i];
#pragma omp barrier
    std::vector<Count> table;  // radix_sort_serial's counts, reused bucket after bucket
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t d = 0; d < static_cast<std::int64_t>(kTopBuckets); ++d) {
      const std::size_t first = starts[static_cast<std::size_t>(d)];
      const std::size_t size = starts[static_cast<std::size_t>(d) + 1] - first;
      if (size < kSmallBucket) {
        std::sort(other.begin() + static_cast<std::ptrdiff_t>(first),
                  other.begin() + static_cast<std::ptrdiff_t>(first + size),
                  [](double a, double b) { return ordered_bits(a) < ordered_bits(b); });
      } else {
        radix_sort_serial<Digits>(other.data() + first, values.data() + first, size, OrderedKey{}, table);
      }
    }
  }
  values.swap(other);
}

}  // namespace

void radix_sort(ScratchVector<double>& values) {
  const std::size_t n = values.size();
  if (n < kShortArray) {
    std::sort(values.begin(), values.end());
    return;
  }
  const int threads =
      static_cast<int>(std::clamp<std::size_t>(n / kShortArray, 1, static_cast<std::size_t>(omp_get_max_threads())));
  if (n <= std::numeric_limits<std::uint32_t>::max()) {
    sort_on_threads<std::uint32_t>(values, threads);
  } else {
    sort_on_threads<std::size_t>(values, threads);
  }
}

}  // namespace lbmc::engine
