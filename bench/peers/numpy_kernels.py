#!/usr/bin/python3
"""Idiomatic NumPy versions of the kernels lbmc benchmarks (the peer).

Each kernel is written the way a NumPy user would write it: whole chunks of
replications drawn with one numpy.random.Generator(PCG64) call, reductions
along an axis. Chunks hold at most --chunk variates (default 2^20, 8 MiB of
float64; whole replications, at least one) so memory stays bounded at any n.
2^20 is NumPy's sweet spot here: at 2^22 every chunk's arrays come from fresh
mmap'ed pages and the page faults cost NumPy 20-30 %.

Prints on stdout one number: the median over --repeats repetitions of the
wall time per variate in ns (per replication for direct-max, per 64-bit
output or double for the rng kernels). Details go to stderr.

Kernels
  maxload     rng.<law>(size=(r, n)).max(axis=1)
  maxshift    S = cumsum(loads, axis=1); V = S - k * S[:, -1:] / n;
              W = V[:, :-1].max(axis=1); D = abs(V).max(axis=1)
  assign      N = --n tasks thrown to P = --bins processors:
              rng.integers(0, P, (r, N)) counted with one bincount over
              row-offset indices, then max(axis=1) (ns per task)
  direct-max  the maximum of n iid exponential loads by inversion of F^n,
              -mean * log(-expm1(log(U) / n)), one uniform per replication
              (exponential only: NumPy has no normal quantile function)
  rng-raw     rng.bit_generator.random_raw(size)   (64-bit words)
  rng-integers rng.integers(0, 2**64, size, dtype=uint64, endpoint=False)
  rng-random  rng.random(size)                     (doubles in [0, 1))

--total is the number of variates (replications for direct-max) per
repetition, rounded to whole replications; --seconds, when given, lowers it
so that one repetition lasts about that long (measured on a pilot chunk).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

Kernel = Callable[[np.random.Generator, int], None]


def law_sampler(spec: str) -> Callable[[np.random.Generator, tuple[int, int]], np.ndarray]:
    """rng.<law>(..., size=shape) for an lbmc law spec such as normal:0,1."""
    name, _, params_text = spec.partition(":")
    if name == "empirical":
        # One number per line; inversion of the sorted sample is a uniform
        # choice among the values.
        values = np.sort(np.loadtxt(params_text, dtype=np.float64, ndmin=1))
        return lambda rng, shape: rng.choice(values, size=shape)
    try:
        params = [float(p) for p in params_text.split(",")] if params_text else []
    except ValueError:
        raise SystemExit(f"numpy_kernels: bad law parameters in '{spec}'") from None
    if name == "normal" and len(params) == 2:
        mu, sigma = params
        return lambda rng, shape: rng.normal(mu, sigma, size=shape)
    if name == "exponential" and len(params) == 1:
        (mean,) = params
        return lambda rng, shape: rng.exponential(mean, size=shape)
    if name == "poisson" and len(params) == 1:
        (lam,) = params
        return lambda rng, shape: rng.poisson(lam, size=shape)
    if name == "binomial" and len(params) == 2:
        m, p = params
        if m != int(m):
            raise SystemExit(f"numpy_kernels: binomial M must be an integer in '{spec}'")
        trials = int(m)
        return lambda rng, shape: rng.binomial(trials, p, size=shape)
    if name == "uniform" and len(params) == 2:
        a, b = params
        return lambda rng, shape: rng.uniform(a, b, size=shape)
    if name == "gamma" and len(params) == 2:
        k, theta = params
        return lambda rng, shape: rng.gamma(k, theta, size=shape)
    if name == "lognormal" and len(params) == 2:
        mu, sigma = params
        return lambda rng, shape: rng.lognormal(mu, sigma, size=shape)
    if name == "weibull" and len(params) == 2:
        k, lam = params  # numpy's weibull has scale 1
        return lambda rng, shape: lam * rng.weibull(k, size=shape)
    if name == "pareto" and len(params) == 2:
        alpha, xm = params  # numpy's pareto is the Lomax law: shift by 1
        return lambda rng, shape: xm * (rng.pareto(alpha, size=shape) + 1.0)
    if name == "geometric" and len(params) == 1:
        (p,) = params
        return lambda rng, shape: rng.geometric(p, size=shape)
    if name == "negbinomial" and len(params) == 2:
        r, p = params
        return lambda rng, shape: rng.negative_binomial(r, p, size=shape)
    raise SystemExit(f"numpy_kernels: unsupported law '{spec}'")


# Results are kept in a module-level sink so no kernel's work is dead code.
_sink: list[object] = [None]


def make_maxload(spec: str, n: int) -> Kernel:
    draw = law_sampler(spec)

    def kernel(rng: np.random.Generator, reps: int) -> None:
        loads = draw(rng, (reps, n))
        _sink[0] = loads.max(axis=1)

    return kernel


def make_maxshift(spec: str, n: int) -> Kernel:
    draw = law_sampler(spec)
    k = np.arange(1, n + 1, dtype=np.float64)

    def kernel(rng: np.random.Generator, reps: int) -> None:
        loads = draw(rng, (reps, n))
        prefix = np.cumsum(loads, axis=1)
        mean = prefix[:, -1:] / n
        v = prefix - k * mean  # V_k = X_1 + ... + X_k - k * mean
        w = v[:, :-1].max(axis=1) if n > 1 else np.zeros(reps)
        d = np.abs(v).max(axis=1)
        _sink[0] = (w, d)

    return kernel


def make_assign(n: int, bins: int) -> Kernel:
    def kernel(rng: np.random.Generator, reps: int) -> None:
        targets = rng.integers(0, bins, size=(reps, n))
        offsets = (np.arange(reps, dtype=np.int64) * bins)[:, None]
        counts = np.bincount((targets + offsets).ravel(), minlength=reps * bins).reshape(reps, bins)
        _sink[0] = counts.max(axis=1)

    return kernel


def make_direct_max(spec: str, n: int) -> Kernel:
    name, _, params_text = spec.partition(":")
    if name != "exponential":
        raise SystemExit(f"numpy_kernels: direct-max is implemented for exponential loads only, not '{spec}'")
    mean = float(params_text)

    def kernel(rng: np.random.Generator, reps: int) -> None:
        u = rng.random(reps)
        with np.errstate(divide="ignore"):  # U = 0 has probability 2^-53
            _sink[0] = -mean * np.log(-np.expm1(np.log(u) / n))

    return kernel


def make_rng(kind: str) -> Kernel:
    def raw(rng: np.random.Generator, size: int) -> None:
        _sink[0] = rng.bit_generator.random_raw(size)

    def integers(rng: np.random.Generator, size: int) -> None:
        _sink[0] = rng.integers(0, 2**64, size=size, dtype=np.uint64)

    def random(rng: np.random.Generator, size: int) -> None:
        _sink[0] = rng.random(size)

    return {"rng-raw": raw, "rng-integers": integers, "rng-random": random}[kind]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kernel", choices=["maxload", "maxshift", "assign", "direct-max", "rng-raw", "rng-integers", "rng-random"])
    parser.add_argument("--dist", default="normal:0,1", help="load law, lbmc syntax (default normal:0,1)")
    parser.add_argument("--n", type=int, default=1, help="loads (tasks for assign) per replication")
    parser.add_argument("--bins", type=int, default=1, help="assign: processors")
    parser.add_argument("--total", type=float, default=2**24, help="variates per repetition (accepts 1e7)")
    parser.add_argument("--seconds", type=float, default=None, help="lower --total so a repetition lasts about this long")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions; the median is printed")
    parser.add_argument("--chunk", type=int, default=2**20, help="most variates drawn in one call")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.n < 1 or args.total < 1 or args.repeats < 1 or args.chunk < 1:
        parser.error("--n, --total, --repeats and --chunk must be >= 1")

    # units: how many of the kernel's "rows" one chunk holds, and how many
    # variates one row counts for (the ns are per variate).
    if args.kernel == "maxload":
        kernel, per_row = make_maxload(args.dist, args.n), args.n
    elif args.kernel == "maxshift":
        kernel, per_row = make_maxshift(args.dist, args.n), args.n
    elif args.kernel == "assign":
        kernel, per_row = make_assign(args.n, args.bins), args.n
    elif args.kernel == "direct-max":
        kernel, per_row = make_direct_max(args.dist, args.n), 1
    else:
        kernel, per_row = make_rng(args.kernel), 1
    rows_per_chunk = max(1, args.chunk // per_row)

    rng = np.random.Generator(np.random.PCG64(args.seed))

    # Warm-up and pilot: chunks for at least 50 ms (the first calls pay for
    # growing the heap); the fastest chunk sizes the repetitions.
    pilot_ns = math.inf
    warm_start = time.perf_counter()
    for i in range(100):
        start = time.perf_counter()
        kernel(rng, rows_per_chunk)
        now = time.perf_counter()
        pilot_ns = min(pilot_ns, (now - start) * 1e9 / (rows_per_chunk * per_row))
        if i >= 2 and now - warm_start >= 0.05:
            break

    total_rows = max(1, math.ceil(args.total / per_row))
    if args.seconds is not None:
        affordable = max(1, math.ceil(args.seconds * 1e9 / (pilot_ns * per_row)))
        total_rows = min(total_rows, max(affordable, rows_per_chunk))

    results = []
    for _ in range(args.repeats):
        left = total_rows
        start = time.perf_counter()
        while left > 0:
            rows = min(left, rows_per_chunk)
            kernel(rng, rows)
            left -= rows
        elapsed = time.perf_counter() - start
        results.append(elapsed * 1e9 / (total_rows * per_row))

    unit = "replication" if args.kernel == "direct-max" else "variate"
    print(
        f"numpy_kernels {args.kernel} dist={args.dist} n={args.n}: {total_rows * per_row} "
        f"{unit}s per repetition, ns/{unit} " + " ".join(f"{r:.3f}" for r in results),
        file=sys.stderr,
    )
    print(f"{statistics.median(results):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
