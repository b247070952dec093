#!/usr/bin/env python3
"""Reference values for tests/bridge_test.cpp (analytic/bridge.hpp), computed
independently of lbmc at high precision.

Run:  python3 tests/reference/bridge_reference.py   (about 30 s)
      (Debian: apt-get install python3-mpmath python3-numpy; the numpy parts
      of section 6 are skipped with a note when numpy is missing; mpmath 1.2.1
      and 1.3.0 print identical values)

Mehrotra-Ranka-Wang 1992, §3: V_k = X_1 + ... + X_k - k Xbar (a discrete
bridge), W' = max_k V_k / (sigma sqrt n), D' = max_k |V_k| / (sigma sqrt n).

1. Bridge maximum (limit of W'): P(M <= x) = 1 - exp(-2 x^2).
2. Kolmogorov law (limit of D'): K(x) = theta_4(0, exp(-2 x^2))
   = 1 + 2 sum (-1)^i exp(-2 i^2 x^2)
   = sqrt(2 pi)/x sum exp(-(2i-1)^2 pi^2 / (8 x^2)),
   evaluated three ways (mpmath.jtheta, the alternating sum at 450 digits,
   the theta sum) that must agree to 45 digits; quantiles by findroot at 50
   digits; moments by mp.quad against the closed forms.
3. beta = -zeta(1/2)/sqrt(2 pi) (Siegmund 1979; Broadie-Glasserman-Kou 1997).
4. The first-order corrected laws (shift by beta/sqrt n), as formulas.
5. Spitzer's formula for E W' (normal loads):
   E W' = 1/(n sqrt(2 pi)) sum_{k=1}^{n-1} sqrt((n-k)/k),
   by exact sums (n <= 1e5) and by the generalised Euler-Maclaurin (Navot)
   expansion of sum k^(-1/2) (n-k)^(1/2) for larger n, cross-checked.
6. Independent checks of Spitzer's formula and of P(W' = 0) = 1/n, which do
   not use Spitzer's identity:
   - n = 2, 3, 4 in closed form by Gaussian integration by parts (Stein):
     E max_j Y_j = sum_j sum_{i != j} Cov(Y_j, Y_j - Y_i) phi(0)/sd(Y_j - Y_i)
                   * P(Y_j - Y_k >= 0 for all k != i, j | Y_j = Y_i)
     for (Y_0, ..., Y_{n-1}) = (0, V_1, ..., V_{n-1}); the conditional orthant
     probability is 1/2 (one variable) or 1/4 + asin(r)/(2 pi) (two);
     P(W' = 0) = P(V_1 <= 0, ..., V_{n-1} <= 0) by the orthant formulas
     1/4 + asin(r)/(2 pi) and 1/8 + sum asin(r_ij)/(4 pi).
   - n = 3, 4, 8 numerically (numpy): (V_1..V_{n-1}) of iid N(0,1) loads is
     the Gaussian random walk conditioned on S_n = 0, a Markov chain, so
     P(W <= t) is an (n-1)-fold product of Gauss-Legendre Nystrom
     operators, and E W = int_0^inf (1 - P(W <= t)) dt; reported with the
     difference between two grid resolutions.
   - brute-force simulations (numpy, fixed seeds): E W' for n = 8 normal
     loads and P(W' = 0) for exponential and uniform loads.
7. Upper tails: the x with P(M > x) = q (closed form) and with 1 - K(x) = q
   (findroot on the alternating sum) for q down to 2^-1074, and the tails
   P(M - s > x), 1 - K(x + s) of the corrected laws far beyond where
   1 - cdf keeps any digit.
"""
import mpmath as mp
from mpmath import mpf

mp.mp.dps = 50

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None


def fmt(x, digits=25):
    return mp.nstr(mpf(x), digits, min_fixed=-5, max_fixed=5, strip_zeros=False)


def section(title):
    print()
    print("// " + "-" * 70)
    print("// " + title)


# ------------------------------------------------------------ 1. bridge max
def bm_cdf(x):
    x = mpf(x)
    return 1 - mp.exp(-2 * x * x) if x > 0 else mpf(0)


