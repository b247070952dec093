// Mean and variance of a maximum, as the exact references compute them:
// together, from one set of sums or quadratures (both need the same tail
// values, and the variance is centred at the mean). moments(law) returns
// both for MaxOfIid (max_of_iid.hpp), MultinomialMax (multinomial_max.hpp)
// and TwoBinMax (two_bin_max.hpp); mean(law) and variance(law), Boost.Math's
// names, are its two parts, declared once here for every such law.
#pragma once

#include <concepts>

namespace lbmc::analytic {

//! E M and Var M of a maximum M.
struct MaxMoments {
  double mean = 0.0;
  double variance = 0.0;
};

//! A law whose moments(law) gives its mean and variance together.
template <class Law>
concept HasMaxMoments = requires(const Law& law) {
  { moments(law) } -> std::convertible_to<MaxMoments>;
};

//! E M: moments(law).mean, at the cost of moments (call moments where both
//! are needed).
template <HasMaxMoments Law>
double mean(const Law& law) {
  return moments(law).mean;
}

//! Var M: moments(law).variance, at the cost of moments.
template <HasMaxMoments Law>
double variance(const Law& law) {
  return moments(law).variance;
}

}  // namespace lbmc::analytic
