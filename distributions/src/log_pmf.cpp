// Loader's (2000) saddle-point log-probabilities (see log_pmf.hpp).
//
// stirlerr(n) = log n! - log(sqrt(2 pi n) (n/e)^n): for n <= 32 a table built
// once by the exact recurrence in double-double (double_double.hpp), beyond it
// the asymptotic series. bd0 by its series in v = (x-np)/(x+np) near np.
#include "lbmc/dist/log_pmf.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

#include "lbmc/dist/double_double.hpp"
#include "lbmc/dist/portable_log_pmf.hpp"

// No fused multiply-add anywhere in this file (sampler_support.hpp).
LBMC_SAMPLER_NO_FP_CONTRACT

namespace lbmc::dist {
namespace {

using dd::DD;
using detail::kLog2Pi;
using detail::stirlerr_series;

// stirlerr(x + j) for j = 0 .. count - 1 (x > 0, x + count - 1 <= 32) by
// that recurrence in double-double, down from the first x + m >= 64.
std::vector<double> stirlerr_run(double x, int count) {
  int m = 0;
  while (x + m < 64.0) ++m;
  std::vector<double> run(static_cast<std::size_t>(count));
  DD s{stirlerr_series(dd::to_double(DD{x} + DD{static_cast<double>(m)}))};
  for (int j = m - 1; j >= 0; --j) {
    const DD y = dd::two_sum(x, static_cast<double>(j));  // x + j, exactly
    s = s + (y + DD{0.5}) * dd::dd_log((y + DD{1.0}) / y) - DD{1.0};
    if (j < count) run[static_cast<std::size_t>(j)] = dd::to_double(s);
  }
  return run;
}
const std::vector<double>& stirlerr_small() {  // n = 1 .. 32
  static const std::vector<double> table = stirlerr_run(1.0, kStirlerrTable);
  return table;
}
double stirlerr(double n) {  // n >= 1 an integer
  if (n <= kStirlerrTable) return stirlerr_small()[static_cast<std::size_t>(n) - 1];
  return stirlerr_series(n);
}

double library_bd0(double x, double np) {  // with the C library's log
  return detail::bd0(x, np, x - np, [](double y) { return std::log(y); });
}

}  // namespace

const double* stirlerr_table() { return stirlerr_small().data(); }

namespace detail {

double poisson_log_pmf(double k, double lambda) {
  if (k == 0.0) return -lambda;
  return -stirlerr(k) - library_bd0(k, lambda) - 0.5 * (kLog2Pi + std::log(k));
}

double binomial_log_pmf(double k, double n, double p, double q) {
  if (k == 0.0) return n * std::log1p(-p);
  if (k == n) return n * std::log(p);
  const double lc = stirlerr(n) - stirlerr(k) - stirlerr(n - k) - library_bd0(k, n * p) - library_bd0(n - k, n * q);
  return lc - 0.5 * (kLog2Pi + std::log(k) + std::log1p(-k / n));
}

NegBinomialLogPmf::NegBinomialLogPmf(double r, double p)
    : r_(r), p_(p), log_f0_(r * portable_log(exp_log_tables(), p)) {
  int head = 0;
  while (r + head < kStirlerrTable) ++head;
  if (head > 0) stirlerr_head_ = stirlerr_run(r, head);
  stirlerr_r_ = head > 0 ? stirlerr_head_.front() : stirlerr_series(r);
  log_r_by_2pi_ = portable_log(*math_, r) - kLog2Pi;
}

double NegBinomialLogPmf::operator()(double k) const {
  if (k == 0.0) return log_f0_;
  // n = R + k, nP, nQ and d = R - nP = nQ - k, each to an ulp.
  const DD n_dd = dd::two_sum(r_, k);
  const DD np = n_dd * DD{p_};
  const double d = dd::to_double(DD{r_} - np);
  const double nq = dd::to_double(n_dd * (DD{1.0} - DD{p_}));
  const double n = dd::to_double(n_dd);
  const auto log = [this](double y) { return portable_log(*math_, y); };
  const double stirlerr_n =
      k < static_cast<double>(stirlerr_head_.size()) ? stirlerr_head_[static_cast<std::size_t>(k)] : stirlerr_series(n);
  const double lc = stirlerr_n - stirlerr_r_ - stirlerr(k) - detail::bd0(r_, dd::to_double(np), d, log) -
                    detail::bd0(k, nq, -d, log);
  return lc + 0.5 * (log_r_by_2pi_ - log(n * k));
}

}  // namespace detail
}  // namespace lbmc::dist
