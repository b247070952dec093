"""Many small runs from Python: the module's calls against the same runs as
processes of the command line (each writing its CSV, read back with pandas,
as a Python user of the executable would), in interleaved batches.

Usage: python3 bench/python_calls.py LBMC_BINARY [--runs 7] [--calls 200]
(with the module on PYTHONPATH). Prints CSV rows in scripts/bench.sh's
columns, times in ns per call:
  python-call:     lbmc.maxload(...) per call; peer: the process; speedup: process/module
  python-overhead: what the module adds to a call: its time less the command
                   line's own work in the engine (parsing, run, output), peer
                   column empty
"""

import argparse
import os
import statistics
import subprocess
import tempfile
import time

import pandas

import lbmc
from lbmc import _lbmc

CASE = ["maxload", "--n", "16", "--reps", "1000", "--seed", "1", "--threads", "1"]
CASE_NAME = "maxload n=16 reps=1000 threads=1"


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    engine_seconds = []
    original_run = _lbmc.run

    def timed_run(*a, **k):  # the engine's own seconds of each call
        outcome = original_run(*a, **k)
        engine_seconds.append(outcome["seconds"])
        return outcome

    _lbmc.run = timed_run
    module, overhead, process = [], [], []
    with tempfile.TemporaryDirectory() as scratch:
        target = os.path.join(scratch, "rows.csv")
        lbmc.run(*CASE, "--quiet")
        for _ in range(args.runs):
            engine_seconds.clear()
            start = time.perf_counter()
            for _ in range(args.calls):
                lbmc.run(*CASE, "--quiet", progress=False)
            per_call = (time.perf_counter() - start) / args.calls
            module.append(per_call * 1e9)
            overhead.append((per_call - statistics.fmean(engine_seconds)) * 1e9)
            calls = max(1, args.calls // 10)
            start = time.perf_counter()
            for _ in range(calls):
                subprocess.run([args.binary, *CASE, "--quiet", "--csv", target], check=True,
                               stdout=subprocess.DEVNULL)
                pandas.read_csv(target, float_precision="round_trip")
            process.append((time.perf_counter() - start) / calls * 1e9)
    m, p = statistics.median(module), statistics.median(process)
    print(f"python-call,{CASE_NAME},{m:.0f},{percentile(module, 0.1):.0f},{percentile(module, 0.9):.0f},"
          f"{p:.0f},{p / m:.2f},,,,,1")
    o = statistics.median(overhead)
    print(f"python-overhead,{CASE_NAME},{o:.0f},{percentile(overhead, 0.1):.0f},{percentile(overhead, 0.9):.0f},"
          ",,,,,,1")


if __name__ == "__main__":
    main()
