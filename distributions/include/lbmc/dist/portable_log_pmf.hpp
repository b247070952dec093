// Loader's (2000) Poisson and binomial log-probabilities as the host and a GPU
// both compile them (host_device.hpp), with lbmc's own log: what the Poisson
// and binomial samplers of the counter-based stream compute at draw time
// (their tail searches and rejection tests; portable_discrete.hpp). Part of
// samplers.hpp, through discrete_samplers.hpp.
//
// Design note
// - The formulas are log_pmf.hpp's: log P(X = k) = -stirlerr(k) - bd0(k, λ)
//   - log(2πk)/2 (Loader 2000, eq. (5)) and the binomial analogue (eq. (4)),
//   with bd0(x, np) = x log(x/np) + np - x by its series near np (§2).
//   stirlerr_series and bd0 live here and serve both forms.
// - What differs from log_pmf.cpp (the pcg64 samplers', whose bytes stay):
//   every logarithm is portable_log, and log1p, which lbmc has no portable
//   form of, is written without it:
//     log P(X = 0) = n log q = -bd0(n, nq) - np when p < 0.1 (R's dbinom_raw
//     form: bd0's series then carries the accuracy that n log q, with q
//     rounded, would lose at large n), else n log q;
//     log(2πk(1 - k/n)) = log(2π) + log k + log((n - k)/n), n - k exact,
//     so the last logarithm is off by an ulp of 1 at most.
//   The error stays of order 1e-16·(1 + |log f|), as on the host.
// - stirlerr(n), n = 1..32, is read from a table of 32 doubles (log_pmf.cpp
//   solves it once in double-double), which a GPU reads from its own copy.
#pragma once

#include <cstdint>

#include "lbmc/dist/portable_exp_log.hpp"
#include "lbmc/engine/host_device.hpp"

namespace lbmc::dist {

//! stirlerr(n) for n = 1..kStirlerrTable comes from a table; beyond, the series.
inline constexpr int kStirlerrTable = 32;

namespace detail {

//! stirlerr(n) = log n! - log(sqrt(2πn)(n/e)^n) by its asymptotic series in
//! 1/n (five terms: exact to 1e-23 at n >= 64, to 1e-17 at n > 32).
LBMC_HOST_DEVICE inline double stirlerr_series(double n) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  constexpr double s0 = 1.0 / 12.0, s1 = 1.0 / 360.0, s2 = 1.0 / 1260.0, s3 = 1.0 / 1680.0, s4 = 1.0 / 1188.0;
  const double r = 1.0 / n;
  const double r2 = r * r;
  return (s0 - (s1 - (s2 - (s3 - s4 * r2) * r2) * r2) * r2) * r;
}

//! bd0(x, np) = x log(x/np) + np - x, Loader (2000) §2, by the series in
//! v = (x-np)/(x+np) when x is close to np; `diff` is x - np (given apart, so
//! that a caller can pass it more accurately than np itself), `log` the
//! logarithm of the direct form.
template <class Log>
LBMC_HOST_DEVICE inline double bd0(double x, double np, double diff, const Log& log) noexcept {
  LBMC_SAMPLER_NO_FP_CONTRACT
  const double size = x + np;
  if ((diff < 0.0 ? -diff : diff) < 0.1 * size) {
    const double v = diff / size;
    double s = diff * v;
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
  return x * log(x / np) + np - x;
}

inline constexpr double kLog2Pi = 1.8378770664093454835606594728112353;

}  // namespace detail

//! The Poisson and binomial log-probabilities with portable_log; the tables
//! it reads (host or device copies).
struct PortableLogPmf {
  const double* stirlerr_small;  //!< stirlerr(n) at index n - 1, n = 1..kStirlerrTable
  const ExpLogTables* math;

  //! stirlerr(n), n >= 1 an integer.
  LBMC_HOST_DEVICE double stirlerr(double n) const noexcept {
    if (n <= kStirlerrTable) return stirlerr_small[static_cast<std::int64_t>(n) - 1];
    return detail::stirlerr_series(n);
  }
  //! log x for a positive normal x.
  LBMC_HOST_DEVICE double log(double x) const noexcept { return PortableMath{math}.log(x); }
  //! bd0(x, np) with the difference x - np given.
  LBMC_HOST_DEVICE double bd0(double x, double np, double diff) const noexcept {
    return detail::bd0(x, np, diff, *this);
  }
  LBMC_HOST_DEVICE double operator()(double x) const noexcept { return log(x); }

  //! log P(X = k), X ~ Poisson(lambda), k >= 0 an integer, lambda > 0.
  LBMC_HOST_DEVICE double poisson(double k, double lambda) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    if (k == 0.0) return -lambda;
    return -stirlerr(k) - bd0(k, lambda, k - lambda) - 0.5 * (detail::kLog2Pi + log(k));
  }
  //! log P(X = k), X ~ Binomial(n, p), 0 <= k <= n integers, 0 < p <= 1/2,
  //! q = 1 - p given apart.
  LBMC_HOST_DEVICE double binomial(double k, double n, double p, double q) const noexcept {
    LBMC_SAMPLER_NO_FP_CONTRACT
    if (k == 0.0) return p < 0.1 ? -bd0(n, n * q, n * p) - n * p : n * log(q);
    if (k == n) return n * log(p);
    const double lc = stirlerr(n) - stirlerr(k) - stirlerr(n - k) - bd0(k, n * p, k - n * p) -
                      bd0(n - k, n * q, (n - k) - n * q);
    return lc - 0.5 * (detail::kLog2Pi + log(k) + log((n - k) / n));
  }
};

//! The table of stirlerr(1..kStirlerrTable) on the host (solved on first use).
const double* stirlerr_table();

}  // namespace lbmc::dist
