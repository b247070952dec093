// The one-cut guide: buckets, cuts and the unsettled cell.
#include "lbmc/dist/cell_value_guide.hpp"

#include <bit>
#include <limits>
#include <stdexcept>
#include <utility>

namespace lbmc::dist {

namespace {

// The bucket [start, start + width) of a table's thresholds, from the first
// cell i whose threshold exceeds start: whole (in cell i), cut once (cells i
// and i + 1), or unsettled (two thresholds or more inside it).
enum class BucketKind { whole, cut, unsettled };

BucketKind kind_of(const std::vector<std::uint64_t>& thr, std::size_t i, std::uint64_t end) {
  if (thr[i] >= end) return BucketKind::whole;
  return thr[i + 1] >= end ? BucketKind::cut : BucketKind::unsettled;
}

// The share of the draws (of 2^63) that fall in unsettled buckets of a guide
// with `buckets` buckets.
double unsettled_share(const std::vector<std::uint64_t>& thr, std::size_t buckets) {
  const unsigned shift = static_cast<unsigned>(63 - std::countr_zero(buckets));
  std::size_t unsettled = 0;
  std::size_t i = 0;
  for (std::size_t g = 0; g < buckets; ++g) {
    const std::uint64_t start = static_cast<std::uint64_t>(g) << shift;
    while (thr[i] <= start) ++i;
    if (kind_of(thr, i, start + (std::uint64_t{1} << shift)) == BucketKind::unsettled) ++unsettled;
  }
  return static_cast<double>(unsettled) / static_cast<double>(buckets);
}

}  // namespace

CellValueGuide::CellValueGuide(const InversionTable& table, const SharedArray<std::int64_t>& values) {
  const std::vector<std::uint64_t>& thr = table.thresholds();
  const std::size_t n = table.size();
  if (values.size() != n + 2) throw std::logic_error("cell value guide: one value a cell");
  if (values[0] >= 0) throw std::logic_error("cell value guide: cell 0, the lower tail, must be marked negative");
  constexpr std::int64_t kWidest = std::numeric_limits<std::int32_t>::max();
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] > kWidest) return;  // values a bucket cannot hold
  }
  // The fewest buckets that leave at most kFewUnsettled of the draws to the
  // search; where none does, the fewest that leave at most kMostUnsettled.
  std::size_t buckets = 0;
  for (const double most : {kFewUnsettled, kMostUnsettled}) {
    for (std::size_t b = 1024; buckets == 0 && b <= kMostBuckets; b *= 2) {
      if (unsettled_share(thr, b) <= most) buckets = b;
    }
  }
  if (buckets == 0) return;
  shift_ = static_cast<unsigned>(63 - std::countr_zero(buckets));
  // A cell's value as a bucket holds it: -1 for every marked cell.
  const auto value_of = [&](std::size_t i) { return static_cast<std::int32_t>(values[i] < 0 ? -1 : values[i]); };
  std::vector<ValueBucket> guide(buckets);
  std::size_t i = 0;
  for (std::size_t g = 0; g < buckets; ++g) {
    const std::uint64_t start = static_cast<std::uint64_t>(g) << shift_;
    while (thr[i] <= start) ++i;
    switch (kind_of(thr, i, start + (std::uint64_t{1} << shift_))) {
      case BucketKind::whole: guide[g] = {InversionTable::kTop, {value_of(i), value_of(i)}}; break;
      case BucketKind::cut: guide[g] = {thr[i], {value_of(i), value_of(i + 1)}}; break;
      case BucketKind::unsettled: guide[g] = {InversionTable::kTop, {-1, -1}}; break;
    }
  }
  buckets_ = SharedArray(std::move(guide));
}

}  // namespace lbmc::dist
