// Samplers: table construction and cold paths (see samplers.hpp).
//
// The ziggurat tables are solved in double-double ("dd") arithmetic: Dekker's
// exact products and Knuth's exact sums give about 106 bits, so the doubles
// stored are the correctly rounded values of the exact tables except in
// cases of probability ~1e-15, and they do not depend on the C library (libm
// only supplies starting points that Newton steps then refine past them).
#include "lbmc/dist/samplers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "lbmc/engine/errors.hpp"

// No fused multiply-add anywhere in this file (see samplers.hpp): the wedge
// tests and the double-double arithmetic must round the same on every target.
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

namespace lbmc::dist {
namespace {

using engine::InputError;

// ---------------------------------------------------------------------------
// Double-double arithmetic (Dekker 1971; Knuth TAOCP vol. 2 §4.2.2).

struct DD {
  double hi = 0.0;
  double lo = 0.0;
};

DD two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
DD fast_two_sum(double a, double b) {  // |a| >= |b|
  const double s = a + b;
  return {s, b - (s - a)};
}
DD two_prod(double a, double b) {
  const double p = a * b;
  const double ta = 134217729.0 * a;  // 2^27 + 1: Dekker's split
  const double ah = ta - (ta - a);
  const double al = a - ah;
  const double tb = 134217729.0 * b;
  const double bh = tb - (tb - b);
  const double bl = b - bh;
  return {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}
DD operator+(DD a, DD b) {
  DD s = two_sum(a.hi, b.hi);
  const DD t = two_sum(a.lo, b.lo);
  s.lo += t.hi;
  s = fast_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return fast_two_sum(s.hi, s.lo);
}
DD operator-(DD a) { return {-a.hi, -a.lo}; }
DD operator-(DD a, DD b) { return a + (-b); }
DD operator*(DD a, DD b) {
  DD p = two_prod(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return fast_two_sum(p.hi, p.lo);
}
DD operator/(DD a, DD b) {
  const double q1 = a.hi / b.hi;
  DD r = a - b * DD{q1};
  const double q2 = r.hi / b.hi;
  r = r - b * DD{q2};
  const double q3 = r.hi / b.hi;
  return fast_two_sum(q1, q2) + DD{q3};
}
DD scale2(DD a, int e) { return {std::ldexp(a.hi, e), std::ldexp(a.lo, e)}; }

DD dd_sqrt(DD a) {
  if (a.hi <= 0.0) return {};
  const DD y{std::sqrt(a.hi)};  // IEEE sqrt is correctly rounded
  return y + (a - y * y) / scale2(y, 1);
}

// log 2 = 2 atanh(1/3) = 2 sum_k 3^-(2k+1)/(2k+1).
DD dd_ln2() {
  const DD t = DD{1.0} / DD{3.0};
  const DD t2 = t * t;
  DD term = t;
  DD sum{};
  for (int k = 0; k < 40; ++k) {
    sum = sum + term / DD{2.0 * k + 1.0};
    term = term * t2;
  }
  return scale2(sum, 1);
}

// exp(z) = 2^k (1 + s)^(2^10) with 1 + s = exp((z - k ln 2)/2^10) by Taylor's
// series of expm1, squared as (1+s)^2 - 1 = s (s + 2) to keep s's digits.
DD dd_exp(DD z) {
  static const DD ln2 = dd_ln2();
  const double k = std::round(z.hi / ln2.hi);
  DD r = scale2(z - ln2 * DD{k}, -10);
  DD term = r;
  DD s = r;
  for (int n = 2; n <= 12; ++n) {
    term = term * r / DD{static_cast<double>(n)};
    s = s + term;
  }
  for (int j = 0; j < 10; ++j) s = s * (s + DD{2.0});
  return scale2(s + DD{1.0}, static_cast<int>(k));
}

// log(a) by Newton's method on exp: z <- z + a exp(-z) - 1 (quadratic).
DD dd_log(DD a) {
  DD z{std::log(a.hi)};
  for (int it = 0; it < 2; ++it) z = z + a * dd_exp(-z) - DD{1.0};
  return z;
}

// Plain-double counterparts, for the coarse root bracket.
double dd_exp(double z) { return std::exp(z); }
double dd_log(double a) { return std::log(a); }
double dd_sqrt(double a) { return std::sqrt(a); }
double to_double(double a) { return a; }
double to_double(DD a) { return a.hi + a.lo; }

template <class T>
T number(double a) {
  return T{a};
}

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

constexpr std::size_t kLayers = ZigguratTable::kLayers;

// Builds layers 1..255 upwards from x_1 = r: f(x_{i+1}) = f(x_i) + v/x_i.
// Returns the closure defect f(x_255) + v/x_255 - 1 (0 for the right r), or
// +1 when the layers reach the top too early (r too small).
template <class Shape, class T>
double closure(T r, std::array<T, kLayers + 1>* xs = nullptr,
               std::array<T, kLayers + 1>* fs = nullptr, T* area = nullptr) {
  const T v = Shape::area(r);
  T x = r;
  T y = Shape::density(r);
  if (xs) {
    (*xs)[0] = v / y;
    (*fs)[0] = number<T>(0.0);
    (*xs)[1] = x;
    (*fs)[1] = y;
    *area = v;
  }
  for (std::size_t i = 2; i < kLayers; ++i) {
    y = y + v / x;
    if (!(to_double(y) < 1.0)) return 1.0;
    x = Shape::inverse(y);
    if (xs) {
      (*xs)[i] = x;
      (*fs)[i] = y;
    }
  }
  return to_double(y + v / x - number<T>(1.0));
}

template <class Shape>
ZigguratTable build_ziggurat() {
  // 1. Bracket r in plain double by bisection (closure decreases with r).
  double lo = 1.0;
  double hi = 20.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (closure<Shape>(mid) > 0.0 ? lo : hi) = mid;
  }
  // 2. Secant steps in double-double from the bracket's ends.
  DD r0{lo};
  DD r1{hi};
  double c0 = closure<Shape>(r0);
  double c1 = closure<Shape>(r1);
  for (int it = 0; it < 12 && c1 != 0.0 && c1 != c0; ++it) {
    const DD step = DD{c1} * (r1 - r0) / DD{c1 - c0};
    r0 = r1;
    c0 = c1;
    r1 = r1 - step;
    c1 = closure<Shape>(r1);
    if (std::abs(step.hi) < 1e-31 * r1.hi) break;
  }
  if (!(std::abs(c1) < 1e-28)) {
    throw std::logic_error(fmt::format("ziggurat: no closure (defect {})", c1));
  }
  // 3. The tables at r, rounded to double.
  std::array<DD, kLayers + 1> xs{};
  std::array<DD, kLayers + 1> fs{};
  DD v{};
  closure<Shape>(r1, &xs, &fs, &v);
  ZigguratTable t;
  t.r = to_double(r1);
  t.v = to_double(v);
  for (std::size_t i = 0; i < kLayers; ++i) {
    t.x[i] = to_double(xs[i]);
    t.f[i] = to_double(fs[i]);
  }
  t.x[kLayers] = 0.0;
  t.f[kLayers] = 1.0;
  // Fast acceptance: the largest count a with (2m+1)·scale <= x_{i+1} for every m < a.
  constexpr std::uint64_t kM = std::uint64_t{1} << 52;
  for (std::size_t i = 0; i < kLayers; ++i) {
    const double scale = std::ldexp(t.x[i], -53);
    const double inner = t.x[i + 1];
    auto abscissa = [scale](std::uint64_t m) { return detail::odd_to_double(m) * scale; };
    const double guess = std::floor((inner / t.x[i]) * 0x1.0p52);
    std::uint64_t a = static_cast<std::uint64_t>(std::clamp(guess, 0.0, 0x1.0p52));
    while (a < kM && abscissa(a) <= inner) ++a;
    while (a > 0 && abscissa(a - 1) > inner) --a;
    t.layer[i] = {a, scale};
  }
  return t;
}

// ---------------------------------------------------------------------------
// Loader (2000): stirlerr(n) = log n! - log(sqrt(2 pi n) (n/e)^n).

constexpr int kStirlerrTable = 32;

// n <= 32 by the exact recurrence stirlerr(n) = stirlerr(n+1) + (n + 1/2) log(1 + 1/n) - 1
// in double-double, down from n = 64 where the series below is exact to 1e-23.
double stirlerr_series(double n) {
  constexpr double s0 = 1.0 / 12.0, s1 = 1.0 / 360.0, s2 = 1.0 / 1260.0, s3 = 1.0 / 1680.0,
                   s4 = 1.0 / 1188.0;
  const double r = 1.0 / n;
  const double r2 = r * r;
  return (s0 - (s1 - (s2 - (s3 - s4 * r2) * r2) * r2) * r2) * r;
}
std::array<double, kStirlerrTable + 1> make_stirlerr_table() {
  std::array<double, kStirlerrTable + 1> table{};
  DD s{stirlerr_series(64.0)};
  for (int n = 63; n >= 1; --n) {
    const DD dn{static_cast<double>(n)};
    s = s + (dn + DD{0.5}) * dd_log((dn + DD{1.0}) / dn) - DD{1.0};
    if (n <= kStirlerrTable) table[static_cast<std::size_t>(n)] = to_double(s);
  }
  return table;
}
double stirlerr(double n) {  // n >= 1 an integer
  static const std::array<double, kStirlerrTable + 1> table = make_stirlerr_table();
  if (n <= kStirlerrTable) return table[static_cast<std::size_t>(n)];
  return stirlerr_series(n);
}

// bd0(x, np) = x log(x/np) + np - x, Loader (2000) §2, by the series in
// v = (x-np)/(x+np) when x is close to np.
double bd0(double x, double np) {
  if (std::abs(x - np) < 0.1 * (x + np)) {
    const double v = (x - np) / (x + np);
    double s = (x - np) * v;
    double ej = 2.0 * x * v;
    const double v2 = v * v;
    for (int j = 1; j < 1000; ++j) {
      ej *= v2;
      const double s1 = s + ej / (2 * j + 1);
      if (s1 == s) return s1;
      s = s1;
    }
    return s;
  }
  return x * std::log(x / np) + np - x;
}

constexpr double kLog2Pi = 1.8378770664093454835606594728112353;

// ---------------------------------------------------------------------------
// Poisson and binomial through their log-pmf alone (Loader's formulas). Both
// laws are log-concave, so beyond the mode, in either direction, the ratio of
// successive probabilities decreases and a tail is bounded by a geometric
// series: P(X > k) <= p(k+1)^2 / (p(k+1) - p(k+2)) once p(k+2) < p(k+1), and
// likewise below. Table extents and tail masses follow without Boost's cdf or
// quantile (which lose up to 5e-5 for binomials at M ~ 2^53).

template <class LogPmf>
struct IntegerLaw {
  LogPmf log_pmf;
  double mode;
  double kmax;  // the largest value; infinity for Poisson
  double pmf(double k) const { return (k < 0.0 || k > kmax) ? 0.0 : std::exp(log_pmf(k)); }
};
template <class LogPmf>
IntegerLaw(LogPmf, double, double) -> IntegerLaw<LogPmf>;

// The first k from the mode outward (step +1 or -1) whose tail beyond it is
// bounded by eps, or NaN after more than `limit` steps.
template <class Law>
double table_end(const Law& law, double eps, double step, std::size_t limit) {
  double k = law.mode;
  double p1 = law.pmf(k + step);
  for (std::size_t n = 0; n <= limit; ++n) {
    if (p1 == 0.0) return k;  // nothing representable beyond k
    const double p2 = law.pmf(k + 2.0 * step);
    if (p2 < p1 && p1 * (p1 / (p1 - p2)) <= eps) return k;
    k += step;
    p1 = p2;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

// P(X beyond k): the terms summed outward from k until the geometric bound on
// the rest is below 2^-64 of the sum.
template <class Law>
double tail_mass(const Law& law, double k, double step) {
  double sum = 0.0;
  double previous = 0.0;
  for (double j = k + step;; j += step) {
    const double p = law.pmf(j);
    if (p == 0.0) return sum;
    sum += p;
    if (previous > 0.0 && p < previous) {
      const double r = p / previous;
      if (p * r / (1.0 - r) <= 0x1p-64 * sum) return sum;
    }
    previous = p;
  }
}

// X given X beyond k0 (step +1: X > k0; -1: X < k0), `mass` = P(X beyond k0):
// sequential inversion, X = the first k whose cumulative mass from k0 exceeds
// u·mass (the same sums, in the same order, as tail_mass). When less than
// 2^-16 of the mass remains, the search restarts beyond the current k with a
// fresh uniform (X given X beyond k has the same form), so the comparisons
// never run out of resolution. Exact up to the pmf's rounding.
template <class Law>
double sample_tail(const Law& law, double k0, double step, double mass, engine::Generator& gen) {
  for (;;) {
    if (!(mass > 0.0)) return std::clamp(k0 + step, 0.0, law.kmax);  // unreachable in practice
    const double target = engine::uniform_open01(gen) * mass;
    double acc = 0.0;
    for (double k = k0 + step;; k += step) {
      acc += law.pmf(k);
      if (target < acc) return k;
      if (mass - acc < 0x1p-16 * mass) {
        k0 = k;
        mass = tail_mass(law, k, step);
        break;
      }
    }
  }
}

// The table over [lo, hi] (each tail beyond it <= tail_mass), or false when it
// would have more than `limit` cells.
template <class Law>
bool build_table(const Law& law, double tail_mass_bound, std::size_t limit,
                 detail::InversionTable& table) {
  const double hi = table_end(law, tail_mass_bound, 1.0, limit);
  const double lo = table_end(law, tail_mass_bound, -1.0, limit);
  if (std::isnan(hi) || std::isnan(lo) || hi - lo + 1.0 > static_cast<double>(limit)) return false;
  std::vector<double> probs(static_cast<std::size_t>(hi - lo + 1.0));
  for (std::size_t j = 0; j < probs.size(); ++j) probs[j] = law.pmf(lo + static_cast<double>(j));
  table = detail::InversionTable(lo, probs, tail_mass(law, lo, -1.0), tail_mass(law, hi, 1.0));
  return true;
}

// The switch rule: the table, unless the rejection method is valid and the
// table would have more than max_table cells (a table spans about 13 sd at
// tail_mass 2^-32, so the walk is skipped once sd alone exceeds max_table).
template <class Law>
bool use_table(const Law& law, bool rejection_valid, double sd, const DiscreteOptions& options,
               detail::InversionTable& table) {
  if (!rejection_valid) {  // narrow: sd < sqrt(10)
    return build_table(law, options.tail_mass, std::size_t{1} << 30, table);
  }
  if (sd > static_cast<double>(options.max_table)) return false;
  return build_table(law, options.tail_mass, options.max_table, table);
}

auto poisson_law(double lambda) {
  return IntegerLaw{[lambda](double k) { return detail::poisson_log_pmf(k, lambda); },
                    std::floor(lambda), std::numeric_limits<double>::infinity()};
}
auto binomial_law(double n, double p, double q) {
  return IntegerLaw{[n, p, q](double k) { return detail::binomial_log_pmf(k, n, p, q); },
                    std::min(std::floor((n + 1.0) * p), n), n};
}

void check_options(const DiscreteOptions& options) {
  if (!(options.tail_mass > 0.0 && options.tail_mass <= 0.25)) {
    throw InputError(fmt::format("sampler tail_mass {} outside (0, 0.25]", options.tail_mass));
  }
}

}  // namespace

// ---------------------------------------------------------------------------

const ZigguratTable& normal_ziggurat() {
  static const ZigguratTable table = build_ziggurat<NormalShape>();
  return table;
}

const ZigguratTable& exponential_ziggurat() {
  static const ZigguratTable table = build_ziggurat<ExponentialShape>();
  return table;
}

namespace detail {

// Marsaglia (1964), as in Marsaglia & Tsang (2000) §4: x = -log(U1)/r,
// y = -log(U2) until 2y > x^2; then r + x has the normal tail law beyond r.
double normal_tail(double r, engine::Generator& gen) {
  for (;;) {
    const double x = -std::log(engine::uniform_open01(gen)) / r;
    const double y = -std::log(engine::uniform_open01(gen));
    if (y + y > x * x) return r + x;
  }
}

// The point (z, y), y uniform between the layer's bottom f(x_i) and top
// f(x_{i+1}), is accepted when it lies under the curve.
bool normal_under_curve(const ZigguratTable& t, std::size_t i, double z, double u) noexcept {
  return t.f[i] + u * (t.f[i + 1] - t.f[i]) < std::exp(-0.5 * z * z);
}

bool exponential_under_curve(const ZigguratTable& t, std::size_t i, double z, double u) noexcept {
  return t.f[i] + u * (t.f[i + 1] - t.f[i]) < std::exp(-z);
}

double poisson_log_pmf(double k, double lambda) {
  if (k == 0.0) return -lambda;
  return -stirlerr(k) - bd0(k, lambda) - 0.5 * (kLog2Pi + std::log(k));
}

double binomial_log_pmf(double k, double n, double p, double q) {
  if (k == 0.0) return n * std::log1p(-p);
  if (k == n) return n * std::log(p);
  const double lc = stirlerr(n) - stirlerr(k) - stirlerr(n - k) - bd0(k, n * p) - bd0(n - k, n * q);
  return lc - 0.5 * (kLog2Pi + std::log(k) + std::log1p(-k / n));
}

// Each probability is quantized to a multiple of 2^-63 on its own and the
// thresholds are their exact integer partial sums, so no cell inherits the
// rounding of a cumulative sum. The rounding residue (~1e-15) goes to the
// most likely cell.
InversionTable::InversionTable(double lo, const std::vector<double>& probs, double below,
                               double above)
    : lo_(lo), below_(below), above_(above), n_(probs.size()) {
  constexpr double kOne = 0x1.0p63;
  constexpr std::uint64_t kTop = std::uint64_t{1} << 63;
  auto quantize = [](double p) { return static_cast<std::uint64_t>(std::llround(p * 0x1.0p63)); };
  if (n_ == 0 || n_ >= (std::size_t{1} << 30)) throw std::logic_error("inversion table size");
  std::vector<std::uint64_t> q(n_);
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
  thresholds_.resize(n_ + 2);
  thresholds_[0] = quantize(below);
  for (std::size_t j = 0; j < n_; ++j) thresholds_[j + 1] = thresholds_[j] + q[j];
  thresholds_[n_ + 1] = kTop;
  // Guide (Chen & Asau 1974): guide[g] = the first cell whose threshold exceeds
  // the bucket start g·2^shift. Twice as many buckets as cells, a power of two.
  const std::size_t buckets = std::bit_ceil(2 * (n_ + 2));
  shift_ = static_cast<unsigned>(63 - std::countr_zero(buckets));
  guide_.resize(buckets);
  std::size_t i = 0;
  for (std::size_t g = 0; g < buckets; ++g) {
    const std::uint64_t start = static_cast<std::uint64_t>(g) << shift_;
    while (thresholds_[i] <= start) ++i;
    guide_[g] = static_cast<std::uint32_t>(i);
  }
}

}  // namespace detail

// ---------------------------------------------------------------------------

NormalSampler::NormalSampler(const Normal& law)
    : law_(law), mu_(law.mu), sigma_(law.sigma), table_(&normal_ziggurat()) {
  if (!(std::isfinite(law.mu) && std::isfinite(law.sigma) && law.sigma > 0.0)) {
    throw InputError(
        fmt::format("normal sampler: need finite mu and sigma > 0, got {}, {}", law.mu, law.sigma));
  }
}

ExponentialSampler::ExponentialSampler(const Exponential& law)
    : law_(law), mean_(law.mean), table_(&exponential_ziggurat()) {
  if (!(std::isfinite(law.mean) && law.mean > 0.0)) {
    throw InputError(fmt::format("exponential sampler: need finite mean > 0, got {}", law.mean));
  }
}

UniformSampler::UniformSampler(const Uniform& law)
    : law_(law),
      a_(law.a),
      width_(law.b - law.a),
      below_b_(std::nextafter(law.b, -std::numeric_limits<double>::infinity())) {
  if (!(std::isfinite(law.a) && std::isfinite(law.b) && law.a < law.b)) {
    throw InputError(fmt::format("uniform sampler: need finite a < b, got {}, {}", law.a, law.b));
  }
  if (!std::isfinite(width_)) {
    split_ = true;
    width_ = 0.5 * law.b - 0.5 * law.a;
  }
}

PoissonSampler::PoissonSampler(const Poisson& law, const DiscreteOptions& options) : law_(law) {
  if (!(std::isfinite(law.lambda) && law.lambda >= 0.0)) {
    throw InputError(fmt::format("Poisson sampler: need finite lambda >= 0, got {}", law.lambda));
  }
  check_options(options);
  if (law.lambda == 0.0) return;  // point mass at 0
  if (use_table(poisson_law(law.lambda), law.lambda >= 10.0, std::sqrt(law.lambda), options,
                table_)) {
    method_ = DiscreteMethod::table;
    return;
  }
  // PTRS setup, Hörmann (1993) algorithm PTRS step 0.
  method_ = DiscreteMethod::rejection;
  const double smu = std::sqrt(law.lambda);
  b_ = 0.931 + 2.53 * smu;
  a_ = -0.059 + 0.02483 * b_;
  log_inv_alpha_ = std::log(1.1239 + 1.1328 / (b_ - 3.4));
  v_r_ = 0.9277 - 3.6224 / (b_ - 2.0);
}

double PoissonSampler::tail(bool upper, engine::Generator& gen) const {
  const auto law = poisson_law(law_.lambda);
  const double hi = table_.lo() + static_cast<double>(table_.size()) - 1.0;
  return upper ? sample_tail(law, hi, 1.0, table_.above(), gen)
               : sample_tail(law, table_.lo(), -1.0, table_.below(), gen);
}

BinomialSampler::BinomialSampler(const Binomial& law, const DiscreteOptions& options) : law_(law) {
  if (!(law.trials >= 0 && law.trials <= (std::int64_t{1} << 53) && law.p >= 0.0 && law.p <= 1.0)) {
    throw InputError(fmt::format("binomial sampler: need 0 <= M <= 2^53 and p in [0,1], got {}, {}",
                                 law.trials, law.p));
  }
  check_options(options);
  n_ = static_cast<double>(law.trials);
  if (law.trials == 0 || law.p == 0.0) return;  // point mass at 0
  if (law.p == 1.0) {
    point_ = n_;
    return;
  }
  flip_ = law.p > 0.5;
  p_ = flip_ ? 1.0 - law.p : law.p;  // exact (Sterbenz) when flipped
  q_ = flip_ ? law.p : 1.0 - law.p;
  const double sd = std::sqrt(n_ * p_ * q_);
  if (use_table(binomial_law(n_, p_, q_), n_ * p_ >= 10.0, sd, options, table_)) {
    method_ = DiscreteMethod::table;
    table_base_ = flip_ ? n_ - table_.lo() : table_.lo();
    table_step_ = flip_ ? -1.0 : 1.0;
    return;
  }
  // BTRS setup, Hörmann (1993) algorithm BTRS step 0 and 3.0.
  method_ = DiscreteMethod::rejection;
  const double spq = sd;
  b_ = 1.15 + 2.53 * spq;
  a_ = -0.0873 + 0.0248 * b_ + 0.01 * p_;
  c_ = n_ * p_ + 0.5;
  v_r_ = 0.92 - 4.2 / b_;
  alpha_ = (2.83 + 5.1 / b_) * spq;
  const double mode = std::floor((n_ + 1.0) * p_);
  log_pmf_mode_ = detail::binomial_log_pmf(mode, n_, p_, q_);
}

double BinomialSampler::tail(bool upper, engine::Generator& gen) const {
  const auto law = binomial_law(n_, p_, q_);
  const double hi = table_.lo() + static_cast<double>(table_.size()) - 1.0;
  const double k = upper ? sample_tail(law, hi, 1.0, table_.above(), gen)
                         : sample_tail(law, table_.lo(), -1.0, table_.below(), gen);
  return flip_ ? n_ - k : k;
}

}  // namespace lbmc::dist