def bm_ccdf(x):
    x = mpf(x)
    return mp.exp(-2 * x * x) if x > 0 else mpf(1)


def bm_quantile(p):
    return mp.sqrt(-mp.log(1 - mpf(p)) / 2)


section("1. bridge maximum: x, cdf, ccdf")
for x in [0.1, 0.5, 1.0, 1.5, 3.0, 10.0]:
    print("    {%s, %s, %s}," % (repr(x), fmt(bm_cdf(x)), fmt(bm_ccdf(x))))
print("// p, quantile")
for p in [1e-10, 0.01, 0.5, 0.95, 0.99, 1 - 1e-12]:
    print("    {%s, %s}," % (repr(p), fmt(bm_quantile(p))))
bm_mean = mp.sqrt(mp.pi / 2) / 2
print("// mean %s  (quad %s)" % (fmt(bm_mean), fmt(mp.quad(bm_ccdf, [0, mp.inf]))))
print("// second moment 1/2  (quad %s)" % fmt(mp.quad(lambda x: 2 * x * bm_ccdf(x), [0, mp.inf])))
print("// variance 1/2 - pi/8 = %s" % fmt(mpf(1) / 2 - mp.pi / 8))


# ------------------------------------------------------------ 2. Kolmogorov
def k_theta(x):
    """sqrt(2 pi)/x sum exp(-(2i-1)^2 pi^2/(8 x^2)); positive terms."""
    x = mpf(x)
    c = mp.pi ** 2 / (8 * x * x)
    s, i = mpf(0), 1
    while True:
        t = mp.exp(-(2 * i - 1) ** 2 * c)
        s += t
        if t < s * mpf(10) ** (-mp.mp.dps - 5):
            break
        i += 1
    return mp.sqrt(2 * mp.pi) / x * s


def k_alt_ccdf(x):
    """2 sum (-1)^(i+1) exp(-2 i^2 x^2), at enough digits to survive the
    cancellation (K(0.04165) ~ 1e-307 needs 307 extra digits)."""
    x = mpf(x)
    with mp.workdps(mp.mp.dps + 400):
        s, i = mpf(0), 1
        while True:
            t = mp.exp(-2 * i * i * x * x)
            s += t if i % 2 else -t
            if t < mpf(10) ** (-mp.mp.dps - 400):
                break
            i += 1
        return +(2 * s)


def k_jtheta(x):
    x = mpf(x)
    with mp.workdps(mp.mp.dps + 400):
        return +mp.jtheta(4, 0, mp.exp(-2 * x * x))


def k_pdf(x):
    """dK/dx: 8 x sum (-1)^(i+1) i^2 exp(-2 i^2 x^2) for x > 1 (dominated by
    its first term); the derivative of the theta form for x <= 1, whose terms
    cancel for large x."""
    x = mpf(x)
    if x > 1:
        s, i = mpf(0), 1
        while True:
            t = i * i * mp.exp(-2 * i * i * x * x)
            s += t if i % 2 else -t
            if t < abs(s) * mpf(10) ** (-mp.mp.dps - 5):
                break
            i += 1
        return 8 * x * s
    s, i = mpf(0), 1
    while True:
        a = (2 * i - 1) ** 2 * mp.pi ** 2 / 8
        t = mp.exp(-a / (x * x)) * (2 * a / x ** 4 - 1 / (x * x))
        s += t
        if abs(t) < abs(s) * mpf(10) ** (-mp.mp.dps - 5):
            break
        i += 1
    return mp.sqrt(2 * mp.pi) * s


def k_cdf(x):
    return k_theta(x)


def k_ccdf(x):
    return k_alt_ccdf(x) if x > 0.5 else 1 - k_theta(x)


section("2. Kolmogorov: x, cdf, ccdf, pdf  (three evaluations agree to 45 digits;"
        " x = 0.04165: e^{-pi^2/(8x^2)} alone is subnormal, K is not)")
