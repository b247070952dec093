// The parallel, thread-count-independent radix sort of doubles
// (radix_sort.hpp), on the passes shared with radix_sort_serial.
#include "lbmc/engine/radix_sort.hpp"

#include <algorithm>
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
template <class Count>
void sort_on_threads(ScratchVector<double>& values, int threads) {
  const std::size_t n = values.size();
  const auto share = static_cast<std::size_t>(threads);
  const std::uint64_t varying = varying_bits(values, threads);
  ScratchVector<double> other(n);  // not zeroed: the first pass taken writes it, on every thread
  // counts[t·kBuckets + d]: how many of thread t's share have digit d, then
  // where the first of them goes.
  std::vector<Count> counts(share * Digits::kBuckets);
  double* from = values.data();
  double* to = other.data();
#pragma omp parallel num_threads(threads)
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t begin = n * t / share;
    const std::size_t end = n * (t + 1) / share;
    Count* mine = counts.data() + t * Digits::kBuckets;
    for (int pass = 0; pass < Digits::kPassCount; ++pass) {
      if (Digits::digit(varying, pass) == 0) continue;  // the same digit everywhere
      radix_detail::count_pass<Digits>(from, begin, end, OrderedKey{}, pass, mine);
#pragma omp barrier
#pragma omp single
      {
        // Digit by digit, thread by thread: the stable order of the pass.
        Count place = 0;
        for (std::size_t d = 0; d < Digits::kBuckets; ++d) {
          for (std::size_t u = 0; u < share; ++u) {
            const Count here = counts[u * Digits::kBuckets + d];
            counts[u * Digits::kBuckets + d] = place;
            place += here;
          }
        }
      }
      radix_detail::scatter<Digits>(from, to, begin, end, OrderedKey{}, pass, mine);
#pragma omp barrier
#pragma omp single
      std::swap(from, to);
    }
  }
  if (from != values.data()) values.swap(other);
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
