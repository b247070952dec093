// Brownian-bridge and Kolmogorov laws, the discrete-monitoring shift, and
// exact finite-n values for the discrete bridge V_k (DESIGN §6 "Prefix
// shifts"; Mehrotra–Ranka–Wang 1992, §3). The shifted laws are templates in
// the header.
//
// Every exponential whose argument is large goes through scaled_exp_neg: the
// argument is carried as a double-double (hi + lo) and e^{-(hi+lo)} is
// e^{-hi} (1 - lo), so the result is accurate relative to the exact argument,
// not to its rounding; a prefactor is applied before any underflow. The
// Kolmogorov series factor out their leading term,
//   T = (sqrt(2 pi)/x) e^{-y} (1 + sum_{i>=2} e^{-4 i (i-1) y}),
//       y = pi^2/(8 x^2),
//   S = 2 e^{-2x^2} (1 + sum_{i>=2} (-1)^{i+1} e^{-2 (i^2-1) x^2}),
// so only that term needs the double-double argument; where the Kolmogorov
// cdf uses each series the correction terms are below 1/60 and their own
// rounding is harmless.
#include "lbmc/analytic/bridge.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/zeta.hpp>
#include <fmt/format.h>

#include "lbmc/dist/double_double.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/math_policy.hpp"
#include "numbers.hpp"