worst = mpf(0)
for x in [0.04165, 0.05, 0.1, 0.2, 0.29, 0.5, 0.8275, 1.0, 1.36, 2.0, 3.0, 3.5, 5.0]:
    kt, kj = k_theta(x), k_jtheta(x)
    ka = 1 - k_alt_ccdf(x)
    worst = max(worst, abs(kt - kj) / kt, abs(kt - ka) / kt)
    with mp.workdps(500):
        cc_j = 1 - k_jtheta(x)
    cc = k_ccdf(x)
    worst = max(worst, abs(cc - cc_j) / cc)
    # The density against a numerical derivative of the jtheta form.
    with mp.workdps(500):
        dnum = mp.diff(lambda y: mp.jtheta(4, 0, mp.exp(-2 * y * y)), mpf(x))
    worst = max(worst, abs(k_pdf(x) - dnum) / k_pdf(x))
    print("    {%s, %s, %s, %s}," % (repr(x), fmt(kt), fmt(cc), fmt(k_pdf(x))))
assert worst < mpf(10) ** -45, worst
print("// worst relative disagreement between evaluations: %s" % mp.nstr(worst, 3))


def k_quantile(p):
    p = mpf(p)
    if p <= mpf(1) / 2:
        f = lambda x: mp.log(k_theta(x)) - mp.log(p)
        x0 = mp.pi / mp.sqrt(8 * (-mp.log(p) + 1))
    else:
        q = 1 - p
        f = lambda x: mp.log(k_alt_ccdf(x)) - mp.log(q)
        x0 = mp.sqrt(mp.log(2 / q) / 2)
    return mp.findroot(f, x0, tol=mpf(10) ** -45)


print("// p, quantile")
for p in [1e-10, 0.01, 0.5, 0.95, 0.99, 1 - 1e-12]:
    xq = k_quantile(p)
    # residual check in the well-conditioned tail
    r = k_theta(xq) - p if p <= 0.5 else k_alt_ccdf(xq) - (1 - mpf(p))
    assert abs(r) < mpf(10) ** -40 * min(mpf(p), 1 - mpf(p)), r
    print("    {%s, %s}," % (repr(p), fmt(xq)))
k_mean = mp.sqrt(mp.pi / 2) * mp.log(2)
k_m2 = mp.pi ** 2 / 12
qm = mp.quad(k_ccdf, [0, 0.5, 1, 2, 4, mp.inf])
q2 = mp.quad(lambda x: 2 * x * k_ccdf(x), [0, 0.5, 1, 2, 4, mp.inf])
print("// mean sqrt(pi/2) ln 2 = %s  (quad %s)" % (fmt(k_mean), fmt(qm)))
print("// second moment pi^2/12 = %s  (quad %s)" % (fmt(k_m2), fmt(q2)))
print("// variance pi^2/12 - (pi/2) ln^2 2 = %s" % fmt(k_m2 - k_mean ** 2))
assert abs(qm - k_mean) < mpf(10) ** -40 and abs(q2 - k_m2) < mpf(10) ** -40

# ------------------------------------------------------------------ 3. beta
section("3. monitoring beta = -zeta(1/2)/sqrt(2 pi)")
zeta_half = mp.zeta(mpf(1) / 2)
beta = -zeta_half / mp.sqrt(2 * mp.pi)
print("// zeta(1/2) = %s" % fmt(zeta_half, 30))
print("// beta      = %s" % fmt(beta, 30))

# ------------------------------------------------------- 4. corrected laws
section("4. corrected laws, shift s = beta/sqrt(n): n, x, cdf(x+s), K(x+s); "
        "p, quantiles; means; second moments")
for n in [16, 64, 1000]:
    s = beta / mp.sqrt(n)
    print("// n = %d" % n)
    for x in [0.5, 1.2]:
        print("    {%d, %s, %s, %s}," % (n, repr(x), fmt(bm_cdf(mpf(x) + s)),
                                        fmt(k_cdf(mpf(x) + s))))
    for p in [0.5, 0.95]:
        print("    q {%d, %s, %s, %s}," % (n, repr(p), fmt(bm_quantile(p) - s),
                                          fmt(k_quantile(p) - s)))
    print("    m {%d, %s, %s, %s, %s}," % (
        n, fmt(bm_mean - s), fmt(mpf(1) / 2 - 2 * s * bm_mean + s * s),
        fmt(k_mean - s), fmt(k_m2 - 2 * s * k_mean + s * s)))
    # the second moments by quadrature of the shifted laws (M - s has mass
    # below 0): E (M - s)^2 = int 2 |y| P(|M - s| > |y|) splits at 0.
    e2b = mp.quad(lambda y: 2 * y * bm_ccdf(y + s), [0, mp.inf]) + \
        mp.quad(lambda y: -2 * y * bm_cdf(y + s), [-s, 0])
    assert abs(e2b - (mpf(1) / 2 - 2 * s * bm_mean + s * s)) < mpf(10) ** -40


