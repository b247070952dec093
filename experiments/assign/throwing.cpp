// The two-pass throwing of throwing.hpp.
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

// A chunk holds as many draws as there are bins (at least 2^16), so that
// going once through the counters, block by block, costs at most about one
// counter's bytes per draw.
std::int64_t chunk_size(std::int64_t tasks, std::int64_t bins) {
  return std::min(tasks, std::max<std::int64_t>(bins, std::int64_t{1} << 16));
}

}  // namespace

bool ThrowCounter::blocked(std::int64_t bins) {
  return bins > (std::int64_t{1} << kBlockShift) && bins <= (std::int64_t{1} << 24);
}

bool ThrowCounter::fits(std::int64_t tasks, std::int64_t bins) {
  return tasks >= 1 && tasks <= kLargestCount && bins >= 1 && bins <= kLargestCount + 1;
}

double ThrowCounter::scratch_bytes(std::int64_t tasks, std::int64_t bins) {
  const auto counters = 4.0 * static_cast<double>(bins);
  if (!blocked(bins)) return counters;
  const auto blocks = static_cast<double>(block_count(static_cast<std::uint64_t>(bins), kBlockShift));
  return counters + 8.0 * static_cast<double>(chunk_size(tasks, bins)) + 8.0 * (blocks + 1.0);
}

ThrowCounter::ThrowCounter(std::int64_t tasks, std::int64_t bins)
    : tasks_(tasks), bins_(static_cast<std::uint64_t>(bins)), chunk_(chunk_size(tasks, bins)) {
  counts_.resize(static_cast<std::size_t>(bins));
  if (!blocked(bins)) return;
  drawn_.resize(static_cast<std::size_t>(chunk_));
  grouped_.resize(static_cast<std::size_t>(chunk_));
  starts_.resize(static_cast<std::size_t>(block_count(bins_, kBlockShift)) + 1);
}

std::int64_t ThrowCounter::max_count(engine::Generator& gen) {
  std::fill(counts_.begin(), counts_.end(), 0U);
  std::uint32_t* counts = counts_.data();
  if (drawn_.empty()) {
    for (engine::PolledSpans s(tasks_); s.next();)
      for (std::int64_t t = s.first; t < s.last; ++t) ++counts[engine::uniform_below(gen, bins_)];
    return *std::max_element(counts_.begin(), counts_.end());
  }
  std::uint32_t* drawn = drawn_.data();
  std::uint32_t* grouped = grouped_.data();
  std::int64_t* starts = starts_.data();
  for (std::int64_t done = 0; done < tasks_; done += chunk_) {
    const std::int64_t size = std::min(chunk_, tasks_ - done);
    // 1. The draws, and each block's count in starts[block + 1].
    std::fill(starts_.begin(), starts_.end(), 0);
    for (engine::PolledSpans s(size); s.next();) {
      for (std::int64_t t = s.first; t < s.last; ++t) {
        const auto bin = static_cast<std::uint32_t>(engine::uniform_below(gen, bins_));
        drawn[t] = bin;
        ++starts[(bin >> kBlockShift) + 1];
      }
    }
    // 2. Where each block's group starts, the scatter (moving each start to
    // its group's end), and the counting group by group.
    for (std::size_t b = 1; b < starts_.size(); ++b) starts[b] += starts[b - 1];
    for (std::int64_t t = 0; t < size; ++t) grouped[starts[drawn[t] >> kBlockShift]++] = drawn[t];
    for (std::int64_t t = 0; t < size; ++t) ++counts[grouped[t]];
  }
  return *std::max_element(counts_.begin(), counts_.end());
}

}  // namespace lbmc::exp
