// The tables of portable_exp and portable_log, their out-of-range cases, and
// the error bounds stated in portable_exp_log.hpp.
//
// Error of portable_log (x normal; u = 2^-53, absolute errors):
// - r = RN(RN(z - c)·RN(1/c)) with z - c exact: |r - (z-c)/c| <= 2u·|r| <=
//   2u·2^-8 = 2^-60 (0 in the cell of 1, where c = 1/c = 1);
// - Taylor remainder of log1p after degree 7: |r|^8/8/(1 - |r|) < 2^-67;
//   rounding in q, r2·q and the low sum: below 2^-66 together (|r2·q| <=
//   2^-17, |k·ln2_lo + lo| <= 2^-32);
// - r + low rounded: u·|r + low| <= 2^-61;
// - w = k·ln2_hi + log_hi is exact (multiples of 2^-42 below 2^10), and
//   ln2_lo, log_lo carry the rest to 2^-96;
// so before the last addition the error is below 2^-60 + 2^-61 + 2^-65 <
// 2^-59.4, and the last addition adds u·|result|: |error| <= u·|log x| +
// 2^-59.
// Error of portable_exp (relative, |y| < 708): r = y - n·ln2/N has an error
// below 2u·|r| + 2^-79 < 2^-60.4 (|r| <= (1/2 + 2^-34)·ln2/N < 2^-8.5);
// the Taylor remainder of expm1 after degree 5 is below |r|^6/720·e^|r| <
// 2^-60.6; tail·expm1(r), left out, is below 2^-53·2^-8.5; the roundings of
// expm1's sum, of tail + expm1 and of scale·(...) are each below u·2^-8.5;
// together < 0.022u, and the last addition rounds once: <= 1.03u.
#include "lbmc/dist/portable_exp_log.hpp"

#include <cmath>
#include <limits>

#include "lbmc/dist/double_double.hpp"

// No fused multiply-add anywhere in this file (sampler_support.hpp).
LBMC_SAMPLER_NO_FP_CONTRACT

namespace lbmc::dist {
namespace {

// a rounded to the nearest multiple of `step` (a power of two): exact steps.
double round_to_multiple(double a, double step) { return std::round(a / step) * step; }

ExpLogTables build_exp_log_tables() {
  using namespace dd;  // NOLINT(google-build-using-namespace): DD and its overload set
  constexpr int kCells = ExpLogTables::kCells;
  ExpLogTables t;
  const DD ln2 = dd_ln2();
  t.ln2_hi = round_to_multiple(ln2.hi, 0x1p-42);
  t.ln2_lo = to_double(ln2 - DD{t.ln2_hi});
  const DD ln2_by_n = ln2 / DD{static_cast<double>(kCells)};
  t.ln2_by_n_hi = round_to_multiple(ln2_by_n.hi, 0x1p-43);
  t.ln2_by_n_lo = to_double(ln2_by_n - DD{t.ln2_by_n_hi});
  t.n_by_ln2 = to_double(DD{static_cast<double>(kCells)} / ln2);

  const auto one_bits = std::bit_cast<std::uint64_t>(1.0);
  for (int i = 0; i < kCells; ++i) {
    const std::uint64_t first = ExpLogTables::kLogOffset + (static_cast<std::uint64_t>(i) << 45);
    const std::uint64_t last = first + (std::uint64_t{1} << 45);  // exclusive
    const bool holds_one = first <= one_bits && one_bits < last;
    // Within one binade the ends have 9 significant bits: their mean is exact.
    const double center =
        holds_one ? 1.0 : 0.5 * (std::bit_cast<double>(first) + std::bit_cast<double>(last));
    const DD log_center = dd_log(DD{center});
    ExpLogTables::LogCell& cell = t.log[static_cast<std::size_t>(i)];
    cell.center = center;
    cell.inverse = 1.0 / center;
    cell.log_hi = round_to_multiple(log_center.hi, 0x1p-42);
    cell.log_lo = to_double(log_center - DD{cell.log_hi});
  }
  for (int j = 0; j < kCells; ++j) {
    const DD power = dd_exp(ln2 * DD{static_cast<double>(j) / kCells});  // 2^(j/N), in [1, 2)
    ExpLogTables::ExpCell& cell = t.exp[static_cast<std::size_t>(j)];
    cell.tail = to_double((power - DD{power.hi}) / DD{power.hi});
    cell.bits = std::bit_cast<std::uint64_t>(power.hi) - (static_cast<std::uint64_t>(j) << 45);
  }
  return t;
}

}  // namespace

const ExpLogTables& exp_log_tables() {
  static const ExpLogTables tables = build_exp_log_tables();
  return tables;
}

namespace detail {

double portable_log_special(const ExpLogTables& t, double x) noexcept {
  if (x == 0.0) return -std::numeric_limits<double>::infinity();
  if (!(x > 0.0)) return std::numeric_limits<double>::quiet_NaN();  // negative or NaN
  if (x == std::numeric_limits<double>::infinity()) return x;
  // A subnormal: 2^52·x is normal (exact scaling).
  return portable_log_core(t, std::bit_cast<std::uint64_t>(x * 0x1p52), -52.0);
}

double portable_exp_special(const ExpLogTables& t, double y) noexcept {
  if (std::isnan(y)) return y;
  if (y >= 710.0) return std::numeric_limits<double>::infinity();  // e^710 > DBL_MAX
  if (y <= -746.0) return 0.0;                                      // e^-746 < 2^-1075
  // 2^floor(n/N) is out of the normal range by at most 1 above, 55 below:
  // shift it in, then scale the result back (overflowing, or rounding to
  // the subnormal grid, there).
  if (y > 0.0) return 2.0 * portable_exp_core(t, y, -1);
  return 0x1p-1022 * portable_exp_core(t, y, 1022);
}

}  // namespace detail
}  // namespace lbmc::dist
