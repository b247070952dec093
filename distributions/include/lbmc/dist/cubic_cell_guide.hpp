// A guide that finds the cell of a draw by evaluating a cubic, for the
// inversion tables too wide for the value guide (cell_value_guide.hpp): the
// negative binomial's table past a few thousand cells (NegBinomial(1000,
// 0.01): 121 000 cells, a megabyte of thresholds).
//
// Design note
// - The position of u in the table, t(u) = (i - 1) + (u - T_{i-1})/(T_i -
//   T_{i-1}) for u in cell i (T the table's thresholds), is continuous,
//   increasing and piecewise linear, and first + floor(t(u)) is the value
//   of u's cell. On each of 2^13 equal buckets of u's range a cubic Q in
//   the offset r of u in its bucket interpolates first + t - 1/2 at the
//   four Chebyshev nodes (a cubic follows the inverse of a smooth law
//   closely: at NegBinomial(1000, 0.01), to about 1e-6 cells in the
//   centre).
// - A bucket is certified when |Q(r) - (first + t - 1/2)| < delta = 2^-11
//   for every u in it, Q evaluated in double precision as the draw
//   evaluates it: the largest error of the exact cubic on each cell's part
//   of the bucket, where t is linear, so at an end of the part or where Q'
//   equals t's slope (a cell of no width makes t jump between parts), plus
//   a bound on the rounding of Estrin's scheme in double, (c0 + r·c1) +
//   r²·(c2 + r·c3), whose term of degree d passes at most d + 2 roundings
//   (Higham, "Accuracy and Stability of Numerical Algorithms", §5.1).
//   Other buckets (the far tails, and those reaching the table's tail
//   cells) hold NaN.
// - A draw rounds q = Q(r) to the nearest integer j (q + 1.5·2^52, whose
//   low bits then hold j: no conversion, and no undefined one of NaN) and
//   is settled when |q - j| < 1/2 - delta: then first + t lies strictly
//   between j and j + 1, so j is the value, exactly the table's
//   (InversionTable::locate). No threshold is read: a bucket of 32 bytes,
//   a conversion, Estrin's four multiplies and three adds (never fused; a
//   chain of four where Horner's has six, 0.96 of Horner's time) and the
//   rounding, on the floating-point side (an integer form of the test was
//   5% slower: the generator's 128-bit steps keep the integer units busy;
//   the offset made a double in [1, 2) by its bits instead of a
//   conversion, 1.04-1.06 times as long); 256 KiB
//   for the 8192 buckets (4096 took 1.02 times as long) where
//   NegBinomial(1000, 0.01)'s thresholds and guide take 1.5 MiB.
// - A loop of draws takes them two at a time (settle_pair): with SSE2 the
//   two cubics share the two lanes of one register, each lane's operations
//   in value()'s order, so the same q to the bit. The offsets become
//   doubles by their bits there (offset + 2^52 less 2^52, exact below
//   2^52: one packed subtract for two scalar conversions), and one mask
//   of both compares decides the pair: 0.87-0.89 of the time of two
//   value() calls in the running sums at NegBinomial(1000 to 1e6, 0.01).
// - The rest (nearby_value, out of the draws' loop): in a certified bucket
//   (2·delta of its draws) one threshold decides between the two values
//   next to q + 1/2; a bucket not certified (the far tails: 0.2% of the
//   draws at NegBinomial(1000, 0.01)) has 64 sub-buckets certified the
//   same way where they can be, and the caller searches the table for what
//   is left (0.01% there). delta = 2^-10 left twice the draws to the
//   threshold and took 1.03 times as long; 2^-12, more buckets to their
//   sub-buckets, no faster.
// - A table whose cubics would leave more than 2^-6 of the draws to
//   nearby_value and the search gets no guide (empty()).
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "lbmc/dist/inversion_table.hpp"
#include "lbmc/dist/sampler_support.hpp"
#include "lbmc/dist/shared_array.hpp"

namespace lbmc::dist {

//! The value of a draw's cell of an inversion table, from a cubic a bucket.
class CubicCellGuide {
 public:
  //! A bucket: Q(r) = c[0] + r·(c[1] + r·(c[2] + r·c[3])), r the offset of
  //! u in the bucket. A bucket not certified holds c[0] = NaN and in c[1]
  //! its first sub-bucket; a sub-bucket not certified, NaN alone.
  struct alignas(32) Bucket {
    double c[4];
  };
  //! log2 of the number of buckets.
  static constexpr unsigned kBucketBits = 13;
  //! log2 of the number of sub-buckets of a bucket not certified.
  static constexpr unsigned kSubBucketBits = 6;
  //! The largest error a certified bucket's cubic may make, in cells.
  static constexpr double kDelta = 0x1p-11;

  //! An empty guide; assign a built one before calling value.
  CubicCellGuide() = default;
  //! The guide of `table`, whose cell i holds the value first + i - 1 >= 0
  //! (empty() when too few of its draws would be settled).
  CubicCellGuide(const InversionTable& table, std::int64_t first);

