// exp and log in our own code, for the samplers that must give the same bits
// with every C library and on a GPU: the gamma sampler's exact test, the
// table, wedge test and tail of the gamma's X^K ziggurat (gamma_ziggurat.hpp),
// FixedPower's path outside its tables (fixed_power.hpp), and the samplers of
// the counter-based stream (PortableMath; portable_samplers.hpp).
//
// Design note
// - Both are table methods in the manner of Tang (1989, "Table-driven
//   implementation of the exponential function in IEEE floating-point
//   arithmetic", ACM TOMS 15:144-157; 1990, the logarithm, ACM TOMS
//   16:378-400), with N = 128 cells, a short Taylor polynomial on the
//   reduced argument and no fused multiply-add. The tables are solved once
//   per process in double-double (double_double.hpp) and rounded to double,
//   so they are the same everywhere (portable_exp_log.cpp).
// - log(x), x a positive normal double: x = 2^k·z with z in [0.6855, 1.3711)
//   (k and z from the bits), z in cell i (2^-7 of z's binade wide) around
//   its midpoint c_i (the cell that holds 1 has c = 1), r = (z - c_i)·(1/c_i)
//   with z - c_i exact (Sterbenz), |r| <= 2^-8, and
//     log x = k·ln2 + log c_i + log1p(r),
//   log1p(r) by Taylor to degree 7 (remainder <= |r|^8/8/(1 - |r|) < 2^-67).
//   ln2 and log c_i are split as hi + lo with hi a multiple of 2^-42, so that
//   k·ln2_hi + (log c_i)_hi is exact. Error (proof in portable_exp_log.cpp):
//   |computed - log x| <= 2^-53·|log x| + 2^-59.
// - exp(y), |y| < 708: y = (n/N)·ln2 + r, n = round(y·N/ln2), |r| <= ln2/256
//   (r within 2^-60 of y - (n/N)·ln2), exp(y) = 2^(n/N)·exp(r) with 2^(j/N)
//   tabulated as hi·(1 + tail) and expm1(r) by Taylor to degree 5
//   (remainder < 2^-60). Error: relative, <= 1.03·2^-53. Beyond 708 in
//   magnitude (and NaN): out of line, overflowing to inf above 709.78 and
//   going subnormal then 0 below -708.4 (a subnormal result is rounded
//   twice: once to 53 bits, once to the subnormal grid).
// - Errors of this size (~1e-16 relative) move a sampler's cdf by ~1e-16,
//   which a goodness-of-fit test would need ~1e32 draws to see.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "lbmc/engine/host_device.hpp"

