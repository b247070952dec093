// x ↦ scale·x^a for one exponent a fixed at construction: the Weibull
// sampler's E^(1/K) and the small-shape gamma's Z^(1/K), in our own portable
// code.
//
// Design note
// - x = 2^k·z with z in [1, 2) read from the bits; z lies in one of 128
//   cells of width 2^-7 with midpoint c (exact), and z = c·(1 + r) with
//   r = (z - c)·(1/c), |r| <= 2^-8 (z - c is exact: Sterbenz). Then
//     scale·x^a = (scale·2^(k·a)) · c^a · (1 + r)^a,
//   the first two factors tabulated (one entry per binade k in [-64, 63],
//   one per cell; solved in double-double, double_double.hpp, and rounded)
//   and (1 + r)^a by its binomial series to degree 7 (coefficients
//   C(a, j)). For 0 < a <= 10 the series' terms past degree 7 shrink by
//   |r| each, so the remainder is at most |C(a, 8)|·|r|^8/(1 - |r|) <=
//   45·2^-64 < 2^-58.
// - Error, relative, where the result is normal, in units of u = 2^-53
//   (one rounding): the two table entries (u each), their product (u),
//   1 + series (u; the series' own roundings, r's two roundings and the
//   remainder add below 0.2u for a <= 10), the last product (u): below
//   5.2u < 2^-50.6. Far below what any goodness-of-fit test can see (a cdf
//   moved by ~1e-15 needs ~1e30 draws).
// - a > 10: x^a = (x^(a/2^j))^(2^j) with a/2^j <= 10 tabulated (j <= 6, so
//   a <= 640), and the scale applied after the j squarings: error below
//   2^j·6.2u (a = 100: j = 4, 2^-46.7).
// - x outside the tabulated binades ([2^-64, 2^64)), x not a positive
//   normal double, and every x when a > 640: out of line, as
//   scale·exp(a·log x) with portable_exp_log.hpp (same portability; error
//   below (2a·|log x| + a + 4)u).
// - Cost: three table loads, 21 floating-point operations, no division.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <memory>

#include "lbmc/dist/portable_exp_log.hpp"
#include "lbmc/dist/sampler_support.hpp"

namespace lbmc::dist {

//! scale·x^a for one a > 0 and scale > 0 (see the design note above).
class FixedPower {
 public:
  //! The largest exponent the tables serve; a larger a is halved until it
  //! fits (at most kMaxSquarings times), and past that every x takes the
  //! slow path.
  static constexpr double kMaxTabulatedExponent = 10.0;
  //! The most halvings of a (a up to 640).
  static constexpr int kMaxSquarings = 6;
  //! Cells per binade.
  static constexpr std::uint64_t kCells = 128;

  //! Builds the tables (about 130 double-double exponentials).
  //! Requires a > 0 and scale > 0, both finite (the sampler checks).
  FixedPower(double a, double scale);

  //! scale·x^a, x > 0.
  double operator()(double x) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const std::uint64_t binade = (bits >> 52) - first_binade_;  // wraps above for small x
    if (binade >= kBinades) [[unlikely]]
      return outside(x);
    const Tables& t = *tables_;
    const Cell& cell = t.cells[(bits >> 45) % kCells];
    const double z = std::bit_cast<double>((bits & kMantissa) | kOne);
    const double r = (z - cell.center) * cell.inverse;
    const double r2 = r * r;
    const double r4 = r2 * r2;
    const std::array<double, kDegree + 1>& c = t.coefficients;
    const double series =
        r * c[1] + (r2 * (c[2] + r * c[3]) + r4 * ((c[4] + r * c[5]) + r2 * (c[6] + r * c[7])));
    const double y = (t.binade_scale[binade] * cell.power) * (1.0 + series);
    if (squarings_ == 0) [[likely]]
      return y;
    return square_out(y);
  }

 private:
  static constexpr int kDegree = 7;
  static constexpr std::uint64_t kBinades = 128;
  static constexpr std::uint64_t kMantissa = (std::uint64_t{1} << 52) - 1;
  static constexpr std::uint64_t kOne = 0x3ff0000000000000ULL;  // bits of 1.0
  struct Cell {
    double center;   // 1 + (i + 1/2)/128
    double inverse;  // 1/center rounded
    double power;    // center^a rounded
  };
  struct Tables {
    std::array<Cell, kCells> cells{};
    std::array<double, kBinades> binade_scale{};  // scale·2^(k·a), k = binade - 64
    std::array<double, kDegree + 1> coefficients{};  // C(a, j)
  };

  double outside(double x) const noexcept;  // the slow path, out of line
  // scale·y^(2^squarings), y = x^(a/2^squarings) from the tables.
  double square_out(double y) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    for (int i = 0; i < squarings_; ++i) y *= y;
    return scale_ * y;
  }

  std::shared_ptr<const Tables> tables_;
  const ExpLogTables* math_ = &exp_log_tables();
  double a_;
  double scale_;
  int squarings_ = 0;           // a = tabulated exponent·2^squarings
  std::uint64_t first_binade_;  // biased exponent of the first tabulated binade
};

}  // namespace lbmc::dist