# ------------------------------------------------------------- 5. Spitzer
def spitzer_sum_direct(n):
    return mp.fsum(mp.sqrt(mpf(n - k) / k) for k in range(1, n))


def spitzer_sum_asym(n, J=40):
    """Navot's generalised Euler-Maclaurin expansion of
    sum_{k=1}^{n-1} k^a (n-k)^b, a = -1/2, b = 1/2:
    n B(a+1, b+1) + sum_j zeta(-a-j) C(b,j)(-1)^j n^(b-j)
                  + sum_j zeta(-b-j) C(a,j)(-1)^j n^(a-j)."""
    n = mpf(n)
    h = mpf(1) / 2
    s = n * mp.pi / 2
    for j in range(J):
        s += mp.zeta(h - j) * mp.binomial(h, j) * (-1) ** j * n ** (h - j)
        s += mp.zeta(-h - j) * mp.binomial(-h, j) * (-1) ** j * n ** (-h - j)
    return s


def spitzer_mean(n):
    S = spitzer_sum_direct(n) if n <= 100000 else spitzer_sum_asym(n)
    return S / (n * mp.sqrt(2 * mp.pi))


section("5. Spitzer: n, E W' = sum_{k<n} sqrt((n-k)/k) / (n sqrt(2 pi))")
for n in [1000, 10000, 100000]:
    d, a = spitzer_sum_direct(n), spitzer_sum_asym(n)
    assert abs(d - a) < mpf(10) ** -45 * d, (n, d, a)
print("// direct sums and the expansion agree to 45 digits at n = 1e3, 1e4, 1e5")
for n in [2, 3, 4, 8, 16, 100, 256, 257, 1000, 10000, 100000, 10 ** 7, 10 ** 9, 10 ** 12]:
    print("    {%d, %s}," % (n, fmt(spitzer_mean(n))))
c1 = (mp.zeta(-mpf(1) / 2) / 2) / mp.sqrt(2 * mp.pi)
print("// E W' = sqrt(pi/2)/2 - beta/sqrt(n) + c1 n^(-3/2) + O(n^(-5/2)),"
      " c1 = zeta(-1/2)/(2 sqrt(2 pi)) = %s" % fmt(c1))
for n in [10 ** 3, 10 ** 6]:
    r = (spitzer_mean(n) - bm_mean + beta / mp.sqrt(n)) * mpf(n) ** 1.5
    print("//   n = %d: (E W' - limit + beta/sqrt n) n^1.5 = %s" % (n, fmt(r, 12)))


# ------------------------------------------- 6. independent verification
section("6. independent checks of Spitzer's formula and P(W' = 0) = 1/n")


def bridge_cov(n):
    """Cov(V_k, V_l) = min(k,l)(n - max(k,l))/n, k, l = 1..n-1, sigma = 1."""
    return [[mpf(min(k, l)) * (n - max(k, l)) / n for l in range(1, n)] for k in range(1, n)]


