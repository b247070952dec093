// A parallel, thread-count-independent sort of doubles (radix_sort.hpp).
#include "lbmc/engine/radix_sort.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <omp.h>

namespace lbmc::engine {
namespace {

constexpr int kDigitBits = 8;
constexpr std::size_t kRadix = std::size_t{1} << kDigitBits;
constexpr int kPasses = (64 + kDigitBits - 1) / kDigitBits;
// Below this many values std::sort is as fast, and a thread gets no share
// smaller than it.
constexpr std::size_t kShortArray = std::size_t{1} << 14;

std::size_t digit(double x, int shift) { return static_cast<std::size_t>(ordered_bits(x) >> shift) & (kRadix - 1); }

// The bits in which some value's word differs from the first value's.
std::uint64_t varying_bits(const ScratchVector<double>& values, int threads) {
  const std::uint64_t first = ordered_bits(values.front());
  std::uint64_t varying = 0;
  const auto n = static_cast<std::int64_t>(values.size());
#pragma omp parallel for num_threads(threads) schedule(static) reduction(| : varying)
  for (std::int64_t i = 0; i < n; ++i) varying |= ordered_bits(values[static_cast<std::size_t>(i)]) ^ first;
  return varying;
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
  const std::uint64_t varying = varying_bits(values, threads);
  ScratchVector<double> other(n);  // not zeroed: the first pass writes it, on every thread
  // counts[t·kRadix + d]: how many of thread t's share have digit d, then
  // where the first of them goes.
  std::vector<std::size_t> counts(static_cast<std::size_t>(threads) * kRadix);
  double* from = values.data();
  double* to = other.data();
#pragma omp parallel num_threads(threads)
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    const auto share = static_cast<std::size_t>(threads);
    const std::size_t begin = n * t / share;
    const std::size_t end = n * (t + 1) / share;
    std::size_t* mine = counts.data() + t * kRadix;
    for (int pass = 0; pass < kPasses; ++pass) {
      const int shift = pass * kDigitBits;
      if (((varying >> shift) & (kRadix - 1)) == 0) continue;  // the same digit everywhere
      std::fill(mine, mine + kRadix, std::size_t{0});
      for (std::size_t i = begin; i < end; ++i) ++mine[digit(from[i], shift)];
#pragma omp barrier
#pragma omp single
      {
        // Digit by digit, thread by thread: the stable order of the pass.
        std::size_t next = 0;
        for (std::size_t d = 0; d < kRadix; ++d) {
          for (std::size_t u = 0; u < share; ++u) {
            const std::size_t here = counts[u * kRadix + d];
            counts[u * kRadix + d] = next;
            next += here;
          }
        }
      }
      for (std::size_t i = begin; i < end; ++i) to[mine[digit(from[i], shift)]++] = from[i];
#pragma omp barrier
#pragma omp single
      std::swap(from, to);
    }
  }
  if (from != values.data()) values.swap(other);
}

}  // namespace lbmc::engine
