// The maximum load of random assignment, exactly (DESIGN §6 "Random
// assignment"; Franklin, Narayanaswami, Kankanhalli & Akman 1994, §2). N unit
// tasks assigned independently and uniformly to P processors give
// Multinomial(N; 1/P, ..., 1/P) loads (balls into bins), and their maximum M
// has
//   P(M <= k) = N!/P^N · [x^N] (sum_{j<=k} x^j/j!)^P          (DESIGN §6).
//
// Design: the law is a value type, MultinomialMax{N, P}, in Boost.Math's
// distribution shape (DESIGN §9), as max_of_iid.hpp's MaxOfIid: free
// functions cdf, quantile, support, moments (mean and variance together; mean
// and variance of max_moments.hpp are its parts) and ceil_mean (E ceil(M/L)),
// with cdf_dynamic_program as the independent check. The jobs are in their
// own files:
//  - the cdf's edges are closed forms here (k < N/P gives 0, k >= N gives
//    1); two processors beyond N = 2048 go to two_bin_max.hpp (at and below
//    it the lattice, whose values are unchanged); everything else, k = N/P
//    included, is the exact lattice inversion of multinomial_lattice.cpp
//    (saddle-point tilt and the trapezoidal rule on the unit circle; its
//    note states the method and its cost);
//  - cdf_dynamic_program (multinomial_dynamic_program.cpp) fills the
//    processors one after another: processor p+1 receives
//    Binomial(r, 1/(P-p)) of the r tasks left, and a long double dynamic
//    program over r carries the probability that every processor so far
//    holds <= k. All terms are positive (no cancellation); cost O(P·N·k), for
//    N, P up to a few thousand;
//  - the quantile, the moments and E ceil(M/L) are sums and searches over
//    the cdf, here.
//
// Accuracy, measured (tests/balls_into_bins_test.cpp): the two methods agree
// within 2e-15 relative for N, P <= 3000; both match exact rationals
// (tests/reference/balls_into_bins_reference.py, all N <= 6, P <= 4) within
// 8 ulp; at N = P = 1e6 the lattice method is within 1e-13 relative of a
// 40-digit Miller recurrence (the long double prefactor dominates). Near 1
// the cdf is not monotone below the ulp level; the moments use the union
// bound there (see moments(MultinomialMax)).
//
// Cost: every reference is held to a budget of 2^26 complex terms of the
// lattice inversion (~1.5 s): one cdf value, and all the cdf values of one
// moments, quantile or E ceil(M/L) computation together (the references
// behind results/ take at most 1.9e7, N = 3000, P = 30). Beyond it they throw
// analytic::ReferenceUnavailable: at once where one untruncated evaluation
// would exceed twice the budget (e.g. N = 1e9 with P = 3 ... 10, N = 1e12
// with P = 1000), otherwise when the budget runs out (N = 1e4, P = 10 took
// 4.7 s and now stops after ~2 s; N = 3000, P = 30 takes 0.4 s).
//
// E ceil(M/L) (ceil_mean, groups of unit jobs): the terms P(M > jL) are
// exactly 1 while jL P < N (the cdf is 0 there) and are counted, the rest
// summed in double until below 1e-18 of the sum (the sum the command layer
// has always formed).
#pragma once

#include <cstdint>
#include <utility>

#include "lbmc/analytic/max_moments.hpp"

namespace lbmc::analytic {

//! The law of the maximum load M of N tasks assigned independently and
//! uniformly to P processors: the loads are Multinomial(N; 1/P, ..., 1/P)
//! (DESIGN §6; the exact form of Franklin §2).
class MultinomialMax {
 public:
  using value_type = std::int64_t;
  //! N tasks on P processors. Throws engine::InputError for N < 0 or P < 1.
  MultinomialMax(std::int64_t N, std::int64_t P);
  //! N.
  std::int64_t tasks() const { return tasks_; }
  //! P.
  std::int64_t processors() const { return processors_; }

 private:
  std::int64_t tasks_;
  std::int64_t processors_;
};

//! P(M <= k) = N!/P^N [x^N] (sum_{j<=k} x^j/j!)^P (DESIGN §6), by
//! saddle-point tilt and exact lattice inversion (multinomial_lattice.cpp);
//! P = 2 beyond N = 2048 by cdf(TwoBinMax). k < ceil(N/P) gives 0, k >= N
//! gives 1. Throws analytic::ReferenceUnavailable when the evaluation would
//! exceed 2^26 terms.
double cdf(const MultinomialMax& m, std::int64_t k);

//! The same probability by an independent method: a long double dynamic
//! program over processors (processor p+1 gets Binomial(r, 1/(P-p)) of the
//! r tasks left), O(P·N·min(k,N)) time, O(N) memory. Exposed so the two can
//! check each other. Throws engine::InputError when P·N·min(k,N) exceeds
//! 1e10 or N exceeds 1e4.
double cdf_dynamic_program(const MultinomialMax& m, std::int64_t k);

//! The support of M: from ceil(N/P) (every processor as full as the others
//! allow) to N (one processor takes every task).
std::pair<std::int64_t, std::int64_t> support(const MultinomialMax& m);

//! The smallest k with P(M <= k) >= alpha (as cdf evaluates it), alpha in
//! [0,1], by bisection on the support; alpha = 0 gives the lowest possible
//! maximum ceil(N/P), alpha = 1 the smallest k whose computed cdf is 1 (at
//! most N). Throws engine::InputError for alpha outside [0,1];
//! analytic::ReferenceUnavailable beyond the lattice budget (2^26 terms for
//! all the cdf values together).
std::int64_t quantile(const MultinomialMax& m, double alpha);

//! E M and Var M from the cdf, centred at the median c of M:
//! E M = c + sum_{k>=c} P(M > k) - sum_{k<c} P(M <= k),
//! E (M-c)^2 = sum_{k>=c} (2(k-c)+1) P(M > k) + sum_{k<c} (2(c-k)-1) P(M <= k).
//! Where the union bound u(k) = P·P(Bin(N,1/P) > k) is below 1e-8,
//! P(M > k) is taken as u(k) (Bonferroni: u - u^2/2 <= P(M > k) <= u, so the
//! error is below 1e-16 absolute); sums stop when the neglected terms are
//! below 1e-18 relative. P = 2 beyond N = 2048: moments(TwoBinMax).
//! Throws analytic::ReferenceUnavailable beyond the lattice budget (2^26
//! terms).
MaxMoments moments(const MultinomialMax& m);

//! E ceil(M/L) = sum_{j>=0} P(M > jL) for an integer L >= 1: the time of
//! the most loaded of P groups of unit jobs served L at a time (Franklin §2,
//! grouping). The leading terms, exactly 1 while jL·P < N, are counted; the
//! rest summed until below 1e-18 of the sum (P = 2 beyond N = 2048:
//! ceil_mean(TwoBinMax)). Throws engine::InputError for L < 1;
//! analytic::ReferenceUnavailable beyond the lattice budget (2^26 terms).
double ceil_mean(const MultinomialMax& m, std::int64_t L);

}  // namespace lbmc::analytic