def stein_mean_max(n):
    """E max(0, V_1..V_{n-1}) for n <= 4, by Gaussian integration by parts."""
    C0 = bridge_cov(n)
    m = n  # variables Y_0 = 0, Y_1..Y_{n-1}
    C = [[mpf(0)] * m for _ in range(m)]
    for i in range(1, m):
        for j in range(1, m):
            C[i][j] = C0[i - 1][j - 1]

    def cov_d(j, a, b):  # Cov(Y_j - Y_a, Y_j - Y_b)
        return C[j][j] - C[j][b] - C[a][j] + C[a][b]

    total = mpf(0)
    for j in range(m):
        for i in range(m):
            if i == j:
                continue
            var_di = cov_d(j, i, i)
            c_yj_di = C[j][j] - C[j][i]
            dens = 1 / mp.sqrt(2 * mp.pi * var_di)
            others = [k for k in range(m) if k not in (i, j)]
            if len(others) == 0:
                prob = mpf(1)
            elif len(others) == 1:
                prob = mpf(1) / 2
            elif len(others) == 2:
                a, b = others
                # conditional covariance of (D_a, D_b) given D_i = 0
                caa = cov_d(j, a, a) - cov_d(j, a, i) ** 2 / var_di
                cbb = cov_d(j, b, b) - cov_d(j, b, i) ** 2 / var_di
                cab = cov_d(j, a, b) - cov_d(j, a, i) * cov_d(j, b, i) / var_di
                prob = mpf(1) / 4 + mp.asin(cab / mp.sqrt(caa * cbb)) / (2 * mp.pi)
            else:
                raise ValueError("closed form only for n <= 4")
            total += c_yj_di * dens * prob
    return total


def orthant_p_zero(n):
    C = bridge_cov(n)
    if n == 2:
        return mpf(1) / 2
    r = lambda k, l: C[k][l] / mp.sqrt(C[k][k] * C[l][l])
    if n == 3:
        return mpf(1) / 4 + mp.asin(r(0, 1)) / (2 * mp.pi)
    if n == 4:
        return mpf(1) / 8 + (mp.asin(r(0, 1)) + mp.asin(r(0, 2)) + mp.asin(r(1, 2))) / (4 * mp.pi)
    raise ValueError


for n in [2, 3, 4]:
    ew = stein_mean_max(n) / mp.sqrt(n)
    print("// n = %d: E W' closed form (Stein) %s, Spitzer %s, rel diff %s;"
          " P(W'=0) orthant %s (1/n = %s)" % (
              n, fmt(ew, 30), fmt(spitzer_mean(n), 30),
              mp.nstr((ew - spitzer_mean(n)) / ew, 3), fmt(orthant_p_zero(n), 20),
              fmt(mpf(1) / n, 20)))
    assert abs(ew - spitzer_mean(n)) < mpf(10) ** -45
    assert abs(orthant_p_zero(n) - mpf(1) / n) < mpf(10) ** -45


def nystrom(n, panel, nodes_per_panel):
    """(E W', P(W' = 0)) for iid N(0,1) loads by Gauss-Legendre Nystrom on
    the Markov chain S_1..S_{n-1} given S_n = 0 (double precision)."""
    T = 5.5 * np.sqrt(n)         # P(W' > 5.5) = e^{-60.5}
    L = T + 8.0 * np.sqrt(n)     # mass of V_k < t - L below e^{-128}
    g, gw = np.polynomial.legendre.leggauss(nodes_per_panel)

    def composite(a, b, h):
        k = int(np.ceil((b - a) / h))
        edges = np.linspace(a, b, k + 1)
        half = (edges[1:, None] - edges[:-1, None]) / 2
        mid = (edges[1:, None] + edges[:-1, None]) / 2
        xs = half * g + mid
        ws = half * gw
        return xs.ravel(), ws.ravel()

    u, w = composite(0.0, L, panel)
    phi = lambda z: np.exp(-0.5 * z * z) / np.sqrt(2 * np.pi)
    K = phi(u[:, None] - u[None, :]) * w[None, :]   # K[a, b] = phi(u_a - u_b) w_b

    def p_le(ts):
        F = phi(ts[None, :] - u[:, None])            # f_1(u) for each t (columns)
        for _ in range(n - 2):
            F = K @ F
        last = w[:, None] * F * phi(ts[None, :] - u[:, None])
        return np.sqrt(2 * np.pi * n) * np.sum(last, axis=0)

    t, tw = composite(0.0, T, panel / 2)
    ew = np.sum(tw * (1.0 - p_le(t))) / np.sqrt(n)
    return ew, p_le(np.array([0.0]))[0]


