// The cubic guide: each bucket's interpolating cubic and its certificate.
#include "lbmc/dist/cubic_cell_guide.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <numbers>
#include <optional>
#include <vector>

namespace lbmc::dist {

namespace {

using Cubic = std::array<long double, 4>;  // coefficients of r^0 .. r^3

// The position t(u) of u in a table (design note): u in cell i, the first
// with u < thr[i], lies (u - thr[i-1])/(thr[i] - thr[i-1]) of the way from
// i - 1 to i.
long double position(const std::vector<std::uint64_t>& thr, std::size_t i, std::uint64_t u) {
  const long double within = static_cast<long double>(u - thr[i - 1]) / static_cast<long double>(thr[i] - thr[i - 1]);
  return static_cast<long double>(i - 1) + within;
}

// The cubic through (x_k, y_k), k = 0..3, in monomials of x (Newton's
// divided differences, expanded).
Cubic interpolate(const std::array<long double, 4>& x, std::array<long double, 4> y) {
  for (std::size_t k = 1; k < 4; ++k) {
    for (std::size_t j = 3; j >= k; --j) y[j] = (y[j] - y[j - 1]) / (x[j] - x[j - k]);
  }
  Cubic c{y[3], 0.0L, 0.0L, 0.0L};  // Horner on the Newton form: c = c·(x - x_k) + y_k
  for (std::size_t k = 3; k-- > 0;) {
    for (std::size_t d = 3; d >= 1; --d) c[d] = c[d - 1] - c[d] * x[k];
    c[0] = -c[0] * x[k] + y[k];
  }
  return c;
}

long double evaluate(const CubicCellGuide::Bucket& b, long double r) {
  return b.c[0] + r * (b.c[1] + r * (static_cast<long double>(b.c[2]) + r * b.c[3]));
}

// The bucket [start, start + width) of the table's cells 1..n: its cubic
// in the offset r, interpolating first + t - 1/2, where it can be certified
// (design note).
std::optional<CubicCellGuide::Bucket> fit(const InversionTable& table, std::int64_t first, std::uint64_t start,
                                          std::uint64_t width) {
  const std::vector<std::uint64_t>& thr = table.thresholds();
  const std::size_t n = table.size();
  const auto value = [&](std::size_t i, std::uint64_t u) {
    return static_cast<long double>(first) + position(thr, i, u) - 0.5L;
  };
  const std::uint64_t end = start + (width - 1);  // the last u of the bucket
  if (start < thr[0] || end >= thr[n]) return std::nullopt;  // reaches a tail cell
  const long double span = static_cast<long double>(width - 1);
  std::array<long double, 4> x{}, y{};
  for (std::size_t k = 0; k < 4; ++k) {
    const double node = (1.0 + std::cos(static_cast<double>(2 * k + 1) * std::numbers::pi / 8)) / 2;  // where hardly matters
    const auto offset = static_cast<std::uint64_t>(node * static_cast<double>(width - 1));
    x[k] = static_cast<long double>(offset) / span;
    y[k] = value(table.locate(start + offset), start + offset);
  }
  const Cubic in_x = interpolate(x, y);
  CubicCellGuide::Bucket b{};
  long double scale = 1.0L;
  for (std::size_t d = 0; d < 4; ++d, scale /= span) b.c[d] = static_cast<double>(in_x[d] * scale);

  // The certificate: on each cell's part of the bucket t is linear, so the
  // error Q - t is a cubic there, largest in magnitude at an end of the
  // part or where its derivative vanishes (a root of a quadratic, in the
  // bucket's unit coordinate x = r/span for its conditioning).
  long double a[4];
  for (int d = 0; d < 4; ++d) a[d] = static_cast<long double>(b.c[d]) * std::pow(span, static_cast<long double>(d));
  long double worst = 0.0L;
  for (std::size_t i = table.locate(start); i <= n && thr[i - 1] <= end; ++i) {
    if (thr[i] == thr[i - 1]) continue;  // a cell of no width holds no u
    const std::uint64_t lo = std::max(start, thr[i - 1]);
    const std::uint64_t hi = std::min(end, thr[i] - 1);
    const long double r_lo = static_cast<long double>(lo - start);
    const long double r_hi = static_cast<long double>(hi - start);
    const long double t_lo = value(i, lo);
    const long double t_hi = value(i, hi);
    const auto error = [&](long double r) {
      const long double along = r_hi > r_lo ? (r - r_lo) / (r_hi - r_lo) : 0.0L;
      return std::fabs(evaluate(b, r) - (t_lo + along * (t_hi - t_lo)));
    };
    worst = std::max({worst, error(r_lo), error(r_hi)});
    if (hi == lo) continue;
    // Q'(x) = a1 + 2 a2 x + 3 a3 x^2 = the slope of t, in x.
    const long double slope = (t_hi - t_lo) / (r_hi - r_lo) * span;
    const long double qa = 3.0L * a[3], qb = 2.0L * a[2], qc = a[1] - slope;
    const long double disc = qb * qb - 4.0L * qa * qc;
    if (!(disc >= 0.0L)) continue;
    const long double root = std::sqrt(disc);
    const long double big = qb >= 0.0L ? -(qb + root) / 2.0L : (root - qb) / 2.0L;  // no cancellation
    for (const long double flat : {qa != 0.0L ? big / qa : 0.0L, big != 0.0L ? qc / big : 0.0L}) {
      const long double r = flat * span;
      if (r > r_lo && r < r_hi) worst = std::max(worst, error(r));
    }
  }
  // The draw's rounding in double (Estrin's scheme, design note): at most
  // gamma_5 · sum |c_d| r^d; 8 units of 2^-53 cover it and this
  // evaluation's own rounding.
  long double magnitude = 0.0L;
  long double power = 1.0L;
  for (int d = 0; d < 4; ++d, power *= span) magnitude += std::fabs(static_cast<long double>(b.c[d])) * power;
  worst += 8.0L * 0x1p-53L * magnitude;
  // |Q| < 2^51, as the draw's rounding needs.
  if (!(worst < CubicCellGuide::kDelta) || !(magnitude < 0x1p50L)) return std::nullopt;
  return b;
}

}  // namespace

CubicCellGuide::CubicCellGuide(const InversionTable& table, std::int64_t first) : first_(first) {
  if (table.size() == 0) return;
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr std::size_t kBuckets = std::size_t{1} << kBucketBits;
  constexpr std::size_t kSubBuckets = std::size_t{1} << kSubBucketBits;
  constexpr std::uint64_t kWidth = std::uint64_t{1} << kShift;
  constexpr std::uint64_t kSubWidth = std::uint64_t{1} << kSubShift;
  std::vector<Bucket> buckets(kBuckets);
  std::vector<Bucket> subs;
  std::size_t certified = 0;
  std::size_t certified_subs = 0;
  for (std::size_t g = 0; g < kBuckets; ++g) {
    const std::uint64_t start = static_cast<std::uint64_t>(g) * kWidth;
    if (const std::optional<Bucket> b = fit(table, first, start, kWidth)) {
      buckets[g] = *b;
      ++certified;
      continue;
    }
    buckets[g] = Bucket{{kNaN, static_cast<double>(subs.size()), 0.0, 0.0}};
    for (std::size_t s = 0; s < kSubBuckets; ++s) {
      const std::optional<Bucket> b = fit(table, first, start + s * kSubWidth, kSubWidth);
      subs.push_back(b ? *b : Bucket{{kNaN, 0.0, 0.0, 0.0}});
      certified_subs += b ? 1 : 0;
    }
  }
  const double share = static_cast<double>(certified) / static_cast<double>(kBuckets);
  const double sub_share = static_cast<double>(certified_subs) / static_cast<double>(kBuckets * kSubBuckets);
  // What nearby_value's threshold and the search are left: what no cubic
  // certifies, and 2·delta of what one does.
  if (1.0 - (share + sub_share) * (1.0 - 2.0 * kDelta) > kMostUnsettled) return;
  buckets_ = SharedArray<Bucket>(std::move(buckets));
  sub_buckets_ = SharedArray<Bucket>(std::move(subs));
}

}  // namespace lbmc::dist
