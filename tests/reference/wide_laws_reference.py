#!/usr/bin/env python3
"""Reference values for the wide-law cases of tests/max_of_iid_test.cpp and
tests/balls_into_bins_test.cpp, computed independently of lbmc by brute-force
sums over every integer in the window at 50 significant digits.

Run:  python3 tests/reference/wide_laws_reference.py      (~2 minutes;
      Python's decimal module for the sums, mpmath only for one log-gamma
      value per law; Debian: apt-get install python3-mpmath)

Method (no stride, no asymptotics, nothing shared with the C++ code):
- The pmf of X (Poisson(lambda) or Binomial(M, p), p the exact binary value
  of the double the test passes) on k = mode - W .. mode + W, W = 18 sd(X),
  from its value at the mode (mpmath loggamma at 60 digits) by the ratio
  recurrences pmf(k+1)/pmf(k) = lambda/(k+1) or (M-k)p/((k+1)(1-p)), in
  decimal arithmetic at 50 digits. The mass outside the window is below
  1e-65, so F(k) = sum_{j<=k} pmf(j) and P(X > k) = sum_{j>k} pmf(j) are
  accumulated from the ends of the window inwards, both in positive terms.
- Max of n iid loads: H(k) = F(k)^n, taken as (1 - P(X > k))^n in the upper
  half; c = the median of Z (smallest k with H(k) >= 1/2);
    E Z       = c + sum_{k>=c} (1 - H(k)) - sum_{k<c} H(k),
    E (Z-c)^2 = sum_{k>=c} (2(k-c)+1)(1 - H(k)) + sum_{k<c} (2(c-k)-1) H(k),
  over every integer where the summand exceeds 1e-40; Var Z = E(Z-c)^2 -
  (E Z - c)^2. Quantiles: the smallest k with H(k) >= alpha.
  E ceil(Z/L) = sum_{j>=0} P(Z > jL), the terms below the window counted as
  exactly 1 (there 1 - H(k) > 1 - 1e-40).
- Two bins (multinomial, P = 2): M = max(X, N - X), X ~ Binomial(N, 1/2);
  E M = N/2 + sum_x |x - N/2| pmf(x), Var M = N/4 - (E M - N/2)^2 (exact,
  since (M - N/2)^2 = (X - N/2)^2), P(M <= k) = sum_{N-k <= x <= k} pmf(x),
  E ceil(M/L) = sum_x pmf(x) ceil(max(x, N-x)/L).
"""
from decimal import Decimal, getcontext

import mpmath as mp

getcontext().prec = 50
mp.mp.dps = 60


def dec(x):
    return Decimal(mp.nstr(x, 58, strip_zeros=False))


def fmt(x, digits=25):
    return mp.nstr(mp.mpf(str(x)), digits, min_fixed=-5, max_fixed=5, strip_zeros=False)


def window_pmf(kind, a, b=None):
    """(lo, pmf list) for Poisson(a) or Binomial(a, b) over mode +- 18 sd."""
    if kind == "poisson":
        lam = mp.mpf(a)
        mode = int(mp.floor(lam))
        sd = float(mp.sqrt(lam))
        logp = mode * mp.log(lam) - lam - mp.loggamma(mode + 1)
        up = lambda k: Decimal(a) / Decimal(k + 1)          # pmf(k+1)/pmf(k)
        down = lambda k: Decimal(k) / Decimal(a)            # pmf(k-1)/pmf(k)
        top = None
    else:
        M, p = a, mp.mpf(b)                                  # b is a float: exact binary value
        q = 1 - p
        mode = int(mp.floor((M + 1) * p))
        sd = float(mp.sqrt(M * p * q))
        logp = (mp.loggamma(M + 1) - mp.loggamma(mode + 1) - mp.loggamma(M - mode + 1)
                + mode * mp.log(p) + (M - mode) * mp.log(q))
        pd, qd = Decimal(b), 1 - Decimal(b)
        up = lambda k: Decimal(M - k) * pd / (Decimal(k + 1) * qd)
        down = lambda k: Decimal(k) * qd / (Decimal(M - k + 1) * pd)
        top = M
    W = int(18 * sd) + 2
    lo = max(0, mode - W)
    hi = mode + W if top is None else min(top, mode + W)
    pm = dec(mp.exp(logp))
    right = [pm]
    for k in range(mode, hi):
        right.append(right[-1] * up(k))
    left = []
    v = pm
    for k in range(mode, lo, -1):
        v = v * down(k)
        left.append(v)
    pmf = left[::-1] + right
    # the window must hold all but a negligible mass: its end values are tiny
    assert (lo == 0 or pmf[0] < Decimal("1e-60")) and (hi == top or pmf[-1] < Decimal("1e-60")), (kind, a, b)
    return lo, pmf


def tails(pmf):
    """F(k) and P(X > k) for each index, accumulated from the window's ends."""
    F, acc = [], Decimal(0)
    for v in pmf:
        acc += v
        F.append(acc)
    G, acc = [Decimal(0)] * len(pmf), Decimal(0)
    for i in range(len(pmf) - 1, -1, -1):
        G[i] = acc
        acc += pmf[i]
    return F, G