def simulate(n, reps, law, seed, chunk=10 ** 6):
    rng = np.random.default_rng(seed)
    s_w, s_w2, zeros, done = 0.0, 0.0, 0, 0
    while done < reps:
        m = min(chunk, reps - done)
        X = {"normal": lambda: rng.standard_normal((m, n)),
             "exponential": lambda: rng.exponential(1.0, (m, n)),
             "uniform": lambda: rng.random((m, n))}[law]()
        V = np.cumsum(X - X.mean(axis=1, keepdims=True), axis=1)[:, :-1]
        W = np.maximum(V.max(axis=1), 0.0)  # W = W' sqrt(n) for sigma = 1 (normal loads)
        s_w += W.sum()
        s_w2 += (W * W).sum()
        zeros += int(np.sum(V.max(axis=1) <= 0.0))
        done += m
    mean = s_w / reps
    se = np.sqrt((s_w2 / reps - mean * mean) / reps)
    return mean, se, zeros / reps


if np is None:
    print("// numpy missing: Nystrom and simulation checks skipped")
else:
    for n in [3, 4, 8]:
        a = nystrom(n, 1.0, 16)
        b = nystrom(n, 0.5, 24)
        sp = float(spitzer_mean(n))
        print("// n = %d: Nystrom E W' %.17g (grid difference %.1e), Spitzer %.17g, rel diff %.1e;"
              " P(W'=0) %.17g (1/n %.17g)" % (n, b[0], abs(a[0] - b[0]), sp, (b[0] - sp) / sp,
                                              b[1], 1.0 / n))
        assert abs(b[0] - sp) < 1e-13 * sp and abs(b[1] - 1.0 / n) < 1e-13
    # Brute force. W' for normal loads with sigma = 1: W / sqrt(n).
    n, reps = 8, 10 ** 7
    m, se, pz = simulate(n, reps, "normal", 20240601)
    sp = float(spitzer_mean(n))
    print("// simulation n = 8 normal, %d reps: E W' %.6f +- %.6f (Spitzer %.6f, z = %.2f);"
          " P(W'=0) %.5f (1/8, z = %.2f)" % (reps, m / np.sqrt(n), se / np.sqrt(n), sp,
                                             (m / np.sqrt(n) - sp) / (se / np.sqrt(n)), pz,
                                             (pz - 1 / 8) / np.sqrt(1 / 8 * 7 / 8 / reps)))
    for n, law in [(5, "exponential"), (7, "uniform")]:
        reps = 4 * 10 ** 6
        _, _, pz = simulate(n, reps, law, 7 + n)
        print("// simulation n = %d %s loads, %d reps: P(W'=0) = %.5f (1/n = %.5f, z = %.2f)" % (
            n, law, reps, pz, 1 / n, (pz - 1 / n) / np.sqrt(1 / n * (1 - 1 / n) / reps)))


# ------------------------------------------------------------ 7. upper tails
def k_upper_quantile(q):
    """The root of 1 - K(x) = q, for q < 1/2, on the alternating series."""
    q = mpf(q)
    f = lambda x: mp.log(k_alt_ccdf(x)) - mp.log(q)
    return mp.findroot(f, mp.sqrt(mp.log(2 / q) / 2), tol=mpf(10) ** -45)


section("7. upper tails: q, x with P(M > x) = q, x with 1 - K(x) = q; "
        "n, x, P(M - s > x), 1 - K(x + s)")
for q in [0.3, 0.05, 1e-10, 1e-20, 1e-100, 1e-300, 5e-324]:
    xb = mp.sqrt(-mp.log(mpf(q)) / 2)
    xk = k_upper_quantile(q)
    assert abs(k_alt_ccdf(xk) - mpf(q)) < mpf(10) ** -40 * mpf(q)
    print("    {%s, %s, %s}," % (repr(q), fmt(xb), fmt(xk)))
for n in [16, 1000]:
    s = beta / mp.sqrt(n)
    for x in [3.0, 6.0]:
        print("    {%d, %s, %s, %s}," % (n, repr(x), fmt(bm_ccdf(mpf(x) + s)), fmt(k_alt_ccdf(mpf(x) + s))))
