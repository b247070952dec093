#!/usr/bin/python3
"""Idiomatic PyTorch versions of lbmc's GPU kernels (the peer on a GPU).

Written the way a PyTorch user would write them: whole chunks of
replications drawn on the GPU with one torch call (PyTorch's own Philox
generator), reduced along a dimension, the maxima kept on the GPU and the
run's statistics (mean, variance, median and 0.99-quantile of the maxima)
written to a small CSV at the end, so that the time is end to end with
output written, like a whole lbmc run.

Kernels
  maxload   torch.randn / rand / exponential_ of (r, n), .amax(dim=1)
  maxshift  the same draws, .cumsum(dim=1), the bridge Y_k - k·Y_n/n, its
            max (with 0) and max |.|, over sigma·sqrt(n): W' and D'
  scatter   the same draws as (r, procs, tasks), .sum(dim=2), the slowest
            processor against n·m and the observed mean: l and l_obs

Prints on stdout one number: the median over --repeats repetitions of the
wall time per variate in ns, after one warm-up repetition (CUDA's start-up
and the kernels' first compilation are left out). Details go to stderr.
Chunks hold at most --chunk variates (default 2^28: 1 GiB of float32).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import torch


def draw(law: str, shape: tuple[int, int], dtype: torch.dtype, gen: torch.Generator) -> torch.Tensor:
    """A (replications, n) tensor of the law spec's variates on the GPU."""
    name, _, params_text = law.partition(":")
    params = [float(p) for p in params_text.split(",")] if params_text else []
    if name == "normal":
        mu, sigma = params
        return torch.randn(shape, dtype=dtype, device="cuda", generator=gen).mul_(sigma).add_(mu)
    if name == "exponential":
        (mean,) = params
        return torch.empty(shape, dtype=dtype, device="cuda").exponential_(1.0 / mean, generator=gen)
    if name == "uniform":
        a, b = params
        return torch.rand(shape, dtype=dtype, device="cuda", generator=gen).mul_(b - a).add_(a)
    if name == "poisson":
        (lam,) = params
        return torch.poisson(torch.full(shape, lam, dtype=dtype, device="cuda"), generator=gen)
    if name == "binomial":
        trials, p = params
        return torch.binomial(torch.full(shape, trials, dtype=dtype, device="cuda"),
                              torch.full(shape, p, dtype=dtype, device="cuda"), generator=gen)
    raise SystemExit(f"torch_kernels: no PyTorch sampler for '{law}'")


def sigma_of(law: str) -> float:
    """The law's standard deviation."""
    name, _, params_text = law.partition(":")
    params = [float(p) for p in params_text.split(",")]
    if name == "normal":
        return params[1]
    if name == "exponential":
        return params[0]
    if name == "uniform":
        return (params[1] - params[0]) / 12**0.5
    if name == "poisson":
        return params[0] ** 0.5
    if name == "binomial":
        return (params[0] * params[1] * (1 - params[1])) ** 0.5
    raise SystemExit(f"torch_kernels: no standard deviation for '{law}'")


def mean_of(law: str) -> float:
    """The law's mean."""
    name, _, params_text = law.partition(":")
    params = [float(p) for p in params_text.split(",")]
    if name in ("normal", "exponential"):
        return params[0]
    if name == "uniform":
        return (params[0] + params[1]) / 2
    if name == "poisson":
        return params[0]
    if name == "binomial":
        return params[0] * params[1]
    raise SystemExit(f"torch_kernels: no mean for '{law}'")


def maxload_chunk(x: torch.Tensor, law: str, procs: int) -> dict[str, torch.Tensor]:
    return {"Z": x.amax(dim=1)}


def maxshift_chunk(x: torch.Tensor, law: str, procs: int) -> dict[str, torch.Tensor]:
    n = x.shape[1]
    y = x.cumsum(dim=1)
    k = torch.arange(1, n + 1, dtype=x.dtype, device=x.device)
    v = y - (y[:, -1:] / n) * k
    scale = 1.0 / (sigma_of(law) * n**0.5)
    return {"W'": v.amax(dim=1).clamp_min(0) * scale, "D'": v.abs().amax(dim=1) * scale}


def scatter_chunk(x: torch.Tensor, law: str, procs: int) -> dict[str, torch.Tensor]:
    t = x.view(x.shape[0], procs, x.shape[1] // procs).sum(dim=2)
    slowest = t.amax(dim=1)
    m_proc = x.shape[1] // procs * mean_of(law)
    observed = t.mean(dim=1)
    return {"l": (slowest - m_proc) / m_proc, "l_obs": (slowest - observed) / observed}


def run(kernel, law: str, n: int, procs: int, reps: int, chunk: int, dtype: torch.dtype, out: str,
        seed: int) -> None:
    gen = torch.Generator(device="cuda").manual_seed(seed)
    per_chunk = max(1, chunk // n)
    parts: dict[str, list[torch.Tensor]] = {}
    done = 0
    while done < reps:
        r = min(per_chunk, reps - done)
        for name, values in kernel(draw(law, (r, n), dtype, gen), law, procs).items():
            parts.setdefault(name, []).append(values)
        done += r
    levels = torch.tensor([0.5, 0.99], dtype=torch.float64, device="cuda")
    with open(out, "w") as f:
        f.write("statistic,estimate\n")
        for name, values in parts.items():
            z = torch.cat(values).double()
            q = torch.quantile(z[: min(len(z), 1 << 24)], levels)
            stats = {"mean": z.mean().item(), "variance": z.var().item(), "q0.5": q[0].item(), "q0.99": q[1].item()}
            for k, v in stats.items():
                f.write(f"{name}.{k},{v!r}\n")


KERNELS = {"maxload": maxload_chunk, "maxshift": maxshift_chunk, "scatter": scatter_chunk}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernel", default="maxload", choices=sorted(KERNELS))
    p.add_argument("--dist", default="normal:0,1")
    p.add_argument("--n", type=int, default=1024, help="variates a replication (scatter: tasks x procs)")
    p.add_argument("--procs", type=int, default=1, help="scatter: processors, dividing --n")
    p.add_argument("--total", type=float, default=2**33, help="variates per repetition")
    p.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    p.add_argument("--chunk", type=int, default=1 << 28)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--out", default="/dev/null")
    args = p.parse_args()
    if not torch.cuda.is_available():
        raise SystemExit("torch_kernels: PyTorch sees no CUDA device")
    dtype = getattr(torch, args.dtype)
    reps = max(1, int(args.total) // args.n)
    variates = reps * args.n
    kernel = KERNELS[args.kernel]
    if args.n % args.procs != 0:
        raise SystemExit("torch_kernels: --procs must divide --n")
    run(kernel, args.dist, args.n, args.procs, min(reps, 1024), args.chunk, dtype, args.out, 0)  # warm-up
    torch.cuda.synchronize()
    times = []
    for i in range(args.repeats):
        start = time.perf_counter()
        run(kernel, args.dist, args.n, args.procs, reps, args.chunk, dtype, args.out, i + 1)
        times.append(time.perf_counter() - start)
    ns = statistics.median(times) * 1e9 / variates
    print(f"torch {args.kernel} {args.dist} n={args.n} {args.dtype}: {variates:.3g} variates, "
          f"median {statistics.median(times):.3f} s of {args.repeats}", file=sys.stderr)
    print(f"{ns:.6g}")


if __name__ == "__main__":
    main()
