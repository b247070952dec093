// The quantile store's sketch (quantile_store.hpp): values binned into
// pages, sparse pages widened to bucket counts, integer keys turned to float
// ones, sketches merged; every result a function of the multiset of values.
#include "lbmc/engine/quantile_store.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "sketch_pages.hpp"

namespace lbmc::engine {

using namespace sketch_pages;

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

}  // namespace lbmc::engine
