// The exact multinomial coefficient behind cdf(MultinomialMax): P(M <= k) =
// N!/P^N · [x^N] e_k(x)^P, e_k(x) = sum_{j<=k} x^j/j! (DESIGN §6; Franklin et
// al. 1994, §2), by an exponential tilt and an exact lattice inversion.
//
// Method. For any t > 0,
//   [x^N] e_k(x)^P = t^{-N} e_k(t)^P · P(Y_1 + ... + Y_P = N),
// with Y_i iid on {0..k}, P(Y = j) ∝ t^j/j! (a truncated Poisson(t)). t is
// the saddle point, E Y = N/P (Newton in ln t), so N is at the centre of the
// law of S = sum Y_i and
//   P(S = N) = (1/L) sum_{l<L} psi(2 pi l/L)^P,  psi(theta) = E e^{i(Y-N/P)theta},
// which is exactly sum_m P(S = N + mL) (the trapezoidal rule on the circle).
// L is the smaller of the full span of S (no aliasing at all) and a
// Bernstein bound that makes the aliased mass below 1e-22 P(S = N). psi^P is
// formed as exp(P log1p(z)), z = sum_j p_j (e^{i(j-N/P)theta} - 1), from sin^2
// and sin, so z -> 0 with theta and no digits are lost near the peak. The
// prefactor N!/P^N t^{-N} e_k(t)^P, whose terms are of size N ln N, is summed
// in long double log space, with the logarithms, exponentials and
// log-factorials of extended_math.hpp (+ - * / only, so the same bits on
// every x86-64 processor: logl / expl / lgammal end in x87 instructions whose
// last bit depends on the processor's vendor, and the moments' cancellations
// showed that bit in the printed digits). Pmf terms below e^-80 of the
// largest are dropped (relative effect < P·1e-34). k = N/P is the closed form
// N!/(k!^P P^N).
//
// Cost of one cdf value: O(L · width) complex terms (~22 ns each), width
// ~ 26 sqrt(N/P)+1 the pmf range, L ~ 33·width/2 + 20 sqrt(N): ~1 ms at
// N = P = 1e6; it grows like N/P·sqrt(N). The terms are counted against a
// budget (LatticeBudget) of 2^26 (~1.5 s) for one cdf value, and for all the
// cdf values of one reference together; a reference is refused at once where
// one untruncated evaluation would exceed twice its budget (from the normal
// approximation of its width and L).
#pragma once

#include <cstdint>

namespace lbmc::analytic::detail {

// The complex terms the lattice inversion may still take, shared by the cdf
// values of one reference.
struct LatticeBudget {
  double total;
  double left = total;
};

// The budget of one cdf value: 2^26 terms.
LatticeBudget cdf_budget();

// The budget of a reference that needs several cdf values (moments,
// quantile, E ceil(M/L)): 2^26 terms for all of them. Throws
// analytic::ReferenceUnavailable at once for P >= 3 where one untruncated
// evaluation would already exceed twice that.
LatticeBudget reference_budget(std::int64_t N, std::int64_t P);

// P(M <= k) for N tasks on P processors and N/P <= k < N, by the tilt and the
// lattice inversion above (k = N/P by its closed form). Charges the terms it
// takes to budget; throws analytic::ReferenceUnavailable, taking none, where
// they would exceed what is left.
double lattice_cdf(std::int64_t N, std::int64_t P, std::int64_t k, LatticeBudget& budget);

}  // namespace lbmc::analytic::detail
