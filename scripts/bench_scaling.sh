#!/usr/bin/env bash
# Parallel scaling of whole lbmc runs (output written), in one run: for each
# case, the wall time for threads = 1, 2, 4, ... up to the cores, and for
# ranks x threads under mpirun (when lbmc was built with MPI), with the
# speed-up and parallel efficiency against one thread of one process, both
# for the whole process and for its run (the JSON meta's wall_seconds, as
# lbmc times itself: without the process's start-up and mpirun's launch).
# Every run's CSV is compared with the single-thread one: a difference is
# an error. A last row a case, CASE:copies, runs as many single-thread
# processes side by side as there are cores, each a share of the
# replications: the efficiency the machine itself allows a kernel at all
# cores busy (clocks that fall as cores wake, threads that share a core, a
# shared cache or memory), to read the threads' efficiency against.
#
# Usage: scripts/bench_scaling.sh [--quick] [--cores N] [--runs K] [--work W]
#   default: median of 3 runs per configuration, cases of about 4 s on one
#   thread of a current x86-64 core; --quick: one run, an eighth of the work
#   --cores N: the largest thread count (default: nproc)
#   --runs K: the median of K runs per configuration (default 3)
#   --work W: W times each case's replications (default 1), so that runs at
#   many threads last long enough to read an efficiency from (W = 4 gives
#   the 16-thread runs of an Intel Xeon about 1.2 s)
#
# stdout: CSV with the columns
#   case,ranks,threads,wall_s,speedup,efficiency,run_s,run_speedup,run_efficiency
# stderr: progress.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lbmc=${LBMC_BINARY:-$root/build/release/lbmc}
runs=3 scale=1 factor=1
cores=$(nproc)
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) runs=1 scale=8 ;;
    --cores | --runs | --work)
      [[ $# -ge 2 ]] || { echo "bench_scaling: $1 needs a positive integer" >&2; exit 2; }
      case "$1" in --cores) cores=$2 ;; --runs) runs=$2 ;; --work) factor=$2 ;; esac
      shift ;;
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "bench_scaling: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
for option in "cores $cores" "runs $runs" "work $factor"; do
  read -r name value <<<"$option"
  [[ $value =~ ^[1-9][0-9]*$ ]] || { echo "bench_scaling: --$name needs a positive integer, got '$value'" >&2; exit 2; }
