// Quantile store: its blocks of exact values, their merges and the way to
// the canonical form (quantile_store.hpp); the sketch's binning is in
// quantile_sketch.cpp, the bytes in quantile_store_bytes.cpp, the reads in
// quantile_result.cpp.
#include "lbmc/engine/quantile_store.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "lbmc/engine/radix_sort.hpp"

namespace lbmc::engine {
namespace {

// append()'s chunks (quantile_store.hpp): a block of more than an eighth of
// a chunk has storage of its own.
constexpr std::size_t kChunkValues = scratch_detail::kHugePageBytes / sizeof(double);

struct ChunkCursor {
  std::shared_ptr<ScratchVector<double>> chunk;
  std::size_t used = 0;
};
thread_local std::array<ChunkCursor, QuantileStore::kAppendLanes> t_cursors;

// `count` values of storage for a new block, not initialised, from the
// thread's chunk of `lane`.
std::pair<std::shared_ptr<ScratchVector<double>>, std::span<double>> carve(std::size_t count, unsigned lane) {
  if (count > kChunkValues / 8) {
    auto own = std::make_shared<ScratchVector<double>>(count);
    return {own, std::span<double>(*own)};
  }
  ChunkCursor& cursor = t_cursors.at(lane);
  if (!cursor.chunk || kChunkValues - cursor.used < count) {
    cursor.chunk = std::make_shared<ScratchVector<double>>(kChunkValues);
    cursor.used = 0;
  }
  const std::span<double> values(cursor.chunk->data() + cursor.used, count);
  cursor.used += count;
  return {cursor.chunk, values};
}

}  // namespace

QuantileStore::QuantileStore(const QuantileStore& other)
    : cap_(other.cap_),
      exact_per_page_(other.exact_per_page_),
      count32_limit_(other.count32_limit_),
      count_(other.count_),
      blocks_(other.blocks_),
      values_(other.values_),
      gathered_(other.gathered_),
      sorted_(other.sorted_),
      sketch_(other.sketch_ ? std::make_unique<Sketch>(*other.sketch_) : nullptr),
      finalized_(other.finalized_) {}

QuantileStore& QuantileStore::operator=(const QuantileStore& other) {
  if (this != &other) *this = QuantileStore(other);
  return *this;
}

void QuantileStore::add(double x) {
  ++count_;
  finalized_ = false;
  if (sketch_) {
    sketch_add({&x, 1});
    return;
  }
  grow_block().push_back(x);
  blocks_.back().values = *blocks_.back().storage;
  gathered_ = false;
  if (static_cast<std::size_t>(count_) > cap_) to_sketch();
}

void QuantileStore::reserve(std::size_t count) {
  if (sketch_) return;
  grow_block().reserve(std::min(count, cap_));
}

ScratchVector<double>& QuantileStore::grow_block() {
  // A block of this store's own (a shared one is never written again).
  if (blocks_.empty() || !blocks_.back().growable || blocks_.back().storage.use_count() > 1) {
    blocks_.push_back({std::make_shared<ScratchVector<double>>(), {}, true});
  }
  return *blocks_.back().storage;
}

bool QuantileStore::Block::precedes(const Block& next) const noexcept {
  return !growable && !next.growable && storage == next.storage && values.data() + values.size() == next.values.data();
}

void QuantileStore::push_block(Block block) {
  if (!blocks_.empty() && blocks_.back().precedes(block)) {
    Block& last = blocks_.back();
    last.values = std::span<double>(last.values.data(), last.values.size() + block.values.size());
  } else {
    blocks_.push_back(std::move(block));
  }
}

std::span<double> QuantileStore::append(std::size_t count, unsigned lane) {
  auto [storage, values] = carve(count, lane);
  push_block({std::move(storage), values, false});
  count_ += static_cast<std::int64_t>(count);
  gathered_ = false;
  finalized_ = false;
  // A store past its cap bins the block when the next merge or read comes;
  // the kernel writes the values first.
  return values;
}

void QuantileStore::merge(const QuantileStore& other) {
  if (other.count_ == 0) return;
  finalized_ = false;
  if (!sketch_ && !other.sketch_ && static_cast<std::size_t>(count_ + other.count_) <= cap_) {
    if (!other.values_.empty()) {
      auto copy = std::make_shared<ScratchVector<double>>(other.values_.begin(), other.values_.end());
      const std::span<double> values(*copy);
      blocks_.push_back({std::move(copy), values, false});
    }
    for (const Block& block : other.blocks_) push_block(block);
    count_ += other.count_;
    gathered_ = false;
    return;
  }
  if (!sketch_) to_sketch();
  // Values appended since the sketch was made (none, or a written block),
  // then the other store's.
  std::vector<std::span<const double>> pending = unbinned();
  if (!other.sketch_) {
    const std::vector<std::span<const double>> others = other.unbinned();
    pending.insert(pending.end(), others.begin(), others.end());
  }
  sketch_add_all(pending);
  values_.clear();
  blocks_.clear();
  if (other.sketch_) sketch_merge(*other.sketch_);
  count_ += other.count_;
}

std::vector<std::span<const double>> QuantileStore::unbinned() const {
  std::vector<std::span<const double>> spans;
  if (!values_.empty()) spans.emplace_back(values_);
  for (const auto& block : blocks_) spans.emplace_back(block.values);
  return spans;
}

void QuantileStore::to_sketch() {
  sketch_ = std::make_unique<Sketch>();
  sketch_add_all(unbinned());
  values_.clear();
  values_.shrink_to_fit();
  blocks_.clear();
  gathered_ = sorted_ = true;
}

bool QuantileStore::unsettled() const noexcept {
  if (!sketch_) return static_cast<std::size_t>(count_) > cap_;
  return !values_.empty() || !blocks_.empty();
}

void QuantileStore::to_sketch_early() {
  finalized_ = false;
  if (sketch_) {
    settle();
  } else {
    to_sketch();
  }
}

void QuantileStore::settle() {
  if (!sketch_) {
    if (static_cast<std::size_t>(count_) > cap_) to_sketch();
    return;
  }
  sketch_add_all(unbinned());
  values_.clear();
  blocks_.clear();
}

QuantileResult QuantileStore::finalize() {
  settle();
  if (!sketch_) {
    gather();
    if (!sorted_) {
      // On the OpenMP threads; the same values in the same order for any
      // thread count.
      radix_sort(values_);
      sorted_ = true;
    }
  }
  finalized_ = true;
  return QuantileResult(*this);
}

QuantileResult QuantileStore::result() const {
  if (!finalized_) throw std::logic_error("a quantile store read before finalize()");
  return QuantileResult(*this);
}

void QuantileStore::gather() {
  if (gathered_) return;
  // The blocks copied to their places on the OpenMP threads (the array is
  // not zeroed first: the copies write every element), in tasks of
  // kGatherTask values each, whatever the blocks' sizes: 4·10^6
  // one-replication blocks (maxload --n 65536 on a GPU, before they join
  // in their chunks) or a few chunk-sized ones.
  constexpr std::size_t kGatherTask = std::size_t{1} << 16;
  const std::size_t first = values_.size();
  std::vector<std::size_t> starts(blocks_.size() + 1, first);
  for (std::size_t i = 0; i < blocks_.size(); ++i) starts[i + 1] = starts[i] + blocks_[i].values.size();
  const std::size_t last = starts.back();
  values_.resize(last);
  const auto task_count = static_cast<std::int64_t>((last - first + kGatherTask - 1) / kGatherTask);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t t = 0; t < task_count; ++t) {
    const std::size_t begin = first + static_cast<std::size_t>(t) * kGatherTask;
    const std::size_t end = std::min(begin + kGatherTask, last);
    // The block holding value `begin`: the last one starting at or before it.
    auto i = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), begin) - starts.begin()) - 1;
    for (std::size_t at = begin; at < end; ++i) {
      const std::size_t count = std::min(end, starts[i + 1]) - at;
      std::copy_n(blocks_[i].values.begin() + static_cast<std::ptrdiff_t>(at - starts[i]), count,
                  values_.begin() + static_cast<std::ptrdiff_t>(at));
      at += count;
    }
  }
  blocks_.clear();
  gathered_ = true;
  sorted_ = false;
}

}  // namespace lbmc::engine
