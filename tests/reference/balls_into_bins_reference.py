#!/usr/bin/env python3
"""Reference values for tests/balls_into_bins_test.cpp, computed independently
of lbmc (standard library only).

Run:  python3 tests/reference/balls_into_bins_reference.py [--big]

M = the maximum load when N unit tasks go independently and uniformly to P
processors (DESIGN §6; Franklin et al. 1994 §2, exact multinomial model):
  P(M <= k) = N!/P^N [x^N] (sum_{j<=k} x^j/j!)^P.

- tiny: every one of the P^N assignments enumerated, exact Fractions
  (N <= 6, P <= 4): cdf at every k, E M and Var M.
- moderate and big: J.C.P. Miller's recurrence for the coefficients of a
  power of a polynomial, g = f^P, f = e_k, f_0 = 1:
      n g_n = sum_{i=1}^{min(k,n)} ((P+1) i - n) f_i g_{n-i},
  rewritten for b_n = n!/P^n g_n (so P(M <= k) = b_N):
      b_n = sum_i ((P+1) i - n)/(i P) * C(n-1, i-1)/P^(i-1) * b_{n-i}.
  For N <= P + 1 every term is >= 0, so no cancellation; evaluated in
  Python's decimal at 40 digits (relative error <= ~N k 1e-40).
  E M = sum_k P(M > k), Var from sum_k (2k+1) P(M > k), over k until the
  tail is below 1e-30.
"""
import sys
from decimal import Decimal, getcontext
from fractions import Fraction
from itertools import product

getcontext().prec = 40


def enumerate_law(N, P):
    """Exact law of M: {m: Fraction}."""
    law = {}
    w = Fraction(1, P ** N)
    for a in product(range(P), repeat=N):
        loads = [0] * P
        for x in a:
            loads[x] += 1
        m = max(loads) if N > 0 else 0
        law[m] = law.get(m, 0) + w
    return law


def miller_cdf(N, P, k):
    """P(M <= k) by Miller's recurrence in 40-digit decimal (N <= P + 1)."""
    assert N <= P + 1
    if k >= N:
        return Decimal(1)
    b = [Decimal(1)]
    dP = Decimal(P)
    for n in range(1, N + 1):
        s = Decimal(0)
        r = Decimal(1)  # C(n-1, i-1) / P^(i-1)
        for i in range(1, min(k, n) + 1):
            if i > 1:
                r = r * (n - i + 1) / ((i - 1) * dP)
            s += Decimal((P + 1) * i - n) / (i * dP) * r * b[n - i]
        b.append(s)
    return b[N]


def miller_moments(N, P):
    mean = Decimal(0)
    second = Decimal(0)
    k = 0
    while k < N:
        t = 1 - miller_cdf(N, P, k)
        mean += t
        second += (2 * k + 1) * t
        if k > N / P and t < Decimal("1e-30"):
            break
        k += 1
    return mean, second - mean * mean


def d(x, digits=20):
    return format(Decimal(x.numerator) / Decimal(x.denominator) if isinstance(x, Fraction) else x,
                  f".{digits}g")


def main():
    print("// tiny: exact enumeration, {N, P, k, P(M <= k)}")
    for N in range(1, 7):
        for P in range(1, 5):
            law = enumerate_law(N, P)
            acc = Fraction(0)
            for k in range(0, N + 1):
                acc += law.get(k, 0)
                print(f"    {{{N}, {P}, {k}, {d(acc)}}},  // {acc}")
    print("// tiny: exact enumeration, {N, P, E M, Var M}")
    for N in range(1, 7):
        for P in range(1, 5):
            law = enumerate_law(N, P)
            mean = sum(m * p for m, p in law.items())
            var = sum((m - mean) ** 2 * p for m, p in law.items())
            print(f"    {{{N}, {P}, {d(mean)}, {d(var)}}},  // {mean}, {var}")
    print("// moderate: Miller recurrence, {N, P, E M, Var M}")
    for N, P in [(10, 10), (30, 30), (100, 100), (1000, 1000), (100, 1000), (1000, 999)]:
        m, v = miller_moments(N, P)
        print(f"    {{{N}, {P}, {d(m, 22)}, {d(v, 22)}}},")
    if "--big" in sys.argv:
        print("// big: Miller recurrence, {N, P, k, P(M <= k)}")
        for k in (7, 8, 9, 10):
            print(f"    {{1000000, 1000000, {k}, {d(miller_cdf(10**6, 10**6, k), 22)}}},", flush=True)


if __name__ == "__main__":
    main()