done
[[ -x "$lbmc" ]] || { echo "bench_scaling: build lbmc first (scripts/build.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_WAIT_POLICY=passive

# name|arguments (replications times $factor, divided by $scale)
cases=(
  "maxload-brute-normal-n1024|maxload --dist normal:0,1 --n 1024 --reps $((1500000 * factor / scale)) --method brute"
  "maxshift-normal-n1024|maxshift --dist normal:0,1 --n 1024 --reps $((1200000 * factor / scale))"
  "maxshift-poisson-n4096|maxshift --dist poisson:10 --n 4096 --reps $((240000 * factor / scale))"
  "maxshift-normal-n16|maxshift --dist normal:0,1 --n 16 --reps $((10000000 * factor / scale))"
  "assign-N1e6-P1e6|assign --N 1e6 --P 1e6 --reps $((400 * factor / scale))"
  "dynamic-exp-p64|dynamic --model exponential --p 64 --kappa 4 --lambda 1 --reps $((80000 * factor / scale))"
  "maxload-direct-n65536|maxload --dist normal:0,1 --n 65536 --reps $((60000000 * factor / scale)) --method direct --alpha 0.5"
)

# configurations: ranks x threads
configs=()
for ((t = 1; t <= cores; t *= 2)); do configs+=("1x$t"); done
((cores & (cores - 1))) && configs+=("1x$cores")
mpi=0
if command -v mpirun >/dev/null && [[ "$(ldd "$lbmc")" == *libmpi* ]]; then
  mpi=1
  for ((r = 2; r <= cores; r *= 2)); do configs+=("${r}x$((cores / r))"); done
fi

wall_of() {  # ranks threads args... -> "process_seconds run_seconds" (also leaves $work/out.csv)
  local ranks=$1 threads=$2; shift 2
  local launch=()
  ((ranks > 1)) && launch=(mpirun -q -np "$ranks" --bind-to none)
  local start end
  start=$(date +%s.%N)
  "${launch[@]}" "$lbmc" "$@" --threads "$threads" --seed 7 --quiet --progress never --csv "$work/out.csv" \
    --json "$work/out.json" </dev/null >/dev/null
  end=$(date +%s.%N)
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", b - a }')" \
    "$(/usr/bin/env python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["meta"]["wall_seconds"])' "$work/out.json")"
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# row CASE RANKS THREADS WALL BASE RUN RUN_BASE WORK: a CSV row, WORK the
# share of the single-thread run's replications timed.
row() {
  awk -v n="$1" -v r="$2" -v t="$3" -v w="$4" -v b="$5" -v u="$6" -v c="$7" -v f="$8" \
    'BEGIN { s = f * b / w; q = f * c / u; printf "%s,%d,%d,%.3f,%.2f,%.2f,%.3f,%.2f,%.2f\n", n, r, t, w, s, s / (r * t), u, q, q / (r * t) }'
}

# copies CASE ARGS...: $cores single-thread processes of ARGS side by side,
# each with its share of --reps (the median of $runs, the slowest process
# each time) as the row CASE:copies.
copies() {
  local name=$1; shift
  local args=("$@") reps=0 i k c
  for ((k = 0; k + 1 < ${#args[@]}; ++k)); do [[ ${args[k]} == --reps ]] && reps=${args[k + 1]} && break; done
  local share=$((reps / cores))
  ((cores > 1 && share > 0)) || return 0
  args[k + 1]=$share
  local times=() run_times=()
  for ((i = 0; i < runs; ++i)); do
    local start end pids=()
    start=$(date +%s.%N)
    for ((c = 0; c < cores; ++c)); do
      "$lbmc" "${args[@]}" --threads 1 --seed $((7 + c)) --quiet --progress never --csv "$work/copy$c.csv" \
        --json "$work/copy$c.json" </dev/null >/dev/null &
      pids+=($!)
    done
    wait "${pids[@]}"
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", b - a }')")
    run_times+=("$(/usr/bin/env python3 -c 'import json, sys
print(max(json.load(open(f))["meta"]["wall_seconds"] for f in sys.argv[1:]))' "$work"/copy*.json)")
  done
  local wall run
  wall=$(median "${times[@]}") run=$(median "${run_times[@]}")
  row "$name:copies" "$cores" 1 "$wall" "$base" "$run" "$run_base" \
    "$(awk -v s="$share" -v c="$cores" -v r="$reps" 'BEGIN { printf "%.9f", s * c / r }')"
  echo "bench_scaling: $name, $cores single-thread processes side by side: $wall s (run phase $run s)" >&2
}

# The machine's topology: where the threads asked for pass its physical
# cores, they share them (SMT), and the efficiency there says so.
topology=$(lscpu 2>/dev/null | awk -F: '/^Socket\(s\)/ { s = $2 + 0 } /^Core\(s\) per socket/ { c = $2 + 0 }
  /^Thread\(s\) per core/ { t = $2 + 0 }
  END { if (s && c && t) printf "%d socket(s) x %d cores x %d thread(s) a core", s, c, t }')
echo "bench_scaling: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $cores cores" \
  "(${topology:-topology unknown}), MPI $((mpi ? 1 : 0))" >&2
echo "case,ranks,threads,wall_s,speedup,efficiency,run_s,run_speedup,run_efficiency"
for entry in "${cases[@]}"; do
  name=${entry%%|*}
  read -r -a args <<<"${entry#*|}"
  base=""
  for config in "${configs[@]}"; do
    ranks=${config%x*} threads=${config#*x}
    times=() run_times=()
    for ((i = 0; i < runs; ++i)); do
      read -r process run <<<"$(wall_of "$ranks" "$threads" "${args[@]}")"
      times+=("$process") run_times+=("$run")
    done
    wall=$(median "${times[@]}") run=$(median "${run_times[@]}")
    if [[ -z "$base" ]]; then
      base=$wall run_base=$run
      cp "$work/out.csv" "$work/base.csv"
    elif ! cmp -s "$work/out.csv" "$work/base.csv"; then
      echo "bench_scaling: $name at $ranks x $threads: output differs from 1 x 1" >&2
      exit 1
    fi
    row "$name" "$ranks" "$threads" "$wall" "$base" "$run" "$run_base" 1
    echo "bench_scaling: $name $ranks x $threads: $wall s (run phase $run s)" >&2
  done
  copies "$name" "${args[@]}"
done
