// The table of the X^K ziggurat, its wedge test and its tail (see
// gamma_ziggurat.hpp).
#include "lbmc/dist/gamma_ziggurat.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <stdexcept>

#include "lbmc/dist/double_double.hpp"
#include "lbmc/engine/errors.hpp"
#include "ziggurat_solve.hpp"

// No fused multiply-add anywhere in this file (sampler_support.hpp): the
// table, the wedge test and the tail's test must round the same everywhere.
LBMC_SAMPLER_NO_FP_CONTRACT

namespace lbmc::dist {
namespace {

using dd::DD;

constexpr std::size_t kLayers = ZigguratTable<1024, false>::kLayers;
// The solve brackets the tail start x0 = r^a between these: the root moves
// from ln 1024 = 6.93 (K -> 0, where the shape tends to a box and
// e^-x0 = f(r) to v = 1/1024) up to 9.26 (K -> 1, the exponential's r).
constexpr double kLowestTailStart = 6.5;
constexpr double kHighestTailStart = 9.5;
// The largest relative error of the top layer's area the solve accepts
// (design note).
constexpr double kClosureTolerance = 0x1p-36;
// Depth of Legendre's continued fraction: for x >= 6.5 and 0 < s < 1 its
// truncation error is below 1e-21 relative (against the fraction at depth
// 400; the table's test checks v against Boost's incomplete gamma).
constexpr int kFractionDepth = 32;

// C(s, x) = Γ(s, x) x^-s e^x = 1/(x + 1 - s - 1(1 - s)/(x + 3 - s - ...)),
// from depth kFractionDepth backwards (DLMF 8.9.2).
DD legendre_fraction(DD s, DD x) {
  DD t = x + DD{2.0 * kFractionDepth + 1.0} - s;
  for (int j = kFractionDepth; j >= 1; --j) {
    const DD jd{static_cast<double>(j)};
    t = x + DD{2.0 * j - 1.0} - s - jd * (jd - s) / t;
  }
  return DD{1.0} / t;
}

// The base of the layers for the tail start x0 (in the gamma's units):
// r = x0^K', f(r) = e^-x0 and v = r f(r) + K' Γ(K', x0), each rounded.
struct GammaPowerBase {
  double r;
  double f_r;
  double v;
};

// The shape f(z) = exp(-z^a): its base from x0 in double-double, its
// inverse for climb_ziggurat in double with portable_log and portable_exp.
struct GammaPowerShape {
  double exponent;     // a
  DD shape_parameter;  // K' = 1/a
  const ExpLogTables* math;

  explicit GammaPowerShape(double a) : exponent(a), shape_parameter(DD{1.0} / DD{a}), math(&exp_log_tables()) {}

  // K' Γ(K', x0) = K' x0^K' e^-x0 C(K', x0), with x0^K' = r: the rectangle
  // r f(r) takes the rounded r, the strip's split point.
  GammaPowerBase base(double x0) const {
    const DD x{x0};
    const DD r = dd::dd_exp(dd::dd_log(x) * shape_parameter);
    const DD f = dd::dd_exp(-x);
    const DD tail = shape_parameter * r * f * legendre_fraction(shape_parameter, x);
    const double rounded_r = dd::to_double(r);
    return {rounded_r, dd::to_double(f), dd::to_double(DD{rounded_r} * f + tail)};
  }
  // f^-1(y) = (-log y)^(1/a).
  double inverse(double y) const {
    const double t = -portable_log(*math, y);
    return portable_exp(*math, portable_log(*math, t) / exponent);
  }
  // How many layers of the area v of x0 fit under the curve, as a
  // continuous increasing function of x0: the highest layer i built below
  // the top, plus the share (1 - f(x_i)) x_i / v of one more layer that the
  // gap to the top holds. With i = L - 1 that share is the top layer's area
  // over v, so the layers close where this is L. Unlike the closure defect
  // (ziggurat_solve.hpp), it is defined and continuous where the layers
  // reach the top too early.
  double layers_needed(double x0) const {
    const GammaPowerBase b = base(x0);
    const detail::ZigguratSummit<double> top = detail::climb_ziggurat<kLayers>(*this, b.r, b.f_r, b.v);
    return static_cast<double>(top.layer) + (1.0 - top.y) * top.x / b.v;
  }
};

// A root of a decreasing function g between lo (g > 0) and hi (g < 0), by
// regula falsi with the Illinois modification (the value at the end kept
// twice in a row is halved): the first point with |g| <= tolerance, or else
// the end of the final bracket (two adjacent doubles) with the smaller |g|.
template <class F>
double falsi_root(F g, double lo, double hi, double tolerance) {
  double g_lo = g(lo);
  double g_hi = g(hi);
  if (!(g_lo > 0.0 && g_hi < 0.0)) {
    throw std::logic_error(fmt::format("gamma ziggurat: no sign change ({}, {})", g_lo, g_hi));
  }
  double weight_lo = g_lo;  // the values the secant takes (halved by Illinois)
  double weight_hi = g_hi;
  int last_moved = 0;  // +1: lo, -1: hi
  for (int it = 0; it < 400; ++it) {
    double mid = (lo * weight_hi - hi * weight_lo) / (weight_hi - weight_lo);
    if (!(mid > lo && mid < hi)) mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi)) break;  // adjacent doubles
    const double g_mid = g(mid);
    if (std::abs(g_mid) <= tolerance) return mid;
    if (g_mid > 0.0) {
      lo = mid;
      g_lo = weight_lo = g_mid;
      if (last_moved == 1) weight_hi *= 0.5;
      last_moved = 1;
    } else {
      hi = mid;
      g_hi = weight_hi = g_mid;
      if (last_moved == -1) weight_lo *= 0.5;
      last_moved = -1;
    }
  }
  return g_lo < -g_hi ? lo : hi;
}

