#!/usr/bin/env bash
# --device cuda against --device cpu --rng philox, byte for byte: the CSV
# and the JSON rows of maxload, maxshift and scatter over laws x sizes, open-ended
# runs, several host threads, slices merged, and two MPI ranks where mpirun
# runs. Exit 77
# (ctest's skip) with the reason where this lbmc or machine has no usable
# CUDA device; 1 on any difference.
#
# Usage: tests/gpu_bytes.sh LBMC [--quick]
set -uo pipefail
lbmc=${1:?usage: gpu_bytes.sh LBMC [--quick]}
quick=0
[[ ${2:-} == --quick ]] && quick=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! probe=$("$lbmc" maxload --device cuda --n 16 --reps 100 --quiet --csv "$work/probe.csv" 2>&1 >/dev/null); then
  echo "SKIP: ${probe##*error: }"
  exit 77
fi

failures=0 cases=0
# compare NAME COMMAND ARGS...: the same command line with --device cuda and
# with --device cpu --rng philox (and the given --threads, or 2).
compare() {
  local name=$1; shift
  cases=$((cases + 1))
  "$lbmc" "$@" --device cuda --quiet --csv "$work/gpu.csv" --json "$work/gpu.json" >/dev/null 2>"$work/gpu.err" ||
    { echo "FAIL $name: --device cuda exited $? ($(tail -1 "$work/gpu.err"))"; failures=$((failures + 1)); return; }
  "$lbmc" "$@" --device cpu --rng philox --quiet --csv "$work/cpu.csv" --json "$work/cpu.json" >/dev/null 2>"$work/cpu.err" ||
    { echo "FAIL $name: --device cpu exited $? ($(tail -1 "$work/cpu.err"))"; failures=$((failures + 1)); return; }
  if ! cmp -s "$work/gpu.csv" "$work/cpu.csv"; then
    echo "FAIL $name: the CSVs differ"; diff "$work/gpu.csv" "$work/cpu.csv" | head -4
    failures=$((failures + 1)); return
  fi
  if ! /usr/bin/env python3 - "$work/gpu.json" "$work/cpu.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if a["rows"] == b["rows"] and a["meta"]["device"].startswith("cuda") else 1)
PY
  then
    echo "FAIL $name: the JSON rows differ"; failures=$((failures + 1)); return
  fi
  echo "same bytes: $name"
}

reps=20000
((quick)) && reps=4000
# poisson:1e8 and binomial:1e9,0.3 draw by rejection (PTRS, BTRS), the others
# by their tables; binomial:40,0.9 counts down from the top (p > 1/2).
for law in normal:0,1 normal:-3,0.5 exponential:2 uniform:-1,3 constant:2.5 poisson:10 poisson:0.5 poisson:1e8 \
  binomial:4096,0.5 binomial:40,0.9 binomial:1e9,0.3; do
  compare "maxload $law n=1,7,1024" maxload --dist "$law" --n 1,7,1024 --reps "$reps" --seed 11 --alpha 0.5,0.99
done
compare "maxload normal n=65536" maxload --dist normal:0,1 --n 65536 --reps $((reps / 10)) --seed 12
compare "maxload exponential n=1048576" maxload --dist exponential:1 --n 1048576 --reps 300 --seed 13
compare "maxload normal at 1 thread" maxload --dist normal:0,1 --n 256 --reps "$reps" --seed 14 --threads 1
compare "maxload normal at 4 threads" maxload --dist normal:0,1 --n 256 --reps "$reps" --seed 14 --threads 4
compare "maxload normal --target-rse" maxload --dist normal:0,1 --n 64 --reps 1000 --target-rse 0.001 \
  --max-reps 1e6 --seed 15
# maxshift: normal:5,1 reaches D >= 1 in some replications and not in others.
for law in normal:0,1 normal:5,1 exponential:2 uniform:-1,3 poisson:10 binomial:4096,0.5 binomial:40,0.9; do
  compare "maxshift $law n=2,37,1024" maxshift --dist "$law" --n 2,37,1024 --reps "$reps" --seed 21 --alpha 0.5,0.99
done
compare "maxshift normal n=65536" maxshift --dist normal:0,1 --n 65536 --reps $((reps / 10)) --seed 22
# n·T past 2^63: the integer bridge's 128-bit steps.
compare "maxshift poisson:1e10 n=40000" maxshift --dist poisson:1e10 --n 40000 --reps 64 --seed 25
compare "maxshift normal at 1 thread" maxshift --dist normal:1,2 --n 256 --reps "$reps" --seed 23 --threads 1
compare "maxshift exponential --target-rse" maxshift --dist exponential:1 --n 64 --reps 1000 --target-rse 0.001 \
  --max-reps 1e6 --seed 24
for law in exponential:1 normal:5,1 uniform:1,3 constant:2 poisson:3 binomial:100,0.2; do
  compare "scatter $law tasks=1,10 procs=7,100" scatter --dist "$law" --tasks 1,10 --procs 7,100 --reps "$reps" --seed 31
done
compare "scatter 2^20 tasks a replication" scatter --dist exponential:1 --tasks 1024 --procs 1024 --reps 300 --seed 32

# Slices of one run, the first on the GPU and the rest on the CPU, merged,
# against the whole run on the CPU.
cases=$((cases + 1))
slice="--dist normal:0,1 --n 4096 --reps 20000 --seed 16 --quiet"
"$lbmc" maxload $slice --device cuda --blocks 0:700 --checkpoint "$work/a.state" >/dev/null 2>"$work/slice.err" &&
  "$lbmc" maxload $slice --device cpu --rng philox --blocks 700:10000 --checkpoint "$work/b.state" >/dev/null 2>&1 &&
  "$lbmc" merge "$work/a.state" "$work/b.state" --csv "$work/merged.csv" >/dev/null 2>&1 &&
  "$lbmc" maxload $slice --device cpu --rng philox --csv "$work/whole.csv" >/dev/null 2>&1
if cmp -s "$work/merged.csv" "$work/whole.csv"; then
  echo "same bytes: a GPU slice merged with a CPU slice"
else
  echo "FAIL a GPU slice merged with a CPU slice: $(tail -1 "$work/slice.err")"; failures=$((failures + 1))
fi

if command -v mpirun >/dev/null && [[ "$(ldd "$lbmc" 2>/dev/null)" == *libmpi* ]]; then
  cases=$((cases + 1))
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  if mpirun -q -np 2 --bind-to none "$lbmc" maxload --device cuda --dist normal:0,1 --n 1024 --reps "$reps" \
       --seed 17 --quiet --csv "$work/mpi.csv" >/dev/null 2>"$work/mpi.err" &&
     "$lbmc" maxload --device cpu --rng philox --dist normal:0,1 --n 1024 --reps "$reps" --seed 17 --quiet \
       --csv "$work/one.csv" >/dev/null 2>&1 && cmp -s "$work/mpi.csv" "$work/one.csv"; then
    echo "same bytes: 2 MPI ranks on the GPU"
  else
    echo "FAIL 2 MPI ranks on the GPU: $(tail -1 "$work/mpi.err")"; failures=$((failures + 1))
  fi
fi

echo "gpu_bytes: $((cases - failures)) of $cases cases byte-identical"
((failures == 0))
