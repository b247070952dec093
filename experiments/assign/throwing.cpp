// The throwing by block of throwing.hpp.
#include "throwing.hpp"

#include <algorithm>

#include "lbmc/engine/interrupt.hpp"

namespace lbmc::exp {
namespace {

constexpr std::int64_t kLargestCount = (std::int64_t{1} << 32) - 1;

// Blocks of 2^shift bins covering `bins`.
std::int64_t block_count(std::uint64_t bins, unsigned shift) {
  return static_cast<std::int64_t>(((bins - 1) >> shift) + 1);
}

}  // namespace

bool ThrowCounter::blocked(std::int64_t bins) {
  return bins > (std::int64_t{1} << kBlockShift) && bins <= (std::int64_t{1} << 24);
}

bool ThrowCounter::fits(std::int64_t tasks, std::int64_t bins) {
  return tasks >= 1 && tasks <= kLargestCount && bins >= 1 && bins <= kLargestCount + 1;
}

// A bucket holds as many draws as its block has counters (fewer when there
// are fewer tasks), so that counting a full bucket costs about one counter's
// bytes a draw.
double ThrowCounter::scratch_bytes(std::int64_t tasks, std::int64_t bins) {
  const auto counters = 4.0 * static_cast<double>(bins);
  if (!blocked(bins)) return counters;
  const auto blocks = static_cast<double>(block_count(static_cast<std::uint64_t>(bins), kBlockShift));
  const auto capacity = static_cast<double>(std::min(tasks, std::int64_t{1} << kBlockShift));
  return counters + blocks * (2.0 * capacity + 5.0);
}

ThrowCounter::ThrowCounter(std::int64_t tasks, std::int64_t bins)
    : tasks_(tasks), bins_(static_cast<std::uint64_t>(bins)) {
  counts_.resize(static_cast<std::size_t>(bins));
  if (!blocked(bins)) return;
  bucket_capacity_ = static_cast<std::size_t>(std::min(tasks, std::int64_t{1} << kBlockShift));
  const auto blocks = static_cast<std::size_t>(block_count(bins_, kBlockShift));
  buckets_.resize(blocks * bucket_capacity_);
  fills_.resize(blocks);
  counted_.resize(blocks);
}

void ThrowCounter::count_bucket(std::size_t block) {
  const std::uint32_t fill = fills_[block];  // read once: a count could alias it
  if (fill == 0) return;
  std::uint32_t* counts = counts_.data();
  if (!counted_[block]) {
    // The block's first bucket this replication: its counters are zeroed
    // here, as they come into the cache to be counted.
    const std::size_t first = block << kBlockShift;
    std::fill(counts + first, counts + std::min<std::size_t>(first + (std::size_t{1} << kBlockShift), bins_), 0U);
    counted_[block] = 1;
  }
  const std::uint16_t* bucket = buckets_.data() + block * bucket_capacity_;
  std::uint32_t* const block_counts = counts + (block << kBlockShift);
  std::uint32_t largest = largest_;
  for (std::uint32_t i = 0; i < fill; ++i) {
    const std::uint32_t count = ++block_counts[bucket[i]];
    largest = count > largest ? count : largest;
  }
  largest_ = largest;
  fills_[block] = 0;
}

std::int64_t ThrowCounter::max_count(engine::Generator& gen) {
  std::uint32_t* counts = counts_.data();
  if (fills_.empty()) {
    std::fill(counts_.begin(), counts_.end(), 0U);
    for (engine::PolledSpans s(tasks_); s.next();)
      for (std::int64_t t = s.first; t < s.last; ++t) ++counts[engine::uniform_below(gen, bins_)];
    return *std::max_element(counts_.begin(), counts_.end());
  }
  std::fill(fills_.begin(), fills_.end(), 0U);
  std::fill(counted_.begin(), counted_.end(), std::uint8_t{0});
  largest_ = 0;
  // The members the loop reads, as locals: the call to count_bucket could
  // change the members, which would then be reloaded for every draw, and a
  // fill is read once, since a bucket's store could alias it.
  std::uint16_t* const buckets = buckets_.data();
  std::uint32_t* const fills = fills_.data();
  const std::size_t capacity = bucket_capacity_;
  const std::uint64_t bins = bins_;
  for (engine::PolledSpans s(tasks_); s.next();) {
    // A local copy of the generator, held in registers: through the
    // reference its state would be stored back after every draw.
    engine::Generator local = gen;
    for (std::int64_t t = s.first; t < s.last; ++t) {
      const auto bin = static_cast<std::uint32_t>(engine::uniform_below(local, bins));
      const std::size_t block = bin >> kBlockShift;
      const std::uint32_t fill = fills[block];
      buckets[block * capacity + fill] = static_cast<std::uint16_t>(bin & kBlockMask);  // the bin within its block
      fills[block] = fill + 1;
      if (fill + 1 == capacity) [[unlikely]] count_bucket(block);
    }
    gen = local;
  }
  for (std::size_t block = 0; block < fills_.size(); ++block) count_bucket(block);
  return largest_;
}

}  // namespace lbmc::exp
