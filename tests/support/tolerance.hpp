// The comparisons of the known-answer tests of analytic/, once: tolerances in
// multiples of machine epsilon (DESIGN §9), relative to the reference value
// or to a stated scale, relative budgets that are not in epsilons (measured
// errors such as 1e-13), and the error itself in epsilons.
#pragma once

#include <cmath>
#include <limits>

namespace lbmc::test {

inline constexpr double kEps = std::numeric_limits<double>::epsilon();

//! |got - want| <= multiple · eps · scale: for a value that can be 0, or
//! whose error is set by another quantity than itself.
inline bool close_to(double got, double want, double multiple, double scale) {
  return std::abs(got - want) <= multiple * kEps * scale;
}

//! |got - want| <= multiple · eps · |want|.
inline bool within_eps(double got, double want, double multiple) {
  return close_to(got, want, multiple, std::abs(want));
}

//! |got - want| <= relative · |want|.
inline bool rel_close(double got, double want, double relative) {
  return std::abs(got - want) <= relative * std::abs(want);
}

//! The relative error |got - want| / |want| in units of eps.
inline double ulps(double got, double want) { return std::abs(got - want) / (kEps * std::abs(want)); }

}  // namespace lbmc::test
