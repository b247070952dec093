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
    raise SystemExit(f"torch_kernels: no PyTorch sampler for '{law}'")


def maxload(law: str, n: int, reps: int, chunk: int, dtype: torch.dtype, out: str, seed: int) -> None:
    gen = torch.Generator(device="cuda").manual_seed(seed)
    per_chunk = max(1, chunk // n)
    maxima = []
    done = 0
    while done < reps:
        r = min(per_chunk, reps - done)
        maxima.append(draw(law, (r, n), dtype, gen).amax(dim=1))
        done += r
    z = torch.cat(maxima).double()
    q = torch.quantile(z[: min(len(z), 1 << 24)], torch.tensor([0.5, 0.99], dtype=torch.float64, device="cuda"))
    stats = {"mean": z.mean().item(), "variance": z.var().item(), "q0.5": q[0].item(), "q0.99": q[1].item()}
    with open(out, "w") as f:
        f.write("statistic,estimate\n")
        for k, v in stats.items():
            f.write(f"{k},{v!r}\n")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernel", default="maxload", choices=["maxload"])
    p.add_argument("--dist", default="normal:0,1")
    p.add_argument("--n", type=int, default=1024)
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
    maxload(args.dist, args.n, min(reps, 1024), args.chunk, dtype, args.out, 0)  # warm-up
    torch.cuda.synchronize()
    times = []
    for i in range(args.repeats):
        start = time.perf_counter()
        maxload(args.dist, args.n, reps, args.chunk, dtype, args.out, i + 1)
        times.append(time.perf_counter() - start)
    ns = statistics.median(times) * 1e9 / variates
    print(f"torch {args.kernel} {args.dist} n={args.n} {args.dtype}: {variates:.3g} variates, "
          f"median {statistics.median(times):.3f} s of {args.repeats}", file=sys.stderr)
    print(f"{ns:.6g}")


if __name__ == "__main__":
    main()