  //! The value of the cell of the 63-bit uniform integer u when the guide
  //! settles it, else -1 (then nearby_value, and else the table's search).
  std::int64_t value(std::uint64_t u) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const Rounded q = rounded(buckets_[u >> kShift], u & kOffsetMask);
    // A mask and a compare on the floating-point side, where the
    // generator's integer arithmetic leaves room.
    return std::fabs(q.off) < 0.5 - kDelta ? q.nearest : -1;
  }
  //! value() of the draws of the outputs x0 and x1 (u = x >> 1) into v0
  //! and v1; whether both are settled (the design note).
  bool settle_pair(std::uint64_t x0, std::uint64_t x1, std::int64_t& v0, std::int64_t& v1) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
#if defined(__SSE2__)
    const __m128i x = _mm_set_epi64x(static_cast<long long>(x1), static_cast<long long>(x0));
    const __m128i offset = _mm_and_si128(_mm_srli_epi64(x, 1), _mm_set1_epi64x(static_cast<long long>(kOffsetMask)));
    const __m128d two52 = _mm_set1_pd(0x1p52);
    const __m128d r = _mm_sub_pd(_mm_or_pd(_mm_castsi128_pd(offset), two52), two52);
    const double* b0 = buckets_[x0 >> (kShift + 1)].c;
    const double* b1 = buckets_[x1 >> (kShift + 1)].c;
    const __m128d low0 = _mm_load_pd(b0), low1 = _mm_load_pd(b1);
    const __m128d high0 = _mm_load_pd(b0 + 2), high1 = _mm_load_pd(b1 + 2);
    const __m128d c0 = _mm_unpacklo_pd(low0, low1), c1 = _mm_unpackhi_pd(low0, low1);
    const __m128d c2 = _mm_unpacklo_pd(high0, high1), c3 = _mm_unpackhi_pd(high0, high1);
    const __m128d q = _mm_add_pd(_mm_add_pd(c0, _mm_mul_pd(r, c1)),
                                 _mm_mul_pd(_mm_mul_pd(r, r), _mm_add_pd(c2, _mm_mul_pd(r, c3))));
    const __m128d round = _mm_set1_pd(0x1.8p52);
    const __m128d shifted = _mm_add_pd(q, round);
    const __m128i nearest = _mm_sub_epi64(_mm_castpd_si128(shifted), _mm_castpd_si128(round));
    const __m128d off = _mm_sub_pd(q, _mm_sub_pd(shifted, round));
    const __m128d magnitude = _mm_andnot_pd(_mm_set1_pd(-0.0), off);
    const int settled = _mm_movemask_pd(_mm_cmplt_pd(magnitude, _mm_set1_pd(0.5 - kDelta)));
    v0 = _mm_cvtsi128_si64(nearest);
    v1 = _mm_cvtsi128_si64(_mm_unpackhi_epi64(nearest, nearest));
    if (settled == 3) [[likely]] return true;
    if ((settled & 1) == 0) v0 = -1;
    if ((settled & 2) == 0) v1 = -1;
    return false;
#else
    v0 = value(x0 >> 1);
    v1 = value(x1 >> 1);
    return (v0 | v1) >= 0;
#endif
  }
  //! The value of the cell of u where value() leaves it: in a certified
  //! bucket, first + t(u) lies within 2·delta of the integer m nearest
  //! Q + 1/2, so the value is m - 1 or m as u is below the threshold of the
  //! cell of m or not (one compare); in one not certified, the same from
  //! its sub-bucket's cubic. -1 where neither is certified. `thresholds`:
  //! the table's.
  std::int64_t nearby_value(std::uint64_t u, const std::uint64_t* thresholds) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const Bucket& top = buckets_[u >> kShift];
    Rounded q = rounded(top, u & kOffsetMask);
    if (std::isnan(q.off)) {  // its sub-buckets, if any
      const auto first_sub = static_cast<std::size_t>(top.c[1]);
      q = rounded(sub_buckets_[first_sub + ((u >> kSubShift) & kSubMask)], u & kSubOffsetMask);
      if (std::isnan(q.off)) return -1;
      if (std::fabs(q.off) < 0.5 - kDelta) return q.nearest;
    }
    const std::int64_t m = q.nearest + (q.off < 0.0 ? 0 : 1);
    return m - 1 + (u >= thresholds[m - first_] ? 1 : 0);
  }
  //! Whether no guide was built: value() must not be called then.
  bool empty() const noexcept { return buckets_.empty(); }

 private:
  static constexpr double kMostUnsettled = 0x1p-6;
  static constexpr unsigned kShift = 63 - kBucketBits;
  static constexpr unsigned kSubShift = kShift - kSubBucketBits;
  static constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << kShift) - 1;
  static constexpr std::uint64_t kSubOffsetMask = (std::uint64_t{1} << kSubShift) - 1;
  static constexpr std::uint64_t kSubMask = (std::uint64_t{1} << kSubBucketBits) - 1;

  // q = Q(r) for u's bucket, the integer nearest it and q less that integer
  // (exact): q + 1.5·2^52 holds round(q) in its low bits (|q| < 2^51), so
  // no conversion is needed, nor an undefined one of NaN.
  struct Rounded {
    std::int64_t nearest;
    double off;
  };
  static Rounded rounded(const Bucket& b, std::uint64_t offset) noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    constexpr double kRound = 0x1.8p52;
    const auto r = static_cast<double>(static_cast<std::int64_t>(offset));
    const double q = (b.c[0] + r * b.c[1]) + (r * r) * (b.c[2] + r * b.c[3]);
    const double shifted = q + kRound;
    return {std::bit_cast<std::int64_t>(shifted) - std::bit_cast<std::int64_t>(kRound), q - (shifted - kRound)};
  }

  SharedArray<Bucket> buckets_;
  SharedArray<Bucket> sub_buckets_;
  std::int64_t first_ = 0;
};

}  // namespace lbmc::dist
