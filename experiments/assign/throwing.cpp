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
  return counters + 4.0 * blocks * (capacity + 1.0);
}

ThrowCounter::ThrowCounter(std::int64_t tasks, std::int64_t bins)
    : tasks_(tasks), bins_(static_cast<std::uint64_t>(bins)) {
  counts_.resize(static_cast<std::size_t>(bins));
  if (!blocked(bins)) return;
  bucket_capacity_ = static_cast<std::size_t>(std::min(tasks, std::int64_t{1} << kBlockShift));
  const auto blocks = static_cast<std::size_t>(block_count(bins_, kBlockShift));
  buckets_.resize(blocks * bucket_capacity_);
  fills_.resize(blocks);
}

void ThrowCounter::count_bucket(std::size_t block) {
  const std::uint32_t* bucket = buckets_.data() + block * bucket_capacity_;
  std::uint32_t* counts = counts_.data();
  const std::uint32_t fill = fills_[block];  // read once: a count could alias it
  for (std::uint32_t i = 0; i < fill; ++i) ++counts[bucket[i]];
  fills_[block] = 0;
}

std::int64_t ThrowCounter::max_count(engine::Generator& gen) {
  std::fill(counts_.begin(), counts_.end(), 0U);
  std::uint32_t* counts = counts_.data();
  if (fills_.empty()) {
    for (engine::PolledSpans s(tasks_); s.next();)
      for (std::int64_t t = s.first; t < s.last; ++t) ++counts[engine::uniform_below(gen, bins_)];
    return *std::max_element(counts_.begin(), counts_.end());
  }
  std::fill(fills_.begin(), fills_.end(), 0U);
  std::uint32_t* buckets = buckets_.data();
  std::uint32_t* fills = fills_.data();
  const auto capacity = static_cast<std::uint32_t>(bucket_capacity_);
  for (engine::PolledSpans s(tasks_); s.next();) {
    // A local copy of the generator, held in registers: through the
    // reference its state would be stored back after every draw.
    engine::Generator local = gen;
    for (std::int64_t t = s.first; t < s.last; ++t) {
      const auto bin = static_cast<std::uint32_t>(engine::uniform_below(local, bins_));
      const std::size_t block = bin >> kBlockShift;
      buckets[block * bucket_capacity_ + fills[block]] = bin;
      if (++fills[block] == capacity) count_bucket(block);
    }
    gen = local;
  }
  for (std::size_t block = 0; block < fills_.size(); ++block) count_bucket(block);
  return *std::max_element(counts_.begin(), counts_.end());
}

}  // namespace lbmc::exp
