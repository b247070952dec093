// Batched direct maxima: the loops of direct_batch.hpp.
#include "direct_batch.hpp"

#include <cmath>
#include <limits>

namespace lbmc::exp {
namespace {

constexpr double kSeriesLimit = 1e-3;         // x below which ln(1 − e^{−x}) = ln x + series
constexpr double kSmallestNormal = 0x1p-1022;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ln((1 − e^{−x})/x) = −x/2 + x²/24 − x⁴/2880 + O(x⁶), as in log_one_minus_exp_neg.
inline double log_ratio_series(double x) noexcept {
  return x * (-0.5 + x * (1.0 / 24.0 - x * x * (1.0 / 2880.0)));
}

// Wichura (1988), AS 241, PPND16: the upper normal quantile at q = e^{−r²}
// for 1.6 <= r <= 5, as a rational function of t = r − 1.6.
inline double normal_upper_quantile_as241(double r) noexcept {
  const double t = r - 1.6;
  const double num =
      ((((((7.74545014278341407640e-4 * t + 2.27238449892691845833e-2) * t + 2.41780725177450611770e-1) * t +
          1.27045825245236838258e0) * t + 3.64784832476320460504e0) * t + 5.76949722146069140550e0) * t +
       4.63033784615654529590e0) * t + 1.42343711074968357734e0;
  const double den =
      ((((((1.05075007164441684324e-9 * t + 5.47593808499534494600e-4) * t + 1.51986665636164571966e-2) * t +
          1.48103976427480074590e-1) * t + 6.89767334985100004550e-1) * t + 1.67638483018380384940e0) * t +
       2.05319162663775882187e0) * t + 1.0;
  return num / den;
}

}  // namespace

// The loops must vectorise: this file is compiled with -fno-math-errno and
// -fno-trapping-math (CMakeLists.txt), the selections use bitwise &, and an
// AVX2 clone runs where the processor has it (no FMA in either, so both give
// the same bits).
__attribute__((target_clones("avx2", "default")))
void exponential_max_batch(const double* e, double* out, std::size_t count, double per_n, double mean) noexcept {
  for (std::size_t i = 0; i < count; ++i) {
    const double x = e[i] * per_n;
    const double value = -mean * (log_of_normal(x) + log_ratio_series(x));
    out[i] = ((x >= kSmallestNormal) & (x < kSeriesLimit)) ? value : kNaN;
  }
}

__attribute__((target_clones("avx2", "default")))
void normal_max_batch(const double* e, double* out, std::size_t count, double per_n, double mu,
                      double sigma) noexcept {
  for (std::size_t i = 0; i < count; ++i) {
    const double x = e[i] * per_n;
    const double minus_log_q = -(log_of_normal(x) + log_ratio_series(x));
    const double value = mu + sigma * normal_upper_quantile_as241(std::sqrt(minus_log_q));
    out[i] = ((x >= kSmallestNormal) & (x < kSeriesLimit) & (minus_log_q <= 25.0)) ? value : kNaN;
  }
}

}  // namespace lbmc::exp
