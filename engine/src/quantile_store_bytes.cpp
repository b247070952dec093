// The quantile store as bytes (quantile_store.hpp): its canonical form
// written, and read back with every count checked.
#include "lbmc/engine/quantile_store.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/serial.hpp"
#include "sketch_pages.hpp"

namespace lbmc::engine {

using namespace sketch_pages;

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

}  // namespace lbmc::engine
