// The tables of FixedPower and its slow path (see fixed_power.hpp).
#include "lbmc/dist/fixed_power.hpp"

#include <vector>

#include "lbmc/dist/double_double.hpp"

// No fused multiply-add anywhere in this file (sampler_support.hpp).
LBMC_SAMPLER_NO_FP_CONTRACT

namespace lbmc::dist {
namespace {

using dd::DD;

// The midpoint 1 + (i + 1/2)/N of cell i.
double cell_center(std::uint64_t i) {
  return 1.0 + (static_cast<double>(i) + 0.5) / static_cast<double>(FixedPower::kCells);
}

// log of every cell's midpoint, shared by every a (solved on first use).
const std::vector<DD>& cell_center_logs() {
  static const std::vector<DD> logs = [] {
    std::vector<DD> out;
    for (std::uint64_t i = 0; i < FixedPower::kCells; ++i) out.push_back(dd::dd_log(DD{cell_center(i)}));
    return out;
  }();
  return logs;
}

}  // namespace

FixedPower::FixedPower(double a, double scale) : a_(a), scale_(scale) {
  using namespace dd;  // NOLINT(google-build-using-namespace): DD and its overload set
  constexpr std::uint64_t kBias = 1023;
  constexpr std::uint64_t kLowestPower = 64;  // binade 0 holds [2^-64, 2^-63)
  // x^a = (x^(a/2^j))^(2^j): the tables serve a/2^j <= kMaxTabulatedExponent,
  // and the scale joins after the squarings when there are any.
  double tabulated = a;
  while (tabulated > kMaxTabulatedExponent && squarings_ < kMaxSquarings) {
    tabulated *= 0.5;
    ++squarings_;
  }
  const double table_scale = squarings_ == 0 ? scale : 1.0;
  // Past kMaxSquarings no x uses the tables: a first binade past every
  // biased exponent (2047) sends them all out of range.
  first_binade_ = tabulated <= kMaxTabulatedExponent ? kBias - kLowestPower : std::uint64_t{1} << 12;
  if (tabulated > kMaxTabulatedExponent) return;
  auto tables = std::make_shared<Tables>();
  const std::vector<DD>& logs = cell_center_logs();
  for (std::uint64_t i = 0; i < kCells; ++i) {
    Cell& cell = tables->cells[i];
    cell.center = cell_center(i);
    cell.inverse = 1.0 / cell.center;
    cell.power = to_double(dd_exp(DD{tabulated} * logs[i]));
  }
  // scale·2^(k·a) by repeated products of 2^(±a) outwards from k = 0 (64
  // double-double products lose less than 2^-95).
  const DD ln2 = dd_ln2();
  const DD up = dd_exp(DD{tabulated} * ln2);
  const DD down = dd_exp(-(DD{tabulated} * ln2));
  DD power = DD{table_scale};
  for (std::uint64_t b = kLowestPower; b < kBinades; ++b, power = power * up) {
    tables->binade_scale[b] = to_double(power);
  }
  power = DD{table_scale} * down;
  for (std::uint64_t b = kLowestPower; b-- > 0; power = power * down) tables->binade_scale[b] = to_double(power);
  // C(a, j) = C(a, j-1)·(a - j + 1)/j, in double-double then rounded.
  DD binomial{1.0};
  tables->coefficients[0] = 1.0;
  for (int j = 1; j <= kDegree; ++j) {
    binomial = binomial * (DD{tabulated} - DD{static_cast<double>(j - 1)}) / DD{static_cast<double>(j)};
    tables->coefficients[static_cast<std::size_t>(j)] = to_double(binomial);
  }
  tables_ = std::move(tables);
}

double FixedPower::outside(double x) const noexcept {
  return scale_ * portable_exp(*math_, a_ * portable_log(*math_, x));
}

}  // namespace lbmc::dist
