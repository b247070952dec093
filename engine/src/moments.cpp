// Moments::of, the two-pass summary of a batch (see moments.hpp).
//
// Both passes accumulate in four lanes, value i into lane i mod 4 and the
// last count mod 4 values into lane 0 (a GCC vector type: one AVX2 register
// or two SSE2 registers, with the same arithmetic in each lane, so both
// clones give the same bits), and the lanes are combined as
// (l0 + l1) + (l2 + l3). The four chains of additions are
// independent, which is what makes the pass fast: one chain would wait on the
// latency of every addition.
#include <cstring>

#include "lbmc/engine/moments.hpp"

namespace lbmc::engine {
namespace {

using Lanes = double __attribute__((vector_size(4 * sizeof(double))));

double lane_sum(const Lanes& v) { return (v[0] + v[1]) + (v[2] + v[3]); }

// Four values from unaligned memory (by reference: a vector passed or
// returned by value would change the calling convention between the clones).
void load_lanes(Lanes& v, const double* p) { std::memcpy(&v, p, sizeof v); }

}  // namespace

// Clang before 15 emits the dispatcher of a target_clones function only in a
// file that calls it, and nothing here does, so its builds (the fuzz and tsan
// presets) link the default clone alone, which gives the same bits.
#if defined(__clang__) && __clang_major__ < 15
#define LBMC_MOMENTS_CLONES
#else
#define LBMC_MOMENTS_CLONES __attribute__((target_clones("avx2", "default")))
#endif

LBMC_MOMENTS_CLONES Moments Moments::of(std::span<const double> values) noexcept {
  Moments m;
  const std::size_t count = values.size();
  if (count == 0) return m;
  const double* x = values.data();
  const std::size_t whole = count - count % 4;  // values in full groups of four
  Lanes total{}, group;
  for (std::size_t i = 0; i < whole; i += 4) {
    load_lanes(group, x + i);
    total += group;
  }
  for (std::size_t i = whole; i < count; ++i) total[0] += x[i];
  const double n = static_cast<double>(count);
  const double mean = lane_sum(total) / n;
  Lanes s1{}, s2{}, s3{}, s4{};
  const auto add_powers = [&](const Lanes& d) {
    const Lanes d2 = d * d;
    s1 += d;
    s2 += d2;
    s3 += d2 * d;
    s4 += d2 * d2;
  };
  for (std::size_t i = 0; i < whole; i += 4) {
    load_lanes(group, x + i);
    add_powers(group - mean);
  }
  for (std::size_t i = whole; i < count; ++i) add_powers(Lanes{x[i] - mean, 0.0, 0.0, 0.0});
  // With the exact mean, Σd = 0; the computed one is off by c = Σd/n, and the
  // central sums about the exact mean follow by the binomial shift.
  const double c = lane_sum(s1) / n;
  const double sum2 = lane_sum(s2);
  const double sum3 = lane_sum(s3);
  m.count_ = static_cast<std::int64_t>(count);
  m.mean_ = mean + c;
  m.m2_ = sum2 - n * c * c;
  m.m3_ = sum3 - 3.0 * c * sum2 + 2.0 * n * c * c * c;
  m.m4_ = lane_sum(s4) - 4.0 * c * sum3 + 6.0 * c * c * sum2 - 3.0 * n * c * c * c * c;
  return m;
}

}  // namespace lbmc::engine