namespace lbmc::analytic {
namespace {

namespace bmc = boost::math::constants;
constexpr double kEps = std::numeric_limits<double>::epsilon();

// pi^2/8 as a double-double (hi + lo), from mpmath at 50 digits.
constexpr double kPiSq8Hi = 0x1.3bd3cc9be45dep+0;   // 1.2337005501361697
constexpr double kPiSq8Lo = 0x1.692b71366cc04p-54;  // 7.831619385924639e-17

// K's median is 0.82757...; below this point the theta series gives K <= 1/2
// without cancellation, above it the alternating series gives 1 - K <= 1/2.
constexpr double kKolmogorovSwitch = 0.8275;
// Domains of the two series as exposed (each converges in a few terms there).
constexpr double kThetaMax = 2.0;
constexpr double kAlternatingMin = 0.25;
// Brackets of the upper-tail root of ln S(x) = ln q: for q = 1 - p with
// p > 1/2 (q >= 2^-53, root below 4.4) and for any q > 0 given directly
// (q >= 2^-1074, root below 19.3).
constexpr double kUpperRootMin = 0.8;
constexpr double kUpperRootMaxP = 5.0;
constexpr double kUpperRootMaxQ = 20.0;
// Terms of a series are dropped once e^{-a} < e^{-46} ~ 1e-20 of the leading
// term, which is below half an ulp of 1.
constexpr double kSeriesCut = 46.0;

// Spitzer mean: direct compensated sum up to this n, the expansion beyond.
constexpr std::int64_t kSpitzerDirectMax = 256;
constexpr int kSpitzerTerms = 10;

using dist::dd::DD;

// x^2 exactly, as a double-double (Dekker's exact product).
DD square_dd(double x) { return dist::dd::two_prod(x, x); }

// factor · e^{-(a.hi + a.lo)} for factor > 0 and a.hi >= 0, with e^{-a.lo}
// taken as 1 - a.lo (|a.lo| < 1e-13 for every argument used here, so the
// neglected a.lo^2/2 is below 1e-26). Where e^{-a.hi} alone would be
// subnormal (a.hi > 700) the power of two is split off first (Cody–Waite:
// a.hi = k ln 2 + r, k ln2_hi and a.hi - k ln2_hi exact), so a product that is
// a normal double keeps its full precision and only a subnormal result is
// rounded, once, by ldexp.
double scaled_exp_neg(DD a, double factor) {
  if (a.hi <= 700.0) {
    const double e = factor * std::exp(-a.hi);
    return std::fma(-e, a.lo, e);
  }
  if (a.hi > 2000.0) return 0.0;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 32 significant bits
  constexpr double kLn2Lo = 1.90821492927058770002e-10;  // ln 2 - kLn2Hi
  const double k = std::nearbyint(a.hi / bmc::ln_two<double>());
  const double r = ((a.hi - k * kLn2Hi) - k * kLn2Lo) + a.lo;
  return std::ldexp(factor * std::exp(-r), -static_cast<int>(k));
}

double exp_neg_dd(DD a) { return scaled_exp_neg(a, 1.0); }

// y = pi^2/(8 x^2) as a double-double: q1 = RN(c/x^2), its exact remainder
// c_hi - q1 xx_hi by fma, then the correction q2 = remainder/xx_hi.
DD theta_exponent(double x) {
  const DD xx = square_dd(x);
  const double q1 = kPiSq8Hi / xx.hi;
  const double r = std::fma(-q1, xx.hi, kPiSq8Hi) + kPiSq8Lo - q1 * xx.lo;
  return {q1, r / xx.hi};
}

// Theta series pieces at y = pi^2/(8x^2): tail = sum_{i>=2} e^{-4i(i-1)y}
// and the density bracket B = (2y - 1) + sum_{i>=2} e^{-4i(i-1)y}
// ((2i-1)^2 2y - 1), so that T = (c/x) e^{-y} (1 + tail) and
// T' = (c/x^2) e^{-y} B, c = sqrt(2 pi).
struct ThetaParts {
  DD y;
  double tail;
  double bracket;
};
ThetaParts theta_parts(double x) {
  ThetaParts t{theta_exponent(x), 0.0, 0.0};
  const double y = t.y.hi;
  double tail = 0.0;
  double bracket_tail = 0.0;
  for (int i = 2;; ++i) {
    const double a = 4.0 * i * (i - 1) * y;
    if (a > kSeriesCut) break;
    const double e = std::exp(-a);
    const double m = static_cast<double>((2 * i - 1) * (2 * i - 1));
    tail += e;
    bracket_tail += e * (2.0 * m * y - 1.0);
  }
  t.tail = tail;
  t.bracket = (2.0 * y - 1.0) + bracket_tail;
  return t;
}

// Alternating series pieces at x: tail = sum_{i>=2} (-1)^{i+1} e^{-2(i^2-1)x^2}
// and rho = sum_{i>=2} (-1)^{i+1} i^2 e^{-2(i^2-1)x^2}, so that
// S = 2 e^{-2x^2} (1 + tail) and K' = -S' = 8x e^{-2x^2} (1 + rho).
struct AltParts {
  DD two_x2;
  double tail;
  double rho;
};
AltParts alt_parts(double x) {
  const DD xx = square_dd(x);
  AltParts a{{2.0 * xx.hi, 2.0 * xx.lo}, 0.0, 0.0};
  double tail = 0.0;
  double rho = 0.0;
  for (int i = 2;; ++i) {
    const double arg = 2.0 * (i * i - 1) * xx.hi;
    if (arg > kSeriesCut) break;
    const double e = std::exp(-arg);
    const double sign = (i % 2 == 0) ? -1.0 : 1.0;
    tail += sign * e;
    rho += sign * i * i * e;
  }
  a.tail = tail;
  a.rho = rho;
  return a;
}

// T(x) = (sqrt(2 pi)/x) sum e^{-(2i-1)^2 pi^2/(8x^2)}, the theta series.
double theta_value(double x) {
  if (x < 0.02) return 0.0;  // y > 3000: far below the smallest subnormal
  const ThetaParts t = theta_parts(x);
  return scaled_exp_neg(t.y, bmc::root_two_pi<double>() / x * (1.0 + t.tail));
}

// S(x) = 2 sum (-1)^{i+1} e^{-2 i^2 x^2}, the alternating series.
double alternating_value(double x) {
  if (x > 40.0) return 0.0;  // 2x^2 > 3200
  const AltParts a = alt_parts(x);
  return scaled_exp_neg(a.two_x2, 2.0 * (1.0 + a.tail));
}

void require_n(std::int64_t n, const char* what) {
  if (n < 1) throw engine::InputError(fmt::format("{}: n = {} must be >= 1", what, n));
}

void require_p(double p, const char* what) {
  if (!(p >= 0.0 && p <= 1.0)) {
    throw engine::InputError(fmt::format("{}: probability {} outside [0,1]", what, p));
  }
}

void require_sigma(double sigma, const char* what) {
  if (!(sigma >= 0.0) || !std::isfinite(sigma)) {
    throw engine::InputError(fmt::format("{}: sigma = {} must be finite and >= 0", what, sigma));
  }
}

void require_index(std::int64_t k, std::int64_t n, const char* what) {
  if (k < 0 || k > n) {
    throw engine::InputError(fmt::format("{}: index {} outside [0, n = {}]", what, k, n));
  }
}

// Newton's method on a monotone f with a bracket [lo, hi] (f changes sign
// across it; `increasing` says which way); a step that leaves the bracket is
// replaced by bisection. Returns the Newton update of the first point whose
// step is below one ulp (so the answer is as good as f's rounding allows), or
// the point of smallest |f| if the steps never get that small.
template <class F>
double newton_root(const F& f_and_slope, double x, double lo, double hi, bool increasing) {
  double best_x = x;
  double best_f = kInf;
  for (int iter = 0; iter < 100; ++iter) {
    const auto [f, slope] = f_and_slope(x);
    if (f == 0.0) return x;
    if (std::abs(f) < best_f) {
      best_f = std::abs(f);
      best_x = x;
    }
    if ((f > 0.0) == increasing) {
      hi = x;
    } else {
      lo = x;
    }
    double next = x - f / slope;
    if (!(next >= lo && next <= hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - x) <= kEps * x) return next;
    x = next;
  }
  return best_x;
}

double sqrt_n(std::int64_t n) { return std::sqrt(static_cast<double>(n)); }

// The Kolmogorov quantile below the median: the root of
// ln T(x) = ln(sqrt(2 pi)/x) - y + log1p(tail) = lp, lp = ln p, p <= 1/2,
// increasing in x. Start from the leading term,
// pi^2/(8x^2) = ln(sqrt(2 pi)/x) - lp, by a few fixed-point steps (the root
// lies below 0.83 for p <= 1/2).
double kolmogorov_lower_root(double lp) {
  double x = 0.5;
  for (int i = 0; i < 4; ++i) {
    x = bmc::pi<double>() / std::sqrt(8.0 * (std::log(bmc::root_two_pi<double>() / x) - lp));
  }
  const auto f = [lp](double z) {
    const ThetaParts t = theta_parts(z);
    const double log_t = std::log(bmc::root_two_pi<double>() / z) - t.y.hi - t.y.lo +
                         std::log1p(t.tail);
    // d ln T/dz = T'/T = B/(z (1 + tail)).
    return std::pair<double, double>{log_t - lp, t.bracket / (z * (1.0 + t.tail))};
  };
  return newton_root(f, x, 0.0, 1.0, true);
}

// The Kolmogorov quantile above the median: the root of
// ln S(x) = ln 2 - 2x^2 + log1p(tail) = lq, lq = ln q, q = 1 - K(x) <= 1/2,
// decreasing in x, on the bracket [0.8, hi] (S(0.8) > 0.54; hi above the
// root for every q the caller passes).
double kolmogorov_upper_root(double lq, double hi) {
  double x = std::sqrt((bmc::ln_two<double>() - lq) / 2.0);
  const auto f = [lq](double z) {
    const AltParts a = alt_parts(z);
    const double log_s = bmc::ln_two<double>() - a.two_x2.hi - a.two_x2.lo + std::log1p(a.tail);
    // d ln S/dz = S'/S = -4z (1 + rho)/(1 + tail).
    return std::pair<double, double>{log_s - lq, -4.0 * z * (1.0 + a.rho) / (1.0 + a.tail)};
  };
  return newton_root(f, std::clamp(x, kUpperRootMin, hi), kUpperRootMin, hi, false);
}

}  // namespace

// ---------------------------------------------------------------- bridge max

double cdf(const BridgeMaximum& /*law*/, double x) {
  if (std::isnan(x)) return x;
  if (x <= 0.0) return 0.0;
  // Mehrotra §3: P(W' <= x) = 1 - e^{-2x^2}, x > 0.
  return -std::expm1(-2.0 * x * x);
}

double cdf(const Complement<BridgeMaximum>& c) {
  const double x = c.param;
  if (std::isnan(x)) return x;
  if (x <= 0.0) return 1.0;
  if (x > 40.0) return 0.0;
  const DD xx = square_dd(x);
  return exp_neg_dd({2.0 * xx.hi, 2.0 * xx.lo});
}

double pdf(const BridgeMaximum& /*law*/, double x) {
  if (std::isnan(x)) return x;
  if (x <= 0.0) return 0.0;
  if (x > 40.0) return 0.0;
  const DD xx = square_dd(x);
  return scaled_exp_neg({2.0 * xx.hi, 2.0 * xx.lo}, 4.0 * x);
}

double quantile(const BridgeMaximum& /*law*/, double p) {
  require_p(p, "bridge maximum quantile");
  if (p == 1.0) return kInf;
  // Mehrotra §3: the alpha-th percentile of W' is (-ln(1 - alpha)/2)^{1/2}.
  return std::sqrt(-std::log1p(-p) / 2.0);
}

double quantile(const Complement<BridgeMaximum>& c) {
  const double q = c.param;
  require_p(q, "bridge maximum upper quantile");
  if (q == 0.0) return kInf;
  if (q == 1.0) return 0.0;
  // Mehrotra §3 with 1 - alpha = q: (-ln q/2)^{1/2}.
  return std::sqrt(-std::log(q) / 2.0);
}

double mean(const BridgeMaximum& /*law*/) { return bmc::root_half_pi<double>() / 2.0; }

double variance(const BridgeMaximum& /*law*/) { return 0.5 - bmc::pi<double>() / 8.0; }

double second_moment(const BridgeMaximum& /*law*/) { return 0.5; }

// ---------------------------------------------------------------- Kolmogorov

namespace detail {

KolmogorovSeries kolmogorov_theta_series(double x) {
  if (!(x > 0.0 && x <= kThetaMax)) {
    throw engine::InputError(
        fmt::format("Kolmogorov theta series: x = {} outside (0, {}]", x, kThetaMax));
  }
  const double t = theta_value(x);
  return {t, 1.0 - t};
}

KolmogorovSeries kolmogorov_alternating_series(double x) {
  if (!(x >= kAlternatingMin) || !std::isfinite(x)) {
    throw engine::InputError(fmt::format(
        "Kolmogorov alternating series: x = {} outside [{}, inf)", x, kAlternatingMin));
  }
  const double s = alternating_value(x);
  return {1.0 - s, s};
}

void require_finite_shift(double s) {
  if (!std::isfinite(s)) throw engine::InputError(fmt::format("shifted law: shift {} must be finite", s));
}

}  // namespace detail

double cdf(const Kolmogorov& /*law*/, double x) {
  if (std::isnan(x)) return x;
  if (x <= 0.0) return 0.0;
  // Mehrotra §3: P(D' <= x) -> 1 + 2 sum (-1)^i e^{-2 i^2 x^2}, x > 0.
  return x <= kKolmogorovSwitch ? theta_value(x) : 1.0 - alternating_value(x);
}

double cdf(const Complement<Kolmogorov>& c) {
  const double x = c.param;
  if (std::isnan(x)) return x;
  if (x <= 0.0) return 1.0;
  return x <= kKolmogorovSwitch ? 1.0 - theta_value(x) : alternating_value(x);
}

double pdf(const Kolmogorov& /*law*/, double x) {
  if (std::isnan(x)) return x;
  if (x <= 0.0) return 0.0;
  if (x <= kKolmogorovSwitch) {
    if (x < 0.02) return 0.0;
    const ThetaParts t = theta_parts(x);
    return scaled_exp_neg(t.y, bmc::root_two_pi<double>() / (x * x) * t.bracket);
  }
  if (x > 40.0) return 0.0;
  const AltParts a = alt_parts(x);
  return scaled_exp_neg(a.two_x2, 8.0 * x * (1.0 + a.rho));
}

double quantile(const Kolmogorov& /*law*/, double p) {
  require_p(p, "Kolmogorov quantile");
  if (p == 0.0) return 0.0;
  if (p == 1.0) return kInf;
  if (p <= 0.5) return kolmogorov_lower_root(std::log(p));
  // 1 - p is exact for p >= 1/2, and >= 2^-53, so the root is below 5
  // (S(5) < 1e-21).
  return kolmogorov_upper_root(std::log(1.0 - p), kUpperRootMaxP);
}

double quantile(const Complement<Kolmogorov>& c) {
  const double q = c.param;
  require_p(q, "Kolmogorov upper quantile");
  if (q == 0.0) return kInf;
  if (q == 1.0) return 0.0;
  // 1 - q is exact for q >= 1/2.
  if (q >= 0.5) return quantile(Kolmogorov{}, 1.0 - q);
  return kolmogorov_upper_root(std::log(q), kUpperRootMaxQ);
}

double mean(const Kolmogorov& /*law*/) { return bmc::root_half_pi<double>() * bmc::ln_two<double>(); }

double variance(const Kolmogorov& law) {
  const double m = mean(law);
  return second_moment(law) - m * m;
}

double second_moment(const Kolmogorov& /*law*/) { return bmc::pi_sqr<double>() / 12.0; }

// ------------------------------------------------------- monitoring shifts

double monitoring_beta() {
  // Siegmund 1979; Broadie–Glasserman–Kou 1997: beta = -zeta(1/2)/sqrt(2 pi).
  static const double beta =
      -boost::math::zeta(0.5, engine::MathPolicy()) * bmc::one_div_root_two_pi<double>();
  return beta;
}

double monitoring_shift(std::int64_t n) {
  require_n(n, "monitoring shift");
  return monitoring_beta() / sqrt_n(n);
}

// ------------------------------------------------------------ exact finite n

double bridge_p_max_zero(std::int64_t n) {
  require_n(n, "P(W' = 0)");
  // Cycle lemma (Spitzer 1956): exactly one of the n equally likely cyclic
  // rotations of the increments X_i - Xbar has all partial sums <= 0.
  return 1.0 / static_cast<double>(n);
}

double spitzer_bridge_mean_normal(std::int64_t n) {
  require_n(n, "Spitzer bridge mean");
  if (n <= kSpitzerDirectMax) {
    // Spitzer 1956: E max_k V_k = sum_{k=1}^{n-1} E[V_k^+]/k with
    // E V_k^+ = sigma sqrt(k(n-k)/n)/sqrt(2 pi) (Mehrotra §3, property 4);
    // divided by sigma sqrt n. Neumaier-compensated sum.
    double sum = 0.0;
    double comp = 0.0;
    for (std::int64_t k = 1; k < n; ++k) {
      const double term = std::sqrt(static_cast<double>(n - k) / static_cast<double>(k));
      const double t = sum + term;
      comp += std::abs(sum) >= term ? (sum - t) + term : (term - t) + sum;
      sum = t;
    }
    return (sum + comp) / static_cast<double>(n) * bmc::one_div_root_two_pi<double>();
  }
  // Navot's generalised Euler–Maclaurin expansion of
  // sum_{k=1}^{n-1} k^{-1/2} (n-k)^{1/2}
  //   = n pi/2 + sum_j zeta(1/2 - j) C(1/2, j) (-1)^j n^{1/2-j}
  //            + sum_j zeta(-1/2 - j) C(-1/2, j) (-1)^j n^{-1/2-j};
  // divided by n sqrt(2 pi):
  //   E W' = (1/2) sqrt(pi/2) + (1/sqrt(2 pi)) sum_j c_j n^{-1/2-j},
  //   c_0 = zeta(1/2), c_j = a_j + b_{j-1} (a, b the two coefficient rows).
  // With n > 256 and ten terms the truncation error is below 1e-28.
  static const std::array<double, kSpitzerTerms + 1> c = [] {
    std::array<double, kSpitzerTerms + 1> coef{};
    double binom_a = 1.0;  // C(1/2, j) (-1)^j
    double binom_b = 1.0;  // C(-1/2, j) (-1)^j
    for (int j = 0; j <= kSpitzerTerms; ++j) {
      const double a = boost::math::zeta(0.5 - j, engine::MathPolicy()) * binom_a;
      const double b = boost::math::zeta(-0.5 - j, engine::MathPolicy()) * binom_b;
      coef[static_cast<std::size_t>(j)] += a;
      if (j < kSpitzerTerms) coef[static_cast<std::size_t>(j) + 1] += b;
      // C(a, j+1) (-1)^{j+1} = C(a, j) (-1)^j (j - a)/(j + 1).
      binom_a *= (j - 0.5) / (j + 1);
      binom_b *= (j + 0.5) / (j + 1);
    }
    return coef;
  }();
  const double dn = static_cast<double>(n);
  const double r2 = 1.0 / dn;
  double series = c[kSpitzerTerms];
  for (int j = kSpitzerTerms - 1; j >= 0; --j) {
    series = series * r2 + c[static_cast<std::size_t>(j)];
  }
  series /= std::sqrt(dn);
  return mean(BridgeMaximum{}) + series * bmc::one_div_root_two_pi<double>();
}

double bridge_variance(std::int64_t k, std::int64_t n, double sigma) {
  require_n(n, "bridge variance");
  require_index(k, n, "bridge variance");
  require_sigma(sigma, "bridge variance");
  // Mehrotra §3, property 2: Var(V_k) = k(n-k) sigma^2/n.
  return static_cast<double>(k) * static_cast<double>(n - k) / static_cast<double>(n) * sigma *
         sigma;
}

double bridge_covariance(std::int64_t k, std::int64_t l, std::int64_t n, double sigma) {
  require_n(n, "bridge covariance");
  require_index(k, n, "bridge covariance");
  require_index(l, n, "bridge covariance");
  require_sigma(sigma, "bridge covariance");
  const std::int64_t lo = std::min(k, l);
  const std::int64_t hi = std::max(k, l);
  // Mehrotra §3, property 2: Cov(V_k, V_l) = k(n-l) sigma^2/n, k <= l.
  return static_cast<double>(lo) * static_cast<double>(n - hi) / static_cast<double>(n) * sigma *
         sigma;
}

double bridge_correlation(std::int64_t k, std::int64_t l, std::int64_t n) {
  require_n(n, "bridge correlation");
  if (k < 1 || k > n - 1 || l < 1 || l > n - 1) {
    throw engine::InputError(fmt::format(
        "bridge correlation: indices {}, {} must lie in [1, n-1 = {}]", k, l, n - 1));
  }
  const std::int64_t lo = std::min(k, l);
  const std::int64_t hi = std::max(k, l);
  // Mehrotra §3, property 2: corr(V_k, V_l) = sqrt(k(n-l)/(l(n-k))), k < l.
  return std::sqrt(static_cast<double>(lo) * static_cast<double>(n - hi) /
                   (static_cast<double>(hi) * static_cast<double>(n - lo)));
}

}  // namespace lbmc::analytic
