// Random assignment of N unit tasks to P processors (DESIGN §6 "Random
// assignment"; Franklin, Narayanaswami, Kankanhalli & Akman 1994, §2).
//
// Two models of the processor loads:
//  - the paper's model: P iid Poisson(lambda) loads, lambda = N/P (Franklin
//    §2, f_lambda(k) and G = F^P); its moments come from max_of_iid;
//  - the exact model: the loads are Multinomial(N; 1/P, ..., 1/P) (balls into
//    bins) and the maximum load M has
//      P(M <= k) = N!/P^N · [x^N] (sum_{j<=k} x^j/j!)^P          (DESIGN §6).
// Efficiency is (N/P)/E[max load] in both (Franklin §2, lambda/g-bar).
//
// Design: the laws are value types in Boost.Math's distribution shape
// (DESIGN §9), as max_of_iid.hpp's MaxOfIid: MultinomialMax{N, P}, the
// maximum load of the exact model, and TwoBinMax{N}, its closed forms for two
// processors, with free functions cdf, quantile, support, moments (mean and
// variance together; mean and variance of max_moments.hpp are its parts) and
// ceil_mean (E ceil(M/L)). The
// paper's model is PoissonModel{lambda, P}, whose maximum is
// MaxOfIid{Poisson(lambda), P}; efficiency(model) and efficiency(model,
// Grouping{L, unit_jobs}) are Franklin's efficiencies of either model.
//
// cdf(MultinomialMax) evaluates the coefficient by an exponential tilt and
// an exact lattice inversion. For any t > 0,
//   [x^N] e_k(x)^P = t^{-N} e_k(t)^P · P(Y_1 + ... + Y_P = N),
// with e_k(x) = sum_{j<=k} x^j/j! and Y_i iid on {0..k}, P(Y = j) ∝ t^j/j!
// (a truncated Poisson(t)). t is the saddle point, E Y = N/P (Newton in
// ln t), so N is at the centre of the law of S = sum Y_i and
//   P(S = N) = (1/L) sum_{l<L} psi(2 pi l/L)^P,  psi(theta) = E e^{i(Y-N/P)theta},
// which is exactly sum_m P(S = N + mL) (the trapezoidal rule on the circle).
// L is the smaller of the full span of S (no aliasing at all) and a
// Bernstein bound that makes the aliased mass below 1e-22 P(S = N). psi^P is
// formed as exp(P log1p(z)), z = sum_j p_j (e^{i(j-N/P)theta} - 1), so
// z -> 0 with theta and no digits are lost near the peak. The prefactor
// N!/P^N t^{-N} e_k(t)^P is summed in long double log space, with the
// logarithms, exponentials and log-factorials of extended_math.hpp (+ - * /
// only, so the same bits on every x86-64 processor). Pmf terms below
// e^-80 of the largest are dropped (relative effect < P·1e-34).
// Edge cases are closed forms: k < N/P gives 0, k = N/P gives N!/(k!^P P^N),
// k >= N gives 1.
//
// cdf_dynamic_program is the independent check: processors are filled one
// after another, processor p+1 receiving Binomial(r, 1/(P-p)) of the r tasks
// left, and a long double dynamic program over r carries the probability that
// every processor so far holds <= k. All terms are positive (no cancellation);
// cost O(P·N·k), for N, P up to a few thousand.
//
// Accuracy, measured (tests/balls_into_bins_test.cpp): the two methods agree
// within 2e-15 relative for N, P <= 3000; both match exact rationals
// (tests/reference/balls_into_bins_reference.py, all N <= 6, P <= 4) within
// 8 ulp; at N = P = 1e6 the lattice method is within 1e-13 relative of a
// 40-digit Miller recurrence (the long double prefactor dominates). Near 1
// the cdf is not monotone below the ulp level; the moments use the union
// bound there (see moments(MultinomialMax)).
//
// Cost of one cdf value: O(L · width) complex terms (~22 ns each), width
// ~ 26 sqrt(N/P)+1 the pmf range, L ~ 33·width/2 + 20 sqrt(N): ~1 ms at
// N = P = 1e6; it grows like N/P·sqrt(N). Every reference is therefore held
// to a budget of 2^26 complex terms (~1.5 s): one cdf value, and all the cdf
// values of one moments, quantile or E ceil(M/L) computation together (the
// references behind results/ take at most 1.9e7, N = 3000, P = 30). Beyond
// it they throw analytic::ReferenceUnavailable: at once where one untruncated
// evaluation would exceed twice the budget (from the normal approximation of
// its width and L; e.g. N = 1e9 with P = 3 ... 10, N = 1e12 with P = 1000),
// otherwise when the budget runs out (N = 1e4, P = 10 took 4.7 s and now
// stops after ~2 s; N = 3000, P = 30 takes 0.4 s).
//
// Two processors (M = max(X, N - X) = N/2 + |X - N/2|, X ~ Binomial(N, 1/2))
// have closed forms, used by the functions below beyond N = 2048 (at and
// below it the lattice, whose values are unchanged): the moments from de
// Moivre's mean absolute deviation (moments(TwoBinMax)), the cdf as
// 1 - 2 P(X > k) (cdf(TwoBinMax)), and E ceil(M/L) by residues mod L
// (ceil_mean(TwoBinMax)):
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
// Measured accuracy of the closed forms: moments within 1 ulp of 50-digit
// sums at N = 1e9 ... 3e10; the cdf within 2 eps absolute (it is 1 - 2q).
//
// E ceil(M/L) (ceil_mean(MultinomialMax), groups of unit jobs): the terms
// P(M > jL) are exactly 1 while jL P < N (the cdf is 0 there) and are
// counted, the rest summed in double until below 1e-18 of the sum (the sum
// the command layer has always formed).
#pragma once

