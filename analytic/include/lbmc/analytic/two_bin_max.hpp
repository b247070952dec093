// Two processors: the maximum load M = max(X, N - X) = N/2 + |X - N/2|,
// X ~ Binomial(N, 1/2), of N tasks assigned uniformly to two processors
// (DESIGN §6 "Random assignment"; Franklin et al. 1994, §2), by closed forms.
// MultinomialMax (multinomial_max.hpp) uses them beyond N = 2048, where its
// lattice would cost more than they do.
//
// Design: TwoBinMax{N} is a value type in Boost.Math's distribution shape
// (DESIGN §9), with free functions cdf, moments (mean and variance of
// max_moments.hpp are its parts) and ceil_mean:
//  - the moments from de Moivre's mean absolute deviation;
//  - the cdf as 1 - 2 P(X > k), from Boost's binomial upper tail;
//  - E ceil(M/L) by residues mod L:
//   E ceil(M/L) = (E M + E[(-M) mod L])/L,
//   E[(-M) mod L] = (L-1)/2 + sum_{q=1}^{L-1} Re{ E e^{i w_q M}/(e^{i w_q} - 1) },
//   E e^{i w M} = e^{i w N/2} (cos(w/2)^N + 2i S(w)),  S(w) = sum_{y>0} g(y) sin(w y),
// w_q = 2 pi q/L, g(y) = P(X = N/2 + y) over y in Z (N even) or 1/2 + Z (N odd).
// Poisson summation on that lattice (with the kink of sin(w|y|) at 0) and
// repeated integration by parts give S(w) = sum_r (-1)^r g^{(2r)}(0) K_r(w),
// K_r = (1/(2r)!) (d/dw)^{2r} K_0, K_0 = cot(w/2)/2 (N even) or csc(w/2)/2
// (N odd), the derivatives of g at 0 from ln g(y)/g(0) =
// -sum_j 2 psi^{(2j-1)}(N/2+1) y^{2j}/(2j)!. With 16 L <= sd(X) four terms
// leave less than (L/(2 pi sd))^8·105 ~ 1e-14 of S (S itself < 0.01), and
// cos(w/2)^N < e^{-5000}: cost O(L), error below 1e-15 relative (measured
// within 1 ulp of brute-force 50-digit sums at N = 1e9, 3e10). For larger L
// the terms P(M > jL) = 2 P(X > jL) are few (< 150) and summed.
//
// Accuracy, measured: moments within 1 ulp of 50-digit sums at
// N = 1e9 ... 3e10; the cdf within 2 eps absolute (it is 1 - 2q).
#pragma once

#include <cstdint>

#include "lbmc/analytic/max_moments.hpp"

namespace lbmc::analytic {

//! The law of the maximum load M = max(X, N - X), X ~ Binomial(N, 1/2), of
//! N tasks on two processors, by the closed forms of the note above
//! (N <= 2^53).
class TwoBinMax {
 public:
  using value_type = std::int64_t;
  //! N tasks on two processors. Throws engine::InputError for N < 0.
  explicit TwoBinMax(std::int64_t N);
  //! N.
  std::int64_t tasks() const { return tasks_; }

 private:
  std::int64_t tasks_;
};

//! P(M <= k) = 1 - 2 P(X > k) for 2k >= N (0 below, 1 from k = N on), from
//! Boost's binomial upper tail; absolute error ~2 eps.
double cdf(const TwoBinMax& m, std::int64_t k);

//! E M = N/2 + E|X - N/2| with de Moivre's
//! E|X - N/2| = ceil(N/2) C(N, ceil(N/2))/2^N
//!            = (N/2) Gamma(m + 1/2)/(sqrt(pi) Gamma(m + 1)), m = floor(N/2),
//! and Var M = N/4 - (E|X - N/2|)^2 (since (M - N/2)^2 = (X - N/2)^2), in
//! long double: within 2 ulp. Cost O(1).
MaxMoments moments(const TwoBinMax& m);

//! E ceil(M/L). L = 1: E M. 16 L <= sd(X) = sqrt(N)/2: by residues mod L
//! (see the note above), cost O(L), error below 1e-15 relative; otherwise
//! the short window of terms P(M > jL) = 2 P(X > jL) (fewer than 150).
//! Throws engine::InputError for L < 1.
double ceil_mean(const TwoBinMax& m, std::int64_t L);

}  // namespace lbmc::analytic
