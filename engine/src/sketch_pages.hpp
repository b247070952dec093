// The sketch's pages and buckets (quantile_store.hpp): the page and bucket
// of a value, the values a bucket stands for and the count it holds; shared
// by the sketch's binning (quantile_sketch.cpp), its bytes
// (quantile_store_bytes.cpp) and its reads (quantile_result.cpp).
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lbmc/engine/quantile_store.hpp"
#include "lbmc/engine/radix_sort.hpp"

namespace lbmc::engine::sketch_pages {

inline constexpr std::size_t kBuckets = std::size_t{1} << QuantileStore::kBucketBits;

//! Whether x can key an integer page: an integer below 2^53 in magnitude.
inline bool is_integer_key(double x) { return std::abs(x) < 0x1p53 && x == std::trunc(x); }

//! The inverse of ordered_bits (radix_sort.hpp).
inline double from_ordered(std::uint64_t o) {
  constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;
  return std::bit_cast<double>((o & kSignBit) != 0 ? o & ~kSignBit : ~o);
}

//! Page key and bucket of a value: integer pages of 2^20 consecutive
//! integers, or float pages of one sign and exponent split by the top 20
//! significand bits.
struct Slot {
  std::int64_t page;
  std::size_t bucket;
};
inline Slot integer_slot(double x) {
  const auto k = static_cast<std::int64_t>(x);
  return {k >> QuantileStore::kBucketBits, static_cast<std::size_t>(k & static_cast<std::int64_t>(kBuckets - 1))};
}
inline Slot float_slot(double x) {
  const std::uint64_t o = ordered_bits(x);
  return {static_cast<std::int64_t>(o >> 52), static_cast<std::size_t>((o >> 32) & (kBuckets - 1))};
}

//! The value range [low, high) of a float bucket; one integer for integer pages.
inline double float_bucket_low(std::int64_t page, std::size_t bucket) {
  return from_ordered(((static_cast<std::uint64_t>(page) << QuantileStore::kBucketBits) | bucket) << 32);
}
inline double float_bucket_high(std::int64_t page, std::size_t bucket) {
  const std::uint64_t next = ((static_cast<std::uint64_t>(page) << QuantileStore::kBucketBits) | bucket) + 1;
  return from_ordered(next << 32);
}
inline double integer_value(std::int64_t page, std::size_t bucket) {
  return static_cast<double>((page << QuantileStore::kBucketBits) + static_cast<std::int64_t>(bucket));
}

//! Bucket i's count, from whichever of a dense page's count arrays it uses.
inline std::uint64_t bucket_count(const std::vector<std::uint32_t>& c32, const std::vector<std::uint64_t>& c64,
                                  std::size_t i) {
  return c64.empty() ? c32[i] : c64[i];
}

}  // namespace lbmc::engine::sketch_pages
