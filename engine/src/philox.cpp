// Philox4x32-10 on kLanes consecutive counters at once: the rounds of
// Random123's philox4x32 (Salmon et al. 2011, §5), on 8 lanes in AVX2
// registers where the processor has AVX2 (chosen once, at the first call),
// else lane by lane. Both give Random123's function word for word
// (tests/philox_test.cpp compares them with it on random counters and keys,
// across a carry of the call's low word).
#include "lbmc/engine/philox.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace lbmc::engine {
namespace {

constexpr int kRounds = kPhiloxRounds;
constexpr int kLanes = PhiloxStream::kLanes;
constexpr std::size_t kWords = 2 * kLanes;

// The key of each round: the given key, then bumped by the Weyl increments.
using RoundKeys = std::array<std::array<std::uint32_t, 2>, kRounds>;
RoundKeys round_keys(const std::array<std::uint32_t, 2>& key) noexcept {
  RoundKeys keys{};
  keys[0] = key;
  for (std::size_t r = 1; r < keys.size(); ++r) keys[r] = {keys[r - 1][0] + kPhiloxWeyl0, keys[r - 1][1] + kPhiloxWeyl1};
  return keys;
}

// One lane at a time (philox_call): the path of processors without AVX2.
void philox_lanes_scalar(const std::array<std::uint32_t, 2>& key, const std::array<std::uint32_t, 2>& block,
                         std::uint64_t first_call, std::array<std::uint64_t, kWords>& words) noexcept {
  const std::uint64_t key64 = key[0] | (std::uint64_t{key[1]} << 32);
  const std::uint64_t block64 = block[0] | (std::uint64_t{block[1]} << 32);
  for (std::size_t l = 0; l < static_cast<std::size_t>(kLanes); ++l) {
    const std::array<std::uint32_t, 4> r = philox_call(key64, first_call + l, block64);
    words[2 * l] = r[0] | (std::uint64_t{r[1]} << 32);
    words[2 * l + 1] = r[2] | (std::uint64_t{r[3]} << 32);
  }
}

#if defined(__x86_64__)
// The high and low words of m·c for every 32-bit element of c (m: one
// multiplier in each 64-bit slot).
__attribute__((target("avx2"), always_inline)) inline void mulhilo_avx2(__m256i c, __m256i m, __m256i& hi,
                                                                        __m256i& lo) noexcept {
  const __m256i even = _mm256_mul_epu32(c, m);
  const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(c, 32), m);
  lo = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
  hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
}

// The lanes in 256-bit registers, 8 to a group, one 32-bit word of each lane
// per element: vpmuludq multiplies the even elements (and, after a shift,
// the odd ones) into 64-bit products, whose halves are blended back. The
// groups' rounds interleave, hiding the multiplications' latency.
__attribute__((target("avx2"))) void philox_lanes_avx2(const std::array<std::uint32_t, 2>& key,
                                                       const std::array<std::uint32_t, 2>& block,
                                                       std::uint64_t first_call,
                                                       std::array<std::uint64_t, kWords>& words) noexcept {
  constexpr int kGroups = kLanes / 8;
  const __m256i sign = _mm256_set1_epi32(static_cast<int>(0x80000000u));
  const __m256i high = _mm256_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(first_call >> 32)));
  __m256i c0[kGroups], c1[kGroups], c2[kGroups], c3[kGroups];
  for (int g = 0; g < kGroups; ++g) {
    const __m256i lane = _mm256_setr_epi32(8 * g, 8 * g + 1, 8 * g + 2, 8 * g + 3, 8 * g + 4, 8 * g + 5, 8 * g + 6,
                                           8 * g + 7);
    // Call first_call + lane: its low word, and its high word with the carry
    // of the addition (which wrapped where the sum is below the lane).
    const __m256i low =
        _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(first_call))), lane);
    const __m256i wrapped = _mm256_cmpgt_epi32(_mm256_xor_si256(lane, sign), _mm256_xor_si256(low, sign));
    c0[g] = low;
    c1[g] = _mm256_sub_epi32(high, wrapped);
    c2[g] = _mm256_set1_epi32(static_cast<int>(block[0]));
    c3[g] = _mm256_set1_epi32(static_cast<int>(block[1]));
  }
  const __m256i m0 = _mm256_set1_epi64x(kPhiloxMultiplier0);
  const __m256i m1 = _mm256_set1_epi64x(kPhiloxMultiplier1);
  for (const auto& [k0, k1] : round_keys(key)) {
    const __m256i key0 = _mm256_set1_epi32(static_cast<int>(k0));
    const __m256i key1 = _mm256_set1_epi32(static_cast<int>(k1));
    for (int g = 0; g < kGroups; ++g) {
      __m256i hi0, lo0, hi1, lo1;
      mulhilo_avx2(c0[g], m0, hi0, lo0);
      mulhilo_avx2(c2[g], m1, hi1, lo1);
      c0[g] = _mm256_xor_si256(_mm256_xor_si256(hi1, c1[g]), key0);
      c1[g] = lo1;
      c2[g] = _mm256_xor_si256(_mm256_xor_si256(hi0, c3[g]), key1);
      c3[g] = lo0;
    }
  }
  for (int g = 0; g < kGroups; ++g) {
    // Lane l's words: (c0, c1) and (c2, c3) interleaved into 64-bit outputs.
    const __m256i a = _mm256_unpacklo_epi32(c0[g], c1[g]);  // lanes 0 1 | 4 5: c0 c1 pairs
    const __m256i b = _mm256_unpackhi_epi32(c0[g], c1[g]);  // lanes 2 3 | 6 7
    const __m256i c = _mm256_unpacklo_epi32(c2[g], c3[g]);
    const __m256i d = _mm256_unpackhi_epi32(c2[g], c3[g]);
    // Output 2l = a/b's pair of lane l, output 2l + 1 = c/d's.
    const __m256i ac_lo = _mm256_unpacklo_epi64(a, c);  // lanes 0 | 4: (2l, 2l+1)
    const __m256i ac_hi = _mm256_unpackhi_epi64(a, c);  // lanes 1 | 5
    const __m256i bd_lo = _mm256_unpacklo_epi64(b, d);  // lanes 2 | 6
    const __m256i bd_hi = _mm256_unpackhi_epi64(b, d);  // lanes 3 | 7
    std::uint64_t* out = words.data() + 16 * g;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_permute2x128_si256(ac_lo, ac_hi, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 4), _mm256_permute2x128_si256(bd_lo, bd_hi, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8), _mm256_permute2x128_si256(ac_lo, ac_hi, 0x31));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 12), _mm256_permute2x128_si256(bd_lo, bd_hi, 0x31));
  }
}
#endif

}  // namespace

void philox_lanes(const std::array<std::uint32_t, 2>& key, const std::array<std::uint32_t, 2>& block,
                  std::uint64_t first_call, std::array<std::uint64_t, kWords>& words) noexcept {
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) {
    philox_lanes_avx2(key, block, first_call, words);
    return;
  }
#endif
  philox_lanes_scalar(key, block, first_call, words);
}

void philox_lanes_reference(const std::array<std::uint32_t, 2>& key, const std::array<std::uint32_t, 2>& block,
                            std::uint64_t first_call, std::array<std::uint64_t, kWords>& words) noexcept {
  philox_lanes_scalar(key, block, first_call, words);
}

}  // namespace lbmc::engine