def max_of_iid(kind, a, b, n, alphas=(), ceil_L=()):
    lo, pmf = window_pmf(kind, a, b)
    F, G = tails(pmf)
    half = Decimal(1) / 2
    tiny = Decimal("1e-40")

    def H(i):
        return F[i] ** n if F[i] <= half else (1 - G[i]) ** n

    m = len(pmf)

    def first_reaching(level):
        # the smallest index i with H(i) >= level: bisection on the monotone H
        a_, b_ = 0, m - 1
        while b_ - a_ > 1:
            mid = (a_ + b_) // 2
            if H(mid) >= level:
                b_ = mid
            else:
                a_ = mid
        return b_

    ic = first_reaching(half)  # the median of Z
    s1, s2 = Decimal(0), Decimal(0)
    for i in range(ic, m):
        t = 1 - H(i)
        if t < tiny:
            break
        s1 += t
        s2 += (2 * (i - ic) + 1) * t
    else:
        raise RuntimeError("window too narrow on the right")
    for i in range(ic - 1, -1, -1):
        t = H(i)
        if t < tiny:
            break
        s1 -= t
        s2 += (2 * (ic - i) - 1) * t
    else:
        raise RuntimeError("window too narrow on the left")
    c = lo + ic
    mean = c + s1
    var = s2 - s1 * s1
    qs = []
    for al in alphas:
        qs.append(lo + first_reaching(Decimal(al)))
    ceil_means = []
    for L in ceil_L:
        # terms with jL below the window are 1 to 40+ digits: counted
        j = 0
        total = Decimal(0)
        if lo > 0:
            j = (lo + L - 1) // L          # jL >= lo from here on
            total = Decimal(j)
        while True:
            i = j * L - lo
            if i >= m:
                break
            t = 1 - H(i)
            total += t
            if t < tiny:
                break
            j += 1
        ceil_means.append(total)
    return mean, var, qs, ceil_means


def two_bins(N, ks=(), Ls=()):
    lo, pmf = window_pmf("binomial", N, 0.5)
    half_n = Decimal(N) / 2
    mad = Decimal(0)
    for i, v in enumerate(pmf):
        mad += abs(lo + i - half_n) * v
    mean = half_n + mad
    var = Decimal(N) / 4 - mad * mad
    cdfs = []
    for k in ks:
        cdfs.append(sum(v for i, v in enumerate(pmf) if N - k <= lo + i <= k))
    ceil_means = []
    for L in Ls:
        e = Decimal(0)
        for i, v in enumerate(pmf):
            x = lo + i
            mx = max(x, N - x)
            e += v * ((mx + L - 1) // L)
        ceil_means.append(e)
    return mean, var, cdfs, ceil_means


def main():
    print("// Generated by tests/reference/wide_laws_reference.py (decimal, %d digits)"
          % getcontext().prec)
    print("// max of n iid wide integer laws: {spec, n, E Z, Var Z}, then quantiles, E ceil(Z/L)")
    cases = [("poisson:1e8", "poisson", 1e8, None, 10, (0.05, 0.95), (2, 1000)),
             ("poisson:1e9", "poisson", 1e9, None, 10, (0.95,), (7,)),
             ("poisson:1e6", "poisson", 1e6, None, 10**9, (0.5,), (3,)),
             ("poisson:3e5", "poisson", 3e5, None, 2, (), ()),
             ("binomial:4000000000,0.5", "binomial", 4000000000, 0.5, 10, (0.95,), (5,)),
             ("binomial:100000000000,0.5", "binomial", 10**11, 0.5, 3, (), ()),
             ("binomial:1000000000000,0.001", "binomial", 10**12, 0.001, 7, (0.5,), ()),
             ("binomial:1000000000,0.3", "binomial", 10**9, 0.3, 10, (), ())]
    for spec, kind, a, b, n, alphas, Ls in cases:
        mean, var, qs, cm = max_of_iid(kind, a, b, n, alphas, Ls)
        print('{"%s", %d, %s, %s},' % (spec, n, fmt(mean), fmt(var)))
        print("//   quantiles %s; E ceil(Z/L) %s" % (
            list(zip(alphas, qs)), [(L, fmt(v)) for L, v in zip(Ls, cm)]), flush=True)
    print("// two bins: {N, E M, Var M}, then P(M <= k), E ceil(M/L)")
    for N, ks, Ls in ((10**9, (500000000, 500010000, 500040000), (2, 3, 5, 100)),
                      (10**9 + 1, (500000000, 500010001), (2, 7)),
                      (3 * 10**10 + 7, (), (10,))):
        mean, var, cdfs, cm = two_bins(N, ks, Ls)
        print("{%d, %s, %s}," % (N, fmt(mean), fmt(var)))
        print("//   cdf %s; E ceil(M/L) %s" % ([(k, fmt(v)) for k, v in zip(ks, cdfs)],
                                             [(L, fmt(v)) for L, v in zip(Ls, cm)]), flush=True)


if __name__ == "__main__":
    main()