// The tail start x0 whose layers close: log(L / layers_needed(x0)) = 0,
// nearly linear in x0 (the layers needed grow about as e^x0), to
// 2^-48 (the top layer's area within 2^-38 of v); checked to 2^-36.
double closing_tail_start(const GammaPowerShape& shape) {
  constexpr auto layers = static_cast<double>(kLayers);
  auto log_ratio = [&shape](double x0) { return portable_log(*shape.math, layers / shape.layers_needed(x0)); };
  const double x0 = falsi_root(log_ratio, kLowestTailStart, kHighestTailStart, 0x1p-48);
  const double top_area_error = shape.layers_needed(x0) - layers;  // (top layer's area)/v - 1
  if (!(std::abs(top_area_error) <= kClosureTolerance)) {
    throw std::logic_error(fmt::format("gamma ziggurat: no closure (top layer's area off by {} v)", top_area_error));
  }
  return x0;
}

// The law, if 0 < K < 1 and THETA > 0 is finite; a = 1/K then exceeds 1.
const Gamma& checked(const Gamma& law) {
  if (!(law.k > 0.0 && law.k < 1.0 && law.theta > 0.0 && std::isfinite(law.theta))) {
    throw engine::InputError(
        fmt::format("small-shape gamma sampler: need 0 < K < 1 and finite THETA > 0, got {}, {}", law.k, law.theta));
  }
  return law;
}

}  // namespace

GammaPowerTable gamma_power_table(double exponent) {
  const GammaPowerShape shape(exponent);
  const double x0 = closing_tail_start(shape);
  const GammaPowerBase base = shape.base(x0);
  std::array<double, kLayers + 1> xs{};
  std::array<double, kLayers + 1> fs{};
  detail::climb_ziggurat<kLayers>(shape, base.r, base.f_r, base.v, &xs, &fs);
  GammaPowerTable table;
  ZigguratTable<1024, false>& t = table.layers;
  t.r = base.r;
  t.v = base.v;
  t.x = xs;
  t.f = fs;
  t.x[kLayers] = 0.0;
  t.f[kLayers] = 1.0;
  detail::set_fast_path(t);
  table.exponent = exponent;
  table.tail_start = x0;
  table.tail_power = dd::to_double(DD{1.0} - shape.shape_parameter);
  return table;
}

SmallShapeGammaSampler::SmallShapeGammaSampler(const Gamma& law)
    : table_(std::make_shared<const GammaPowerTable>(gamma_power_table(1.0 / checked(law).k))),
      power_(table_->exponent, law.theta),
      theta_(law.theta) {}

bool SmallShapeGammaSampler::under_curve(std::size_t i, double z, double u) const noexcept {
  const double height = detail::wedge_height(table_->layers, i, u);
  const double power = portable_exp(*math_, table_->exponent * portable_log(*math_, z));
  return height < portable_exp(*math_, -power);
}

double SmallShapeGammaSampler::tail(engine::Generator& gen) const {
  const GammaPowerTable& t = *table_;
  for (;;) {
    const double x = t.tail_start - portable_log(*math_, engine::uniform_open01(gen));
    const double u = engine::uniform_open01(gen);
    if (portable_log(*math_, u) < -t.tail_power * portable_log(*math_, x / t.tail_start)) return theta_ * x;
  }
}

}  // namespace lbmc::dist
