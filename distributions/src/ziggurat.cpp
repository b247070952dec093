// Ziggurat tables and cold paths (see ziggurat.hpp).
//
// The tables are solved from their defining equations: the closure defect of
// the layers built upwards from x_1 = r is bracketed in plain double, then
// driven to zero by secant steps in double-double (double_double.hpp), and the
// tables at the root are rounded to double. The fast-acceptance counts are
// then found by integer search on the rounded tables, so they are exact for
// the products the samplers compute.
#include "lbmc/dist/ziggurat.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "lbmc/dist/double_double.hpp"
#include "lbmc/engine/errors.hpp"
#include "ziggurat_solve.hpp"

// No fused multiply-add anywhere in this file (sampler_support.hpp): the wedge
// tests and the double-double arithmetic must round the same on every target.
LBMC_SAMPLER_NO_FP_CONTRACT

namespace lbmc::dist {
namespace {

using namespace dd;  // NOLINT(google-build-using-namespace): DD and its overload set

// ---------------------------------------------------------------------------
// Ziggurat shapes: f(x), f^-1(y), and the layer area v(r) = r f(r) + int_r^inf f.

struct NormalShape {
  template <class T>
  static T density(T x) {
    return dd_exp(-(x * x) * number<T>(0.5));
  }
  template <class T>
  static T inverse(T y) {
    return dd_sqrt(number<T>(-2.0) * dd_log(y));
  }
  // int_r^inf e^{-t^2/2} dt = e^{-r^2/2} R(r) with Laplace's continued fraction
  // for Mills' ratio R(r) = 1/(r + 1/(r + 2/(r + 3/(r + ...)))) (Abramowitz &
  // Stegun 26.2.14), evaluated backwards from depth 600 (error < 1e-40 for r >= 3).
  template <class T>
  static T area(T r) {
    T t = r;
    for (int j = 600; j >= 1; --j) t = r + number<T>(j) / t;
    return density(r) * (r + number<T>(1.0) / t);
  }
};

struct ExponentialShape {
  template <class T>
  static T density(T x) {
    return dd_exp(-x);
  }
  template <class T>
  static T inverse(T y) {
    return -dd_log(y);
  }
  template <class T>
  static T area(T r) {  // r e^{-r} + e^{-r}
    return density(r) * (r + number<T>(1.0));
  }
};

template <class Shape, class Table>
Table build_ziggurat() {
  constexpr std::size_t kLayers = Table::kLayers;
  const Shape shape{};
  auto defect = [&shape](auto r) {
    return detail::ziggurat_closure<kLayers>(shape, r, shape.density(r), shape.area(r));
  };
  // 1. Bracket r in plain double by bisection (closure decreases with r).
  double lo = 1.0;
  double hi = 20.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (defect(mid) > 0.0 ? lo : hi) = mid;
  }
  // 2. Secant steps in double-double from the bracket's ends.
  DD r0{lo};
  DD r1{hi};
  double c0 = defect(r0);
  double c1 = defect(r1);
  for (int it = 0; it < 12 && c1 != 0.0 && c1 != c0; ++it) {
    const DD step = DD{c1} * (r1 - r0) / DD{c1 - c0};
    r0 = r1;
    c0 = c1;
    r1 = r1 - step;
    c1 = defect(r1);
    if (std::abs(step.hi) < 1e-31 * r1.hi) break;
  }
  if (!(std::abs(c1) < 1e-28)) {
    throw std::logic_error(fmt::format("ziggurat: no closure (defect {})", c1));
  }
  // 3. The tables at r, rounded to double.
  std::array<DD, kLayers + 1> xs{};
  std::array<DD, kLayers + 1> fs{};
  const DD v = shape.area(r1);
  detail::ziggurat_closure<kLayers>(shape, r1, shape.density(r1), v, &xs, &fs);
  Table t;
  t.r = to_double(r1);
  t.v = to_double(v);
  for (std::size_t i = 0; i < kLayers; ++i) {
    t.x[i] = to_double(xs[i]);
    t.f[i] = to_double(fs[i]);
  }
  t.x[kLayers] = 0.0;
  t.f[kLayers] = 1.0;
  detail::set_fast_path(t);
  return t;
}

}  // namespace

const NormalZiggurat& normal_ziggurat() {
  static const NormalZiggurat table = build_ziggurat<NormalShape, NormalZiggurat>();
  return table;
}

const ExponentialZiggurat& exponential_ziggurat() {
  static const ExponentialZiggurat table = build_ziggurat<ExponentialShape, ExponentialZiggurat>();
  return table;
}

namespace detail {

bool below_exp(double y, double s) noexcept { return y < std::exp(-s); }

}  // namespace detail

double NormalSampler::past_fast_path(std::size_t j, double z, engine::Generator& gen) const noexcept {
  return standard_normal_from(*shared_.tables.normal, j, z, gen, detail::LibraryMath{});
}

NormalSampler::NormalSampler(const Normal& law)
    : shared_{law.mu, law.sigma, {.normal = &normal_ziggurat(), .exp_log = &exp_log_tables()}} {
  if (!(std::isfinite(law.mu) && std::isfinite(law.sigma) && law.sigma > 0.0)) {
    throw engine::InputError(
        fmt::format("normal sampler: need finite mu and sigma > 0, got {}, {}", law.mu, law.sigma));
  }
}

ExponentialSampler::ExponentialSampler(const Exponential& law)
    : shared_{law.mean, {.exponential = &exponential_ziggurat(), .exp_log = &exp_log_tables()}} {
  if (!(std::isfinite(law.mean) && law.mean > 0.0)) {
    throw engine::InputError(
        fmt::format("exponential sampler: need finite mean > 0, got {}", law.mean));
  }
}

}  // namespace lbmc::dist
