// The smallest integer at which a monotone predicate holds: the search behind
// every integer quantile (the laws', the maximum's, the direct tables' ends).
#pragma once

#include <algorithm>
#include <cmath>

namespace lbmc::dist {

//! The smallest integer k in [lo, hi] at which the monotone predicate `ok`
//! holds (ok(hi) is assumed; hi may be infinite), searched from `guess`:
//! galloping away from the guess by doubling steps, then bisection, so a
//! guess that is off by many (Boost's discrete quantiles in extreme tails)
//! costs O(log) evaluations, and the answer satisfies ok(k) and not
//! ok(k - 1) as evaluated. A guess that is not finite starts at lo.
template <class Ok>
double first_integer(const Ok& ok, double guess, double lo, double hi) {
  double x = std::isfinite(guess) ? std::clamp(std::round(guess), lo, hi) : lo;
  double good = 0.0;
  double bad = 0.0;
  if (ok(x)) {
    good = x;
    for (double step = 1.0;; step *= 2.0) {
      if (good <= lo) return lo;
      const double probe = std::max(lo, good - step);
      if (!ok(probe)) {
        bad = probe;
        break;
      }
      good = probe;
    }
  } else {
    bad = x;
    for (double step = 1.0;; step *= 2.0) {
      const double probe = std::min(hi, bad + step);
      if (ok(probe) || probe >= hi) {
        good = probe;
        break;
      }
      bad = probe;
    }
  }
  while (good - bad > 1.0) {
    const double mid = std::floor(bad + (good - bad) / 2.0);
    (ok(mid) ? good : bad) = mid;
  }
  return good;
}

}  // namespace lbmc::dist
