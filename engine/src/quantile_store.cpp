// Quantile store: exact order statistics, or the canonical sketch past the cap.
#include "lbmc/engine/quantile_store.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <utility>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/normal.hpp>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"
#include "lbmc/engine/radix_sort.hpp"
#include "lbmc/engine/serial.hpp"

namespace lbmc::engine {
namespace {

namespace bm = boost::math;

constexpr std::size_t kBuckets = std::size_t{1} << QuantileStore::kBucketBits;
constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;

// The smallest k with P(Bin(R, α) <= k) >= prob.
std::int64_t binomial_count(std::int64_t count, double alpha, double prob) {
  const bm::binomial_distribution<double, engine::MathPolicy> b(static_cast<double>(count), alpha);
  return static_cast<std::int64_t>(bm::quantile(b, prob));
}

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

bool is_integer_key(double x) { return std::abs(x) < 0x1p53 && x == std::trunc(x); }

// The inverse of ordered_bits (radix_sort.hpp).
double from_ordered(std::uint64_t o) { return std::bit_cast<double>((o & kSignBit) != 0 ? o & ~kSignBit : ~o); }

// Page key and bucket of a value: integer pages of 2^20 consecutive integers,
// or float pages of one sign and exponent split by the top 20 significand bits.
struct Slot {
  std::int64_t page;
  std::size_t bucket;
};
Slot integer_slot(double x) {
  const auto k = static_cast<std::int64_t>(x);
  return {k >> QuantileStore::kBucketBits, static_cast<std::size_t>(k & static_cast<std::int64_t>(kBuckets - 1))};
}
Slot float_slot(double x) {
  const std::uint64_t o = ordered_bits(x);
  return {static_cast<std::int64_t>(o >> 52), static_cast<std::size_t>((o >> 32) & (kBuckets - 1))};
}
// The value range [low, high) of a float bucket; one integer for integer pages.
double float_bucket_low(std::int64_t page, std::size_t bucket) {
  return from_ordered(((static_cast<std::uint64_t>(page) << QuantileStore::kBucketBits) | bucket) << 32);
}
double float_bucket_high(std::int64_t page, std::size_t bucket) {
  const std::uint64_t next = ((static_cast<std::uint64_t>(page) << QuantileStore::kBucketBits) | bucket) + 1;
  return from_ordered(next << 32);
}
double integer_value(std::int64_t page, std::size_t bucket) {
  return static_cast<double>((page << QuantileStore::kBucketBits) + static_cast<std::int64_t>(bucket));
}

std::uint64_t bucket_count(const std::vector<std::uint32_t>& c32, const std::vector<std::uint64_t>& c64,
                           std::size_t i) {
  return c64.empty() ? c32[i] : c64[i];
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

void QuantileStore::sketch_add_all(const std::vector<std::span<const double>>& spans) {
  // Groups of whole spans of about kParallelBinValues values; the grouping
  // depends on the spans only, never on the threads.
  std::vector<std::size_t> group_ends;
  std::size_t in_group = 0;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    in_group += spans[i].size();
    if (in_group >= kParallelBinValues || i + 1 == spans.size()) {
      group_ends.push_back(i + 1);
      in_group = 0;
    }
  }
  if (group_ends.size() <= 1) {
    for (const auto& span : spans) sketch_add(span);
    return;
  }
  std::vector<std::unique_ptr<Sketch>> parts(group_ends.size());
  std::vector<std::exception_ptr> failures(group_ends.size());
#pragma omp taskgroup
  {
    for (std::size_t g = 0; g < group_ends.size(); ++g) {
#pragma omp task default(none) firstprivate(g) shared(spans, group_ends, parts, failures)
      {
        try {
          QuantileStore part(cap_, exact_per_page_, count32_limit_);
          part.sketch_ = std::make_unique<Sketch>();
          for (std::size_t i = g == 0 ? 0 : group_ends[g - 1]; i < group_ends[g]; ++i) part.sketch_add(spans[i]);
          parts[g] = std::move(part.sketch_);
        } catch (...) {
          failures[g] = std::current_exception();
        }
      }
    }
  }
  for (const auto& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  for (auto& part : parts) {
    sketch_merge(*part);
    part.reset();
  }
}

void QuantileStore::sketch_add(std::span<const double> xs) {
  Sketch& s = *sketch_;
  if (s.integer_keys && !std::all_of(xs.begin(), xs.end(), is_integer_key)) to_float_keys();
  // Consecutive values of a block mostly share a page: runs go in together.
  std::size_t i = 0;
  while (i < xs.size()) {
    const std::int64_t key = s.integer_keys ? integer_slot(xs[i]).page : float_slot(xs[i]).page;
    std::size_t j = i + 1;
    while (j < xs.size() && (s.integer_keys ? integer_slot(xs[j]).page : float_slot(xs[j]).page) == key) ++j;
    add_to_page(key, s.pages[key], xs.subspan(i, j - i));
    i = j;
  }
}

void QuantileStore::add_to_page(std::int64_t /*key*/, Page& page, std::span<const double> xs) {
  const bool integers = sketch_->integer_keys;
  if (!page.dense() && page.values.size() + xs.size() <= exact_per_page_) {
    page.values.insert(page.values.end(), xs.begin(), xs.end());
    page.count += static_cast<std::int64_t>(xs.size());
    return;
  }
  make_dense(page);
  widen_for(page, xs.size());
  if (integers) {
    count_buckets(page, xs, [](double x) { return integer_slot(x).bucket; });
  } else {
    count_buckets(page, xs, [](double x) { return float_slot(x).bucket; });
  }
}

template <class BucketOf>
void QuantileStore::count_buckets(Page& page, std::span<const double> xs, BucketOf bucket_of) {
  if (page.counts64.empty()) {
    for (const double x : xs) ++page.counts32[bucket_of(x)];
  } else {
    for (const double x : xs) ++page.counts64[bucket_of(x)];
  }
  page.count += static_cast<std::int64_t>(xs.size());
}

void QuantileStore::make_dense(Page& page) {
  if (page.dense()) return;
  std::vector<double> held;
  held.swap(page.values);
  page.count = 0;
  page.counts32.assign(kBuckets, 0);
  add_to_page(0, page, held);
}

void QuantileStore::widen_for(Page& page, std::uint64_t more) const {
  if (!page.counts64.empty() || static_cast<std::uint64_t>(page.count) + more <= count32_limit_) return;
  page.counts64.assign(page.counts32.begin(), page.counts32.end());
  page.counts32.clear();
  page.counts32.shrink_to_fit();
}

void QuantileStore::add_counts(Page& page, std::size_t bucket, std::uint64_t n) {
  widen_for(page, n);
  if (page.counts64.empty()) {
    page.counts32[bucket] += static_cast<std::uint32_t>(n);
  } else {
    page.counts64[bucket] += n;
  }
  page.count += static_cast<std::int64_t>(n);
}

void QuantileStore::to_float_keys() {
  Sketch& s = *sketch_;
  std::map<std::int64_t, Page> integer_pages;
  integer_pages.swap(s.pages);
  s.integer_keys = false;
  for (const auto& [key, page] : integer_pages) {
    if (!page.dense()) {
      sketch_add(page.values);
      continue;
    }
    for (std::size_t b = 0; b < kBuckets; ++b) {
      const std::uint64_t n = bucket_count(page.counts32, page.counts64, b);
      if (n == 0) continue;
      // n copies of one integer: as if added one by one.
      const double x = integer_value(key, b);
      const Slot slot = float_slot(x);
      Page& target = s.pages[slot.page];
      if (!target.dense() && target.values.size() + n <= exact_per_page_) {
        target.values.insert(target.values.end(), n, x);
        target.count += static_cast<std::int64_t>(n);
      } else {
        make_dense(target);
        add_counts(target, slot.bucket, n);
      }
    }
  }
}

void QuantileStore::sketch_merge(const Sketch& other) {
  Sketch& s = *sketch_;
  if (s.integer_keys && !other.integer_keys) to_float_keys();
  if (!s.integer_keys && other.integer_keys) {
    // Bring the other sketch to float pages first (a copy: `other` is const).
    QuantileStore copy(cap_, exact_per_page_, count32_limit_);
    copy.sketch_ = std::make_unique<Sketch>(other);
    copy.to_float_keys();
    sketch_merge(*copy.sketch_);
    return;
  }
  for (const auto& [key, page] : other.pages) {
    if (!page.dense()) {
      add_to_page(key, s.pages[key], page.values);
      continue;
    }
    Page& target = s.pages[key];
    make_dense(target);
    widen_for(target, static_cast<std::uint64_t>(page.count));
    if (target.counts64.empty()) {
      // Both 32-bit: the sum fits (it is at most the limit).
      for (std::size_t b = 0; b < kBuckets; ++b) target.counts32[b] += page.counts32[b];
    } else {
      for (std::size_t b = 0; b < kBuckets; ++b) target.counts64[b] += bucket_count(page.counts32, page.counts64, b);
    }
    target.count += page.count;
  }
}

bool QuantileStore::unsettled() const noexcept {
  if (!sketch_) return static_cast<std::size_t>(count_) > cap_;
  return !values_.empty() || !blocks_.empty();
}

void QuantileStore::save(ByteWriter& out) const {
  if (!unsettled()) {
    save_settled(out);
    return;
  }
  // The bytes of the canonical form, which reads and merges would reach.
  QuantileStore settled(*this);
  settled.settle();
  settled.save_settled(out);
}

void QuantileStore::save_settled(ByteWriter& out) const {
  out.u64(cap_);
  out.u64(exact_per_page_);
  out.u64(count32_limit_);
  out.i64(count_);
  out.boolean(sketch_ != nullptr);
  if (!sketch_) {
    // The values as gather() would join them, written from their blocks:
    // joining them would hold the store twice while a checkpoint is taken.
    std::size_t total = values_.size();
    for (const auto& block : blocks_) total += block.values.size();
    out.reserve(8 + total * sizeof(double));
    out.u64(total);
    out.f64s_elements(values_);
    for (const auto& block : blocks_) out.f64s_elements(block.values);
    return;
  }
  out.boolean(sketch_->integer_keys);
  out.u64(sketch_->pages.size());
  for (const auto& [key, page] : sketch_->pages) {
    out.i64(key);
    out.i64(page.count);
    out.boolean(page.dense());
    if (!page.dense()) {
      out.f64s(page.values);
      continue;
    }
    std::uint64_t nonzero = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) nonzero += bucket_count(page.counts32, page.counts64, b) != 0 ? 1 : 0;
    out.u64(nonzero);
    for (std::size_t b = 0; b < kBuckets; ++b) {
      const std::uint64_t n = bucket_count(page.counts32, page.counts64, b);
      if (n == 0) continue;
      out.u32(static_cast<std::uint32_t>(b));
      out.u64(n);
    }
  }
}

namespace {

[[noreturn]] void corrupt(const char* what) {
  throw RuntimeFailure(std::string("corrupt quantile store bytes: ") + what);
}

// The nonzero buckets of a dense page as save() writes them: ascending, each
// once, summing to the page's count.
void load_buckets(ByteReader& in, std::int64_t count, std::vector<std::uint32_t>& counts32,
                  std::vector<std::uint64_t>& counts64) {
  const std::size_t nonzero = in.length(12);
  std::int64_t in_page = 0;
  std::uint32_t previous_bucket = 0;
  for (std::size_t j = 0; j < nonzero; ++j) {
    const std::uint32_t bucket = in.u32();
    const std::uint64_t n = in.u64();
    if (bucket >= kBuckets || n == 0 || n > static_cast<std::uint64_t>(count)) corrupt("a bucket out of range");
    if (j > 0 && bucket <= previous_bucket) corrupt("a bucket out of order or twice");
    previous_bucket = bucket;
    if (counts64.empty()) {
      counts32[bucket] = static_cast<std::uint32_t>(n);
    } else {
      counts64[bucket] = n;
    }
    in_page += static_cast<std::int64_t>(n);
  }
  if (in_page != count) corrupt("a page's buckets do not sum to its count");
}

}  // namespace

void QuantileStore::load(ByteReader& in) {
  const auto cap = static_cast<std::size_t>(in.u64());
  const auto exact_per_page = static_cast<std::size_t>(in.u64());
  const std::uint64_t count32_limit = in.u64();
  QuantileStore loaded(cap, exact_per_page, count32_limit);
  loaded.count_ = in.i64();
  if (loaded.count_ < 0 || loaded.exact_per_page_ == 0) corrupt("a negative count or no room per page");
  if (!in.boolean()) {
    loaded.values_ = in.f64s<ScratchVector<double>>();
    if (static_cast<std::int64_t>(loaded.values_.size()) != loaded.count_ ||
        loaded.values_.size() > loaded.cap_) {
      corrupt("the values do not match the count");
    }
    loaded.sorted_ = loaded.values_.empty();
    *this = std::move(loaded);
    return;
  }
  loaded.sketch_ = std::make_unique<Sketch>();
  loaded.sketch_->integer_keys = in.boolean();
  const std::size_t pages = in.length(17);
  std::int64_t total = 0;
  for (std::size_t i = 0; i < pages; ++i) {
    const std::int64_t key = in.i64();
    Page& page = loaded.sketch_->pages[key];
    page.count = in.i64();
    if (page.count <= 0) corrupt("an empty page");
    if (!in.boolean()) {
      page.values = in.f64s();
      if (static_cast<std::int64_t>(page.values.size()) != page.count) corrupt("a page's values do not match its count");
    } else {
      if (static_cast<std::uint64_t>(page.count) > loaded.count32_limit_) {
        page.counts64.assign(kBuckets, 0);
      } else {
        page.counts32.assign(kBuckets, 0);
      }
      load_buckets(in, page.count, page.counts32, page.counts64);
    }
    total += page.count;
  }
  if (loaded.sketch_->pages.size() != pages) corrupt("a page twice");
  if (total != loaded.count_) corrupt("the pages do not sum to the count");
  *this = std::move(loaded);
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

std::int64_t QuantileResult::count() const noexcept { return store_->count_; }

bool QuantileResult::exact() const noexcept { return store_->exact(); }

double QuantileResult::resolution(double x) const {
  const auto& sketch = store_->sketch_;
  if (!sketch || sketch->integer_keys) return 0.0;
  const Slot slot = float_slot(x);
  const auto it = sketch->pages.find(slot.page);
  if (it == sketch->pages.end() || !it->second.dense()) return 0.0;
  return float_bucket_high(slot.page, slot.bucket) - float_bucket_low(slot.page, slot.bucket);
}

double QuantileResult::order_statistic(std::int64_t rank) const {
  const auto& sketch = store_->sketch_;
  if (!sketch) return sorted_values()[static_cast<std::size_t>(rank - 1)];
  std::int64_t below = 0;
  for (const auto& [key, page] : sketch->pages) {
    if (below + page.count < rank) {
      below += page.count;
      continue;
    }
    const std::int64_t within = rank - below;  // 1-based rank inside the page
    if (!page.dense()) {
      // A page holds at most exact_per_page values: selected in a copy.
      std::vector<double> values = page.values;
      const auto at = values.begin() + (within - 1);
      std::nth_element(values.begin(), at, values.end());
      return *at;
    }
    std::int64_t before = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) {
      const auto here = static_cast<std::int64_t>(bucket_count(page.counts32, page.counts64, b));
      if (before + here < within) {
        before += here;
        continue;
      }
      if (sketch->integer_keys) return integer_value(key, b);
      const double low = float_bucket_low(key, b);
      const double high = float_bucket_high(key, b);
      return low + (high - low) * (static_cast<double>(within - before) / static_cast<double>(here));
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

QuantileInterval QuantileResult::interval(double alpha, double level) const {
  const std::int64_t r = count();
  const double inf = std::numeric_limits<double>::infinity();
  if (r == 0) return {-inf, inf};
  const double tail = (1.0 - level) / 2.0;
  // X_(l) <= q_α <= X_(u) with probability >= level for l = k_low and
  // u = k_high + 1 (P(Bin <= l − 1) < tail, P(Bin <= u − 1) >= 1 − tail).
  // With l = 0 or u = R + 1 the bound is beyond the sample: that end is open.
  const std::int64_t k_low = binomial_count(r, alpha, tail);
  const std::int64_t k_high = binomial_count(r, alpha, 1.0 - tail);
  QuantileInterval bounds;
  bounds.low = k_low >= 1 ? order_statistic(std::min(k_low, r)) : -inf;
  bounds.high =
      k_high < r ? order_statistic(std::min<std::int64_t>(std::max<std::int64_t>(k_high, 1) + 1, r)) : inf;
  return bounds;
}

QuantileEstimate QuantileResult::quantile(double alpha, double level) const {
  const std::int64_t r = count();
  if (r == 0) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan, nan, nan};
  }
  const auto rank = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(std::ceil(alpha * static_cast<double>(r))), 1, r);
  const QuantileInterval bounds = interval(alpha, level);
  QuantileEstimate est;
  est.low = bounds.low;
  est.high = bounds.high;
  est.value = order_statistic(rank);
  const double z = bm::quantile(bm::normal_distribution<double, engine::MathPolicy>(), 1.0 - (1.0 - level) / 2.0);
  est.se = (est.high - est.low) / (2.0 * z);
  return est;
}

double QuantileResult::fraction_at_most(double x) const {
  if (count() == 0) return std::numeric_limits<double>::quiet_NaN();
  const auto& sketch = store_->sketch_;
  std::int64_t hits = 0;
  if (!sketch) {
    if (std::isnan(x)) return 0.0;
    const std::span<const double> sorted = sorted_values();
    hits = std::upper_bound(sorted.begin(), sorted.end(), x) - sorted.begin();
  } else {
    for (const auto& [key, page] : sketch->pages) {
      if (!page.dense()) {
        hits += std::count_if(page.values.begin(), page.values.end(), [x](double v) { return v <= x; });
        continue;
      }
      for (std::size_t b = 0; b < kBuckets; ++b) {
        const double top = sketch->integer_keys ? integer_value(key, b) : float_bucket_high(key, b);
        if (top <= x) hits += static_cast<std::int64_t>(bucket_count(page.counts32, page.counts64, b));
      }
    }
  }
  return static_cast<double>(hits) / static_cast<double>(count());
}

double QuantileResult::fraction_equal(double x) const {
  if (count() == 0) return std::numeric_limits<double>::quiet_NaN();
  const auto& sketch = store_->sketch_;
  std::int64_t hits = 0;
  if (!sketch) {
    const std::span<const double> sorted = sorted_values();
    const auto [first, last] = std::equal_range(sorted.begin(), sorted.end(), x);
    hits = last - first;
  } else {
    const bool integers = sketch->integer_keys;
    if (integers && !is_integer_key(x)) return 0.0;
    const Slot slot = integers ? integer_slot(x) : float_slot(x);
    const auto it = sketch->pages.find(slot.page);
    if (it != sketch->pages.end()) {
      const auto& page = it->second;
      if (!page.dense()) {
        hits = std::count(page.values.begin(), page.values.end(), x);
      } else if (integers) {
        hits = static_cast<std::int64_t>(bucket_count(page.counts32, page.counts64, slot.bucket));
      } else {
        return std::numeric_limits<double>::quiet_NaN();
      }
    }
  }
  return static_cast<double>(hits) / static_cast<double>(count());
}

std::span<const double> QuantileResult::sorted_values() const {
  if (store_->sketch_) return {};
  return store_->values_;
}

}  // namespace lbmc::engine
