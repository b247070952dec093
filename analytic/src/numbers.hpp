// Constants and conversions the analytic sources share.
#pragma once

#include <cstdint>
#include <limits>

namespace lbmc::analytic {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Stopping tolerance of the quadratures (relative to the L1 norm of the
// integrand): the difference of two successive levels. Double-exponential
// rules roughly square their error from one level to the next, so at this
// tolerance the last level is accurate to rounding.
inline constexpr double kQuadTolerance = 1e-10;

// Tail mass below which the sums and integrals over a law's tail stop (above
// the smallest normal double).
inline constexpr double kNegligible = 1e-300;

// A probability P this small leaves 1 − P exactly 1 in double (it rounds
// away below 2^-54): terms below the quantile of this level are counted as
// certain instead of computed.
inline constexpr double kCertainLevel = 0x1p-60;

//! n as a double (exact for |n| <= 2^53, as every count here is).
inline constexpr double as_double(std::int64_t n) { return static_cast<double>(n); }
//! n as a long double (exact: the x87 significand holds 64 bits).
inline constexpr long double as_ld(std::int64_t n) { return static_cast<long double>(n); }

}  // namespace lbmc::analytic