#include <cstdint>
#include <utility>

#include "lbmc/analytic/max_moments.hpp"
#include "lbmc/analytic/max_of_iid.hpp"

namespace lbmc::analytic {

// ---------------------------------------------------------------------------
// The exact model: the maximum load M of N tasks on P processors.

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
//! saddle-point tilt and exact lattice inversion (see the note above); P = 2
//! beyond N = 2048 by cdf(TwoBinMax). k < ceil(N/P) gives 0, k >= N gives 1.
//! Throws analytic::ReferenceUnavailable when the evaluation would exceed
//! 2^26 terms.
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

// ---------------------------------------------------------------------------
// Two processors: M = max(X, N - X), X ~ Binomial(N, 1/2), by closed forms.

//! The law of the maximum load of N tasks on two processors, by the closed
//! forms of the note above (N <= 2^53).
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

// ---------------------------------------------------------------------------
// The paper's model and the efficiencies of both models.

//! Franklin §2's model of random assignment: P iid Poisson(lambda) processor
//! loads, lambda = N/P (f_lambda(k) and G = F^P).
class PoissonModel {
 public:
  //! Throws engine::InputError for lambda <= 0 or not finite, or P < 1.
  PoissonModel(double lambda, std::int64_t P);
  //! lambda, the mean load of a processor.
  double lambda() const { return lambda_; }
  //! P.
  std::int64_t processors() const { return processors_; }

 private:
  double lambda_;
  std::int64_t processors_;
};

//! The law of the largest of the P loads: MaxOfIid{Poisson(lambda), P}
//! (Franklin §2: G = F^P).
MaxOfIid max_load(const PoissonModel& model);

//! The paper's efficiency lambda/E[max of P iid Poisson(lambda)] (Franklin
//! §2, Table 1: lambda/g-bar), E by mean(max_load(model)). Throws
//! analytic::ReferenceUnavailable as moments(MaxOfIid).
double efficiency(const PoissonModel& model);

//! The exact (multinomial) efficiency (N/P)/E M. Throws engine::InputError
//! for N < 1; analytic::ReferenceUnavailable as moments(MultinomialMax).
double efficiency(const MultinomialMax& m);

//! Grouping (Franklin §2, last paragraph): the P processors form
//! G = P/group_size groups of L = group_size that share one queue, so a
//! group's load is the sum of L processors' loads. With unit_jobs = false a
//! group finishes at load/L (fractional finishing times), with
//! unit_jobs = true at ceil(load/L).
struct Grouping {
  std::int64_t group_size = 1;
  bool unit_jobs = false;
};

//! The paper's model grouped: a group's load is Poisson(L·lambda). Fractional
//! finishing: lambda/E[max_G load/L] = efficiency(PoissonModel{L·lambda, G}),
//! the model behind the paper's numbers ("exactly the same as the efficiency
//! with N jobs and P/L processors", 0.16 -> 0.30 -> 0.49 for N = P = 3000,
//! L = 1, 3, 10). Unit jobs: lambda/E ceil(max_G load/L), E by ceil_mean
//! (L = 1: both rules are the ungrouped model). Throws engine::InputError
//! unless L >= 1 divides P.
double efficiency(const PoissonModel& model, const Grouping& grouping);

//! The exact model grouped: the G = P/L group loads are
//! Multinomial(N; 1/G, ...), so the largest group load M_G has the law
//! MultinomialMax{N, G}. Fractional: (N/P)/(E[M_G]/L) =
//! efficiency(MultinomialMax{N, G}) (the paper's model of grouping); unit
//! jobs: (N/P)/E ceil(M_G/L), E by ceil_mean (L = 1: both rules are the
//! ungrouped model). Throws engine::InputError unless L >= 1 divides P, or
//! for N < 1; analytic::ReferenceUnavailable beyond the lattice budget.
double efficiency(const MultinomialMax& m, const Grouping& grouping);

// ---------------------------------------------------------------------------
// The number of processors at a target efficiency.

//! The largest P with efficiency(PoissonModel{lambda, P}) >= target (Franklin
//! §2: "the maximum P that may be used for a given lambda, and still achieve
//! 50% efficiency"). The efficiency decreases in P: bracketed by doubling,
//! then bisection. Throws engine::InputError for lambda <= 0 or target
//! outside (0,1]; ReferenceUnavailable when P would exceed 2^62.
std::int64_t largest_P_for_efficiency(double lambda, double target);

//! Franklin §2's closed form for the P at 50% efficiency (normal
//! approximation, median for mean): P ≈ e^{lambda/2} sqrt(2 pi lambda)/ln 2,
//! as printed. Note: the paper quotes P ~ 1200 at lambda = 10, but the
//! printed formula gives 1697 (1200 ≈ e^5 sqrt(20 pi) = 1177, without the
//! 1/ln 2; its own derivation, Q(sqrt lambda) ≈ ln 2/P, gives ×ln 2 = 816);
//! the exact largest P at lambda = 10 is largest_P_for_efficiency(10, 0.5).
//! For another target efficiency e the same steps (completion time lambda/e,
//! F(lambda/e) = 1 - Q(z), z = sqrt(lambda)(1/e - 1), Q(z) ≈ e^{-z^2/2}/(z
//! sqrt(2 pi))) give P ≈ e^{z^2/2} z sqrt(2 pi)/ln 2, the printed form at
//! e = 1/2. Throws engine::InputError for lambda <= 0 or e outside (0,1).
double franklin_P_approximation(double lambda, double target = 0.5);

}  // namespace lbmc::analytic
