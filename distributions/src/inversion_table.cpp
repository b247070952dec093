// The inversion table: quantized thresholds and the guide.
#include "lbmc/dist/inversion_table.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/pcg64_pair.hpp"
#include "lbmc/engine/scratch_vector.hpp"

namespace lbmc::dist {

OutputRange output_range(engine::Generator& gen, std::int64_t count) noexcept {
  std::uint64_t low = ~std::uint64_t{0};
  std::uint64_t high = 0;
  if (count >= 2) {
    engine::Pcg64Pair pair(gen);
    for (;;) {
      const std::uint64_t a = pair.first();
      const std::uint64_t b = pair.second();
      const std::uint64_t pair_low = a < b ? a : b;
      const std::uint64_t pair_high = a < b ? b : a;
      low = pair_low < low ? pair_low : low;
      high = pair_high > high ? pair_high : high;
      count -= 2;
      if (count < 2) break;
      pair.advance();
    }
    pair.leave_after_second(gen);
  }
  if (count == 1) {
    const std::uint64_t x = gen();
    low = x < low ? x : low;
    high = x > high ? x : high;
  }
  return {low >> 1, high >> 1};
}

// Each probability is quantized to a multiple of 2^-63 on its own and the
// thresholds are their exact integer partial sums, so no cell inherits the
// rounding of a cumulative sum. The rounding residue (~1e-15) goes to the
// most likely cell.
InversionTable::InversionTable(double lo, std::span<const double> probs, double below,
                               double above)
    : lo_(lo), below_(below), above_(above), n_(probs.size()) {
  constexpr double kOne = 0x1.0p63;
  auto quantize = [](double p) { return static_cast<std::uint64_t>(std::llround(p * 0x1.0p63)); };
  if (n_ == 0 || n_ >= (std::size_t{1} << 30)) throw std::logic_error("inversion table size");
  engine::ScratchVector<std::uint64_t> q(n_);  // every width written below
  std::uint64_t total = quantize(below) + quantize(above);
  std::size_t mode = 0;
  for (std::size_t j = 0; j < n_; ++j) {
    q[j] = quantize(probs[j]);
    total += q[j];
    if (probs[j] > probs[mode]) mode = j;
  }
  const auto residue = static_cast<double>(static_cast<std::int64_t>(kTop - total));
  if (!(std::abs(residue) <= 1e-9 * kOne) || static_cast<double>(q[mode]) + residue < 0.0) {
    throw engine::RuntimeFailure(
        fmt::format("inversion table: probabilities sum to 1 {:+.3g}", -residue / kOne));
  }
  q[mode] += kTop - total;  // modular arithmetic: adds the signed residue
  std::vector<std::uint64_t> thresholds(n_ + 2);
  thresholds[0] = quantize(below);
  for (std::size_t j = 0; j < n_; ++j) thresholds[j + 1] = thresholds[j] + q[j];
  thresholds[n_ + 1] = kTop;
  thresholds_ = SharedArray(std::move(thresholds));
  build_guide();
}

InversionTable::InversionTable(double lo, const std::vector<std::uint64_t>& widths)
    : lo_(lo), n_(widths.size() < 3 ? 0 : widths.size() - 2) {
  if (n_ == 0 || n_ >= (std::size_t{1} << 30)) throw std::logic_error("inversion table size");
  std::vector<std::uint64_t> thresholds(n_ + 2);
  std::uint64_t sum = 0;
  for (std::size_t j = 0; j < n_ + 2; ++j) {
    if (widths[j] > kTop - sum) throw std::logic_error("inversion table widths exceed 2^63");
    sum += widths[j];
    thresholds[j] = sum;
  }
  if (sum != kTop) throw std::logic_error("inversion table widths do not sum to 2^63");
  thresholds_ = SharedArray(std::move(thresholds));
  below_ = std::ldexp(static_cast<double>(widths.front()), -63);
  above_ = std::ldexp(static_cast<double>(widths.back()), -63);
  build_guide();
}

std::size_t InversionTable::bisect(std::size_t i, std::size_t bucket, std::uint64_t u) const noexcept {
  const std::uint64_t* thr = thresholds_.data();
  return static_cast<std::size_t>(std::upper_bound(thr + i, thr + guide_[bucket + 1] + 1, u) - thr);
}

double InversionTable::bisected_share(std::size_t buckets) const noexcept {
  // A draw u of bucket g is bisected when u >= the third threshold from the
  // bucket's first cell (locate's two steps end there), if that lies in g.
  const unsigned shift = static_cast<unsigned>(63 - std::countr_zero(buckets));
  std::uint64_t bisected = 0;
  std::size_t i = 0;
  for (std::size_t g = 0; g < buckets; ++g) {
    const std::uint64_t start = static_cast<std::uint64_t>(g) << shift;
    const std::uint64_t end = start + (std::uint64_t{1} << shift);
    while (thresholds_[i] <= start) ++i;
    if (i + 2 <= n_ + 1 && thresholds_[i + 2] < end) bisected += end - thresholds_[i + 2];
  }
  return std::ldexp(static_cast<double>(bisected), -63);
}

void InversionTable::build_guide() {
  // Guide (Chen & Asau 1974; see the header): guide[g] = the first cell whose
  // threshold exceeds the bucket start g·2^shift, and guide[buckets] = n + 1,
  // the end of the last bucket's search. The guide only shortens the search;
  // the cell found is the same.
  // (Binomial(4096, 1/2): 1024 buckets mispredict a branch on 1.5% more of
  // its draws than 4096 did, 2048 would on 0.5% more with twice the guide.)
  const std::size_t most = std::bit_ceil(std::max<std::size_t>(2 * (n_ + 2), 1024));
  std::size_t buckets = 1024;
  while (buckets < most && bisected_share(buckets) > kMostBisected) buckets *= 2;
  shift_ = static_cast<unsigned>(63 - std::countr_zero(buckets));
  std::vector<std::uint32_t> guide(buckets + 1);
  std::size_t i = 0;
  for (std::size_t g = 0; g <= buckets; ++g) {
    const std::uint64_t start = g < buckets ? static_cast<std::uint64_t>(g) << shift_ : thresholds_[n_ + 1] - 1;
    while (thresholds_[i] <= start) ++i;
    guide[g] = static_cast<std::uint32_t>(i);
  }
  guide_ = SharedArray(std::move(guide));
}

}  // namespace lbmc::dist