namespace lbmc::dist {

//! The cells of portable_log and portable_exp, and their split constants.
struct ExpLogTables {
  //! Cells per binade-sized range (of z for log, of n mod N for exp).
  static constexpr int kCells = 128;
  //! Cell i of log: z in it has (bits(z) - kLogOffset) >> 45 == i.
  struct LogCell {
    double center;   //!< c_i: the midpoint, or 1 for the cell that holds 1
    double inverse;  //!< 1/c_i rounded
    double log_hi;   //!< log c_i rounded to a multiple of 2^-42
    double log_lo;   //!< log c_i - log_hi rounded
  };
  //! Cell j of exp: 2^(j/N) = hi·(1 + tail), with hi in [1, 2).
  struct ExpCell {
    double tail;           //!< 2^(j/N)/hi - 1 rounded
    std::uint64_t bits;    //!< bits(hi) - j·2^45, so that adding n·2^45 gives bits(2^floor(n/N)·hi)
  };
  //! bits(0.6855...) - the bits of the smallest z; 1 is the midpoint of a cell.
  static constexpr std::uint64_t kLogOffset = 0x3fe6000000000000ULL - (std::uint64_t{1} << 44);
  std::array<LogCell, kCells> log{};
  std::array<ExpCell, kCells> exp{};
  double ln2_hi = 0.0;        //!< ln 2 rounded to a multiple of 2^-42
  double ln2_lo = 0.0;        //!< ln 2 - ln2_hi rounded
  double ln2_by_n_hi = 0.0;   //!< ln 2 / N rounded to a multiple of 2^-43 (36 bits: n·it is exact)
  double ln2_by_n_lo = 0.0;   //!< ln 2 / N - ln2_by_n_hi rounded
  double n_by_ln2 = 0.0;      //!< N / ln 2 rounded (only picks n)
};

//! The tables, solved on first use (thread-safe; microseconds).
const ExpLogTables& exp_log_tables();

namespace detail {
//! log x for x outside the positive normal doubles: 0 gives -inf, a
//! negative or NaN gives NaN, +inf gives +inf, a subnormal its logarithm.
double portable_log_special(const ExpLogTables& t, double x) noexcept;
//! exp y for |y| >= 708 or NaN.
double portable_exp_special(const ExpLogTables& t, double y) noexcept;

//! log(2^extra · x) for the positive normal double whose bits are ix.
LBMC_HOST_DEVICE inline double portable_log_core(const ExpLogTables& t, std::uint64_t ix, double extra) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  const std::uint64_t shifted = ix - ExpLogTables::kLogOffset;
  const auto i = static_cast<std::size_t>((shifted >> 45) % ExpLogTables::kCells);
  const auto k = static_cast<std::int64_t>(shifted) >> 52;  // arithmetic shift: floor
  const double z = std::bit_cast<double>(ix - (shifted & (std::uint64_t{0xfff} << 52)));
  const ExpLogTables::LogCell& cell = t.log[i];
  const double r = (z - cell.center) * cell.inverse;
  const double kd = static_cast<double>(k) + extra;
  const double w = kd * t.ln2_hi + cell.log_hi;  // exact: multiples of 2^-42 below 2^10
  // log1p(r) - r = r^2·(-1/2 + r/3 + r^2(-1/4 + r/5) + r^4(-1/6 + r/7)), Estrin's scheme.
  const double r2 = r * r;
  const double r4 = r2 * r2;
  const double q = (-0.5 + r * (1.0 / 3.0)) + r2 * (-0.25 + r * 0.2) + r4 * (-1.0 / 6.0 + r * (1.0 / 7.0));
  const double low = (kd * t.ln2_lo + cell.log_lo) + r2 * q;
  return w + (r + low);
}

//! exp y for |y| < 708: 2^floor(n/N) · hi_j · (1 + tail_j + expm1(r)).
LBMC_HOST_DEVICE inline double portable_exp_core(const ExpLogTables& t, double y, std::int64_t exponent_shift) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  constexpr double kRound = 0x1.8p52;  // adding it rounds to an integer held in the low bits
  const double shifted = y * t.n_by_ln2 + kRound;
  const std::uint64_t n_bits = std::bit_cast<std::uint64_t>(shifted);
  const double n = shifted - kRound;
  const double r = (y - n * t.ln2_by_n_hi) - n * t.ln2_by_n_lo;  // the first difference is exact
  const ExpLogTables::ExpCell& cell = t.exp[n_bits % ExpLogTables::kCells];
  const std::uint64_t scale_bits = cell.bits + (n_bits << 45) + (static_cast<std::uint64_t>(exponent_shift) << 52);
  const double scale = std::bit_cast<double>(scale_bits);
  // expm1(r) = r + r^2(1/2 + r/6) + r^4(1/24 + r/120).
  const double r2 = r * r;
  const double expm1 = r + (r2 * (0.5 + r * (1.0 / 6.0)) + (r2 * r2) * (1.0 / 24.0 + r * (1.0 / 120.0)));
  return scale + scale * (cell.tail + expm1);
}
}  // namespace detail

//! Natural logarithm; for a positive normal x, within 2^-53·|log x| + 2^-59
//! of the exact value. Other x: see detail::portable_log_special.
inline double portable_log(const ExpLogTables& t, double x) noexcept {
  constexpr std::uint64_t kSmallestNormal = 0x0010000000000000ULL;
  constexpr std::uint64_t kInfinity = 0x7ff0000000000000ULL;
  const auto ix = std::bit_cast<std::uint64_t>(x);
  if (ix - kSmallestNormal >= kInfinity - kSmallestNormal) [[unlikely]]
    return detail::portable_log_special(t, x);
  return detail::portable_log_core(t, ix, 0.0);
}

//! Exponential; relative error <= 2^-53·1.03 where the result is normal.
inline double portable_exp(const ExpLogTables& t, double y) noexcept {
  if (!(y < 708.0 && y > -708.0)) [[unlikely]]
    return detail::portable_exp_special(t, y);
  return detail::portable_exp_core(t, y, 0);
}

//! lbmc's own log and exp as the shared samplers' Math (ziggurat_table.hpp),
//! on the host and on a GPU (where `tables` points into device memory).
struct PortableMath {
  const ExpLogTables* tables;
  //! log x for a positive normal x (the samplers take logs of uniform_open01
  //! values only, which are in [2^-54, 1)).
  LBMC_HOST_DEVICE double log(double x) const noexcept {
    return detail::portable_log_core(*tables, std::bit_cast<std::uint64_t>(x), 0.0);
  }
  //! y < e^{-s} for |s| < 708 (the wedge tests' s are below r²/2 ≈ 7.4 for
  //! the normal and r ≈ 9.3 for the exponential).
  LBMC_HOST_DEVICE bool below_exp(double y, double s) const noexcept {
    return y < detail::portable_exp_core(*tables, -s, 0);
  }
};

}  // namespace lbmc::dist
