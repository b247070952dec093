#!/usr/bin/env bash
# Benchmarks lbmc's kernels against the raw pcg64 floor and an idiomatic NumPy
# peer (bench/peers/numpy_kernels.py), in one run. See bench/README.md.
#
# Usage: scripts/bench.sh [--quick] [--only KERNEL] [--busy] [--checkpoints]
#   default: 7 runs a row, each replication loop lasting about 0.5 s, each
#     after its own floor; the median and the 10th and 90th percentiles
#   --quick: 7 runs of about 0.1 s
#   --only KERNEL: only the rows of KERNEL (rng, maxload, maxshift, philox,
#     sampler, compare, assign, direct-max, device-fold, python, scaling), e.g. to check
#     a change in a minute: scripts/bench.sh --quick --only maxload
#   --busy: every timed process (lbmc, its floor, the peer) shares cpu 0
#     with bench/cache_sweeper, which refills the caches with its own lines
#     between their time slices: speed on a host shared with other work.
#     Times are wall times on half a core; read x_floor and the speedups.
#   --checkpoints: only the cost of checkpoints (about 25 minutes, both
#     cores; section "checkpoints" below). LBMC=PATH times that binary
#     instead of building build/release.
#
# stdout: CSV with the columns
#   kernel,case,lbmc_ns_per_variate,lbmc_p10,lbmc_p90,peer_ns_per_variate,speedup_vs_peer,floor_ns,x_floor,x_floor_p10,x_floor_p90,threads
# or, with --checkpoints,
#   measure,case,run,cpu,wall_s,cpu_s,peak_rss_mib,checkpoints,largest_checkpoint_mib,overhead_wall_pct,overhead_cpu_pct
# stderr: progress and the individual runs.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

quick=0 checkpoints=0 busy=0 only=""
kernels="rng maxload maxshift philox sampler compare assign direct-max device-fold python scaling"
while (($#)); do
  case "$1" in
    --quick) quick=1 ;;
    --checkpoints) checkpoints=1 ;;
    --busy) busy=1 ;;
    --only)
      only=${2:-}
      if [[ " $kernels " != *" $only "* ]]; then
        echo "bench: --only '$only': expected one of $kernels" >&2
        exit 2
      fi
      shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "bench: unknown argument '$1' (expected --quick, --only KERNEL, --busy or --checkpoints)" >&2; exit 2 ;;
  esac
  shift
done
# want KERNEL: whether KERNEL's rows run.
want() { [[ -z "$only" || "$only" == "$1" ]]; }

# floor_*: the rng rows' floor; row_floor_outputs: the floor timed before
# each lbmc run, whose median is the row's floor_ns.
runs=7
if ((quick)); then
  target_s=0.1 pilot_variates=2e6 floor_outputs=$((1 << 25)) floor_reps=5
  row_floor_outputs=$((1 << 23))
else
  target_s=0.5 pilot_variates=1e7 floor_outputs=$((1 << 27)) floor_reps=7
  row_floor_outputs=$((1 << 25))
fi
seed=20240601
# The system interpreter: setup.sh installs python3-numpy for it (a pyenv
# python3 earlier on PATH may have no NumPy).
py=/usr/bin/python3
peer=(env OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$py" "$root/bench/peers/numpy_kernels.py")
lbmc="${LBMC:-$root/build/release/lbmc}"
floor_bin="$root/build/bench/rng_floor"
pin=()  # --busy: taskset -c 0

log() { echo "bench: $*" >&2; }

# ---------------------------------------------------------------- helpers ---

# median VALUE...: the median of the arguments (mean of the middle two).
median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
    END { if (NR == 0) exit 1; if (NR % 2) printf "%.4f\n", v[(NR + 1) / 2];
          else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# percentile P VALUE...: the P-th percentile of the values (linear
# interpolation between order statistics, as NumPy's default).
percentile() {
  local p=$1
  shift
  printf '%s\n' "$@" | sort -g | awk -v p="$p" '{ v[NR] = $1 }
    END { if (NR == 0) exit 1; h = (NR - 1) * p / 100; i = int(h)
          printf "%.4f\n", (i + 1 < NR) ? v[i + 1] + (h - i) * (v[i + 2] - v[i + 1]) : v[NR] }'
}

# ratio A B: A / B with 2 decimals, empty when either is empty or B is 0.
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print ""; else printf "%.2f\n", a / b }'
}

# product A B: A * B with 4 decimals, empty when either is empty.
product() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "") print ""; else printf "%.4f\n", a * b }'
}

# csv_field TEXT: TEXT quoted when it holds a comma or a quote (RFC 4180).
csv_field() {
  if [[ "$1" == *[,\"]* ]]; then
    printf '"%s"' "${1//\"/\"\"}"
  else
    printf '%s' "$1"
  fi
}

# row KERNEL CASE LBMC LBMC_P10 LBMC_P90 PEER SPEEDUP FLOOR X_FLOOR X_FLOOR_P10 X_FLOOR_P90 THREADS
row() {
  printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$1" "$(csv_field "$2")" "${@:3}"
}

# lbmc_once ARGS...: runs lbmc quietly with JSON on stdout and prints
# "ns_per_variate reps_per_second ns_per_rep_whole ns_per_rep_store" from its
# metadata (the rates are the replication loops'; whole: the command's whole
# wall time per rep; store: the time spent sorting the stored values for
# exact quantiles after the loops, per rep).
lbmc_once() {
  "${pin[@]}" "$lbmc" "$@" --quiet --json - | "$py" -c 'import json, sys; m = json.load(sys.stdin)["meta"]
print(m["ns_per_variate"], m["reps_per_second"], 1e9 * m["wall_seconds"] / m["reps"], 1e9 * m["store_seconds"] / m["reps"])'
}

# lbmc_median UNIT PER_REP ARGS...: $runs runs of lbmc ARGS (which must not
# contain --reps), in ns per variate (UNIT = variate, taken from
# meta.ns_per_variate), ns per replication (UNIT = rep, from
# meta.reps_per_second), ns per replication over the whole command (UNIT =
# whole, from meta.wall_seconds) or ns per replication sorting the stored
# values (UNIT = store, from meta.store_seconds). A pilot run sizes --reps so
# that the replication loop lasts about $target_s (at most $reps_cap
# replications where that is set); PER_REP is the variates one replication
# draws. The floor is timed just before each run, so that
# x_floor compares times taken side by side even when the host's speed
# drifts during the benchmark.
# Prints "MEDIAN P10 P90 REPS FLOOR XF XF_P10 XF_P90" (REPS: the --reps of the
# timed runs; FLOOR: the median of those floors; XF: each run over its floor).
lbmc_median() {
  local unit=$1 per_rep=$2
  shift 2
  local pilot_reps rps ns out reps floor values=() floors=() ratios=()
  pilot_reps=$(awk -v p="$pilot_variates" -v v="$per_rep" 'BEGIN { r = int(p / v); if (r < 64) r = 64; print r }')
  out=$(lbmc_once "$@" --reps "$pilot_reps")
  read -r _ rps _ <<<"$out"
  reps=$(awk -v t="$target_s" -v r="$rps" -v cap="${reps_cap:-0}" \
    'BEGIN { n = int(t * r + 0.5); if (n < 64) n = 64; if (cap > 0 && n > cap) n = cap; print n }')
  for ((i = 0; i < runs; i++)); do
    floor=$("${pin[@]}" "$floor_bin" "$row_floor_outputs" 1 2>/dev/null)
    read -r variate_ns rps whole_ns store_ns <<<"$(lbmc_once "$@" --reps "$reps")"
    case "$unit" in
      variate) ns=$variate_ns ;;
      rep) ns=$(awk -v r="$rps" 'BEGIN { printf "%.4f\n", 1e9 / r }') ;;
      whole) ns=$whole_ns ;;
      store) ns=$store_ns ;;
    esac
    floors+=("$floor") values+=("$ns") ratios+=("$(awk -v a="$ns" -v b="$floor" 'BEGIN { printf "%.4f\n", a / b }')")
  done
  log "  lbmc $* --reps $reps: ns/$unit ${values[*]}; floor ${floors[*]}"
  echo "$(median "${values[@]}") $(percentile 10 "${values[@]}") $(percentile 90 "${values[@]}") $reps" \
    "$(median "${floors[@]}") $(median "${ratios[@]}") $(percentile 10 "${ratios[@]}") $(percentile 90 "${ratios[@]}")"
}

# x2 VALUE: VALUE with 2 decimals (empty stays empty).
x2() { [[ -z "$1" ]] || awk -v v="$1" 'BEGIN { printf "%.2f\n", v }'; }

# peer_median KERNEL ARGS...: the NumPy peer's median over $runs repetitions.
peer_log=$(mktemp)
# cleanup: what the run leaves behind (the sweeper, temporary files).
cleanup() {
  if [[ -n "${sweeper:-}" ]]; then kill "$sweeper" 2>/dev/null && wait "$sweeper" 2>/dev/null || true; fi
  rm -rf "$peer_log" "${times_file:-}" "${work:-}"
}
trap cleanup EXIT
peer_median() {
  local out
  if ! out=$("${pin[@]}" "${peer[@]}" "$@" --seconds "$target_s" --repeats "$runs" --seed "$seed" 2>"$peer_log"); then
    cat "$peer_log" >&2
    return 1
  fi
  log "  peer: $(cat "$peer_log")"
  printf '%s\n' "$out"
}

# ------------------------------------------------------------------ build ---

if [[ -z "${LBMC:-}" ]]; then
  log "building Release (scripts/build.sh)"
  "$root/scripts/build.sh" >&2
fi
[[ -x "$lbmc" ]] || { log "no binary at $lbmc"; exit 3; }

# ------------------------------------------------------------ checkpoints ---

# --checkpoints: what `--checkpoint FILE` costs a run (bench/RESULTS.md,
# "Checkpoints"), timed by /usr/bin/time (wall, user + sys, peak RSS).
#  - one-checkpoint: a run whose two quantile stores end full (2^24 values
#    each, a 256 MiB state) with and without --checkpoint, one after the
#    other on cpu 0, medians of 3: the difference is the time to take and
#    write that one checkpoint (the final one, written before the exit).
#  - ten-minutes: a single-threaded run of about 10 minutes whose stores
#    fill as it goes (the state grows to 256 MiB), with --checkpoint-every
#    60 and without, at the same time, pinned to cpus 0 and 1; then again
#    with the cpus swapped. Each checkpoint renames a new file over the last,
#    so polling the file's inode, size and time counts them.
# Both runs of a pair must write the same CSV.
if ((checkpoints)); then
  command -v taskset >/dev/null || { log "taskset (util-linux) is needed for --checkpoints"; exit 3; }
  work=$(mktemp -d)
  # timed NAME CPU ARGS...: lbmc ARGS on cpu CPU; "wall cpu rss_mib" in $work/NAME.time.
  timed() {
    local name=$1 cpu=$2
    shift 2
    /usr/bin/time -f '%e %U %S %M' -o "$work/$name.raw" taskset -c "$cpu" "$lbmc" "$@" --quiet --csv "$work/$name.csv" \
      >/dev/null
    awk '{ printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024 }' "$work/$name.raw" >"$work/$name.time"
  }
  # versions FILE PID: "inode size time" of each version of FILE seen while
  # PID runs and once it ended.
  versions() {
    {
      while kill -0 "$2" 2>/dev/null; do
        stat -c '%i %s %y' "$1" 2>/dev/null || true
        sleep 0.5
      done
      stat -c '%i %s %y' "$1" 2>/dev/null || true
    } | uniq
  }
  # pct A B: (A - B) / B in %, 2 decimals.
  pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", (a - b) / b * 100 }'; }
  same_csv() { cmp -s "$work/$1.csv" "$work/$2.csv" || { log "$1 and $2 wrote different CSV"; exit 3; }; }
  echo "measure,case,run,cpu,wall_s,cpu_s,peak_rss_mib,checkpoints,largest_checkpoint_mib,overhead_wall_pct,overhead_cpu_pct"

  full=(maxshift --dist poisson:10 --n 2 --reps 16777216 --seed "$seed" --threads 1)
  case_name="maxshift n=2 R=2^24 (256 MiB)"
  walls=() cpus=() rsss=() ck_walls=() ck_cpus=() ck_rsss=()
  for ((i = 0; i < 3; i++)); do
    log "one-checkpoint $i: ${full[*]} [--checkpoint]"
    timed plain 0 "${full[@]}"
    read -r w c r <"$work/plain.time"
    walls+=("$w") cpus+=("$c") rsss+=("$r")
    rm -f "$work/one.state"
    timed one 0 "${full[@]}" --checkpoint "$work/one.state"
    read -r w c r <"$work/one.time"
    ck_walls+=("$w") ck_cpus+=("$c") ck_rsss+=("$r")
    same_csv plain one
    log "  plain $(cat "$work/plain.time"); checkpoint $(cat "$work/one.time") (wall cpu rss_mib)"
  done
  w0=$(median "${walls[@]}") c0=$(median "${cpus[@]}") w1=$(median "${ck_walls[@]}") c1=$(median "${ck_cpus[@]}")
  size=$(awk -v s="$(stat -c %s "$work/one.state")" 'BEGIN { printf "%.1f\n", s / 1048576 }')
  r0=$(median "${rsss[@]}") r1=$(median "${ck_rsss[@]}")
  echo "one-checkpoint,$case_name,without,0,$w0,$c0,${r0%.*},0,,,"
  echo "one-checkpoint,$case_name,with,0,$w1,$c1,${r1%.*},1,$size,$(pct "$w1" "$w0"),$(pct "$c1" "$c0")"
  log "one checkpoint of $size MiB: $(awk -v a="$w1" -v b="$w0" 'BEGIN { printf "%.2f", a - b }') s (medians of 3)"

  # About 34 us per replication here: 2^24 replications take about 10 minutes.
  long=(maxshift --dist poisson:10 --n 10000 --reps 16777216 --seed "$seed" --threads 1)
  case_name="maxshift n=10000 R=2^24 every 60 s"
  for cpus_pair in "0 1" "1 0"; do
    read -r plain_cpu ck_cpu <<<"$cpus_pair"
    log "ten-minutes: ${long[*]} on cpu $plain_cpu, with --checkpoint-every 60 on cpu $ck_cpu"
    rm -f "$work/long.state"
    timed plain "$plain_cpu" "${long[@]}" &
    plain_pid=$!
    timed long "$ck_cpu" "${long[@]}" --checkpoint "$work/long.state" --checkpoint-every 60 &
    long_pid=$!
    versions "$work/long.state" "$long_pid" >"$work/versions"
    wait "$plain_pid"
    wait "$long_pid"
    same_csv plain long
    read -r w0 c0 r0 <"$work/plain.time"
    read -r w1 c1 r1 <"$work/long.time"
    count=$(wc -l <"$work/versions")
    largest=$(awk '$2 > m { m = $2 } END { printf "%.1f\n", m / 1048576 }' "$work/versions")
    log "  plain $w0 $c0 $r0; checkpoint $w1 $c1 $r1 (wall cpu rss_mib); sizes (bytes): $(awk '{ printf "%s ", $2 }' "$work/versions")"
    echo "ten-minutes,$case_name,without,$plain_cpu,$w0,$c0,$r0,0,,,"
    echo "ten-minutes,$case_name,with,$ck_cpu,$w1,$c1,$r1,$count,$largest,$(pct "$w1" "$w0"),$(pct "$c1" "$c0")"
  done
  exit 0
fi

if ! "$py" -c 'import numpy' 2>/dev/null; then
  log "$py has no NumPy; run scripts/setup.sh (it installs python3-numpy)"
  exit 3
fi

log "building the pcg64 floor ($floor_bin)"
mkdir -p "$(dirname "$floor_bin")"
# The Release build's -O3, no -march=native; pcg_random.hpp from libpcg-cpp-dev.
g++ -O3 -std=c++20 "$root/bench/rng_floor.cpp" -o "$floor_bin"
if ((busy)); then
  command -v taskset >/dev/null || { log "taskset (util-linux) is needed for --busy"; exit 3; }
  g++ -O2 -std=c++20 "$root/bench/cache_sweeper.cpp" -o "$root/build/bench/cache_sweeper"
  taskset -c 0 "$root/build/bench/cache_sweeper" 64 &
  sweeper=$!
  pin=(taskset -c 0)
  log "busy: every timed process shares cpu 0 with bench/cache_sweeper (pid $sweeper, 64 MiB)"
fi

have_method=0
# (Read whole, not piped into grep -q: grep's early exit would end lbmc by
# SIGPIPE, and under pipefail the test would fail at random.)
if [[ "$("$lbmc" maxload --help 2>/dev/null)" == *--method* ]]; then
  have_method=1
  brute=(--method brute)
else
  brute=()
  log "lbmc maxload has no --method: the direct-max rows are left out"
fi

threads_max=$(nproc)
# warn_if_busy WHAT: a warning on stderr when other processes kept more than
# 0.2 cores busy over the last second (from /proc/stat: user..steal fields).
warn_if_busy() {
  local a b busy
  a=$(head -n1 /proc/stat 2>/dev/null) || return 0
  sleep 1
  b=$(head -n1 /proc/stat 2>/dev/null) || return 0
  busy=$(awk -v a="$a" -v b="$b" -v cores="$(nproc)" 'BEGIN {
    split(a, x); split(b, y); total = 0
    for (i = 2; i <= 9; i++) total += y[i] - x[i]
    idle = (y[5] - x[5]) + (y[6] - x[6])
    if (total > 0) printf "%.2f\n", (total - idle) / total * cores }')
  if [[ -n "$busy" ]] && awk -v b="$busy" 'BEGIN { exit !(b > 0.2) }'; then
    log "warning: other processes kept $busy cores busy just before $1; wall-clock timings will be contended"
  fi
}
warn_if_busy "the runs"
laws=("normal:0,1" "exponential:1" "poisson:10" "binomial:4096,0.5")
sizes=(16 1024 65536)

# The host: CPU model and caches (lscpu), in the log and in bench/RESULTS.md.
if command -v lscpu >/dev/null; then
  log "host: $(lscpu | awk -F: '/^Model name/ { gsub(/^ +/, "", $2); m = $2 }
    /^L1d cache|^L2 cache|^L3 cache/ { gsub(/^ +/, "", $2); c = c sprintf("%s %s; ", $1, $2) }
    END { printf "%s; %s", m, c }')$(nproc) cores available"
fi

echo "kernel,case,lbmc_ns_per_variate,lbmc_p10,lbmc_p90,peer_ns_per_variate,speedup_vs_peer,floor_ns,x_floor,x_floor_p10,x_floor_p90,threads"

# timed_row KERNEL CASE PEER_NS THREADS RESULT: a row from lbmc_median's
# RESULT and the peer's median.
timed_row() {
  local kernel=$1 case_name=$2 peer_ns=$3 threads=$4 ns p10 p90 reps floor xf xf10 xf90
  read -r ns p10 p90 reps floor xf xf10 xf90 <<<"$5"
  row "$kernel" "$case_name" "$ns" "$p10" "$p90" "$peer_ns" "$(ratio "$peer_ns" "$ns")" "$floor" "$(x2 "$xf")" \
    "$(x2 "$xf10")" "$(x2 "$xf90")" "$threads"
}

# -------------------------------------------------------------------- rng ---

if want rng; then
  log "rng: pcg64 floor, median of $floor_reps x $floor_outputs outputs"
  floor=$("${pin[@]}" "$floor_bin" "$floor_outputs" "$floor_reps" 2>/dev/null)
  log "  floor: $floor ns per 64-bit output"
  rng_total=$((quick ? 1 << 24 : 1 << 26))
  for kind in raw integers random; do
    peer_ns=$(peer_median "rng-$kind" --total "$rng_total")
    case "$kind" in
      raw) row rng "pcg64 u64 (numpy random_raw)" "$floor" "" "" "$peer_ns" "$(ratio "$peer_ns" "$floor")" "$floor" "1.00" "" "" 1 ;;
      integers) row rng "pcg64 u64 (numpy integers)" "$floor" "" "" "$peer_ns" "$(ratio "$peer_ns" "$floor")" "$floor" "1.00" "" "" 1 ;;
      random) row rng "uniform double (numpy random)" "" "" "" "$peer_ns" "" "$floor" "" "" "" 1 ;;
    esac
  done
fi

# -------------------------------------------------------- maxload, maxshift ---

for kernel in maxload maxshift; do
  want "$kernel" || continue
  for law in "${laws[@]}"; do
    for n in "${sizes[@]}"; do
      case_name="$law n=$n"
      log "$kernel $case_name"
      extra=()
      [[ "$kernel" == maxload ]] && extra=("${brute[@]}")
      result=$(lbmc_median variate "$n" "$kernel" --dist "$law" --n "$n" --seed "$seed" --threads 1 "${extra[@]}")
      read -r _ _ _ lbmc_reps _ <<<"$result"
      peer_ns=$(peer_median "$kernel" --dist "$law" --n "$n" --total $((lbmc_reps * n)))
      timed_row "$kernel" "$case_name" "$peer_ns" 1 "$result"
    done
  done
done

# ----------------------------------------------------------------- philox ---

# maxload by brute force on the counter-based stream (--rng philox) against
# the same runs on pcg64, timed in turn: the peer column holds pcg64's ns per
# variate and speedup_vs_peer is pcg64/philox (>= 0.77: within 1.3x).
if want philox && [[ "$("$lbmc" maxload --help 2>/dev/null)" == *--rng* ]]; then
  for law in "normal:0,1" "exponential:1" "poisson:10" "binomial:4096,0.5"; do
    case_name="$law n=1024"
    log "philox $case_name"
    pcg_result=$(lbmc_median variate 1024 maxload --dist "$law" --n 1024 --seed "$seed" --threads 1 "${brute[@]}")
    result=$(lbmc_median variate 1024 maxload --rng philox --dist "$law" --n 1024 --seed "$seed" --threads 1)
    read -r pcg_ns _ <<<"$pcg_result"
    timed_row philox-vs-pcg64 "$case_name" "$pcg_ns" 1 "$result"
  done
fi

# ---------------------------------------------------------- task-time laws ---

# Each task-time sampler through maxload by brute force at n = 65536 (a draw
# and a compare per variate), against NumPy's generator for the same law:
# the negative binomial on its tables (1000,0.01 from 0, 1e4,0.01 from a
# low quantile, 1e5,0.01 and 1e6,0.01 wide ones from there, all by the cubic
# guide) and past them (1e7,0.01, block rejection), and
# the empirical law of 10^5 measured times (lognormal values written once by
# NumPy from the run's seed; NumPy's peer is rng.choice of the sorted values).
if want sampler; then
  times_file=$(mktemp --suffix=.txt)
  "$py" -c 'import sys, numpy as np
np.savetxt(sys.argv[1], np.random.default_rng(int(sys.argv[2])).lognormal(0.0, 0.5, 100000), fmt="%.17g")' \
    "$times_file" "$seed"
  # Then the integer task-time laws through maxshift at n = 1024: every
  # draw's value is summed, so no shortcut through the outputs' range applies.
  cases=()
  for law in "gamma:2.5,2" "gamma:0.3,1" "lognormal:0,0.5" "weibull:1.5,2" "pareto:4.5,1" "geometric:0.3" \
    "negbinomial:3,0.4" "negbinomial:1000,0.01" "negbinomial:1e4,0.01" "negbinomial:1e5,0.01" \
    "negbinomial:1e6,0.01" "negbinomial:1e7,0.01" "empirical:$times_file"; do
    cases+=("maxload 65536 $law")
  done
  for law in "geometric:0.3" "negbinomial:3,0.4" "negbinomial:1000,0.01" "negbinomial:1e4,0.01" \
    "negbinomial:1e5,0.01" "negbinomial:1e6,0.01" "negbinomial:1e7,0.01"; do
    cases+=("maxshift 1024 $law")
  done
  for entry in "${cases[@]}"; do
    read -r kernel n law <<<"$entry"
    label=$law
    [[ "$law" == empirical:* ]] && label="empirical:(1e5 lognormal times)"
    extra=()
    case_name="maxshift $label n=$n"
    if [[ "$kernel" == maxload ]]; then
      extra=("${brute[@]}")
      case_name="$label n=$n"
    fi
    log "sampler $case_name"
    result=$(lbmc_median variate "$n" "$kernel" --dist "$law" --n "$n" --seed "$seed" --threads 1 "${extra[@]}")
    read -r _ _ _ lbmc_reps _ <<<"$result"
    peer_ns=$(peer_median "$kernel" --dist "$law" --n "$n" --total $((lbmc_reps * n)))
    timed_row sampler "$case_name" "$peer_ns" 1 "$result"
  done
fi

# ---------------------------------------------------------------- compare ---

# Each strategy of `lbmc compare` alone on N = 1e6 exponential tasks, P =
# 1024, in ns per task (one replication draws the N times and runs the
# schedule). The floor of these rows is the draw itself, maxload's brute
# force on the same law (a draw and a compare per variate), and x_floor is
# the strategy's extra cost per task in units of that draw:
# (ns per task - floor) / floor. No NumPy peer (NumPy has no schedules).
if want compare; then
  draw_result=$(lbmc_median variate 65536 maxload --dist exponential:1 --n 65536 --seed "$seed" --threads 1 "${brute[@]}")
  read -r draw_ns _ <<<"$draw_result"
  tasks=1000000
  per_task() { awk -v r="$1" -v n="$tasks" 'BEGIN { printf "%.4f\n", r / n }'; }
  extra() { awk -v t="$1" -v f="$draw_ns" 'BEGIN { printf "%.2f\n", (t - f) / f }'; }
  for strategy in block cyclic random choice:2 self chunk:16 guided balanced-block lpt; do
    case_name="$strategy N=1e6 P=1024"
    log "compare $case_name"
    result=$(lbmc_median rep "$tasks" compare --dist exponential:1 --N "$tasks" --P 1024 --strategy "$strategy" \
      --seed "$seed" --threads 1)
    read -r rep_ns rep_p10 rep_p90 _ <<<"$result"
    task_ns=$(per_task "$rep_ns") task_p10=$(per_task "$rep_p10") task_p90=$(per_task "$rep_p90")
    row compare "$case_name" "$task_ns" "$task_p10" "$task_p90" "" "" "$draw_ns" "$(extra "$task_ns")" \
      "$(extra "$task_p10")" "$(extra "$task_p90")" 1
  done
fi

# ----------------------------------------------------------------- assign ---

# Multinomial assignment by throwing (lbmc picks throwing for N <= 64 P), in
# ns per task; one replication draws N tasks.
if want assign; then
  for nodes in "1000 100" "1000000 1000000"; do
    read -r tasks procs <<<"$nodes"
    case_name="N=$tasks P=$procs"
    log "assign $case_name"
    result=$(lbmc_median variate "$tasks" assign --N "$tasks" --P "$procs" --seed "$seed" --threads 1)
    read -r _ _ _ lbmc_reps _ <<<"$result"
    peer_ns=$(peer_median assign --n "$tasks" --bins "$procs" --total $((lbmc_reps * tasks)))
    timed_row assign "$case_name" "$peer_ns" 1 "$result"
  done
fi

# ------------------------------------------------------------- direct-max ---

# Direct maxima in ns per replication, three ways: the simulation phase
# (direct-max: 1e9 / meta.reps_per_second, the loop that draws the maxima
# and adds them to the statistics), the sort of the stored maxima for exact
# quantiles after the loop (direct-max-store: meta.store_seconds per
# replication, O(reps), in no other row),
# and the whole command (direct-max-whole: meta.wall_seconds per
# replication: the two, and the exact references and the output).
# direct-max-vs-brute divides maxload's brute force per replication (n
# draws, the simulation phase of the maxload rows) by the simulation phase
# and by the whole command. The runs keep at most 2^24 replications, the
# quantile store's exact capacity: past it each value is also binned into
# the store's sketch during the loop (bench/README.md).
if want direct-max && ((have_method)); then
  n=65536
  vs_brute=()
  for law in "normal:0,1" "exponential:1"; do
    case_name="$law n=$n"
    log "direct-max $case_name"
    brute_result=$(lbmc_median variate "$n" maxload "${brute[@]}" --dist "$law" --n "$n" --seed "$seed" --threads 1)
    read -r brute_ns _ <<<"$brute_result"
    per_rep_brute=$(product "$brute_ns" "$n")
    for unit in rep store whole; do
      result=$(reps_cap=$((1 << 24)) lbmc_median "$unit" 1 maxload --method direct --dist "$law" --n "$n" \
        --seed "$seed" --threads 1)
      read -r direct_ns _ _ total _ <<<"$result"
      kernel=direct-max peer_ns=""
      [[ "$unit" != rep ]] && kernel=direct-max-$unit
      if [[ "$unit" == rep && "$law" == exponential:* ]]; then
        peer_ns=$(peer_median direct-max --dist "$law" --n "$n" --total "$total")
      fi
      timed_row "$kernel" "$case_name" "$peer_ns" 1 "$result"
      [[ "$unit" == store ]] && continue
      vs_brute+=("$(row "$kernel-vs-brute" "$case_name" "$direct_ns" "" "" "$per_rep_brute" \
        "$(ratio "$per_rep_brute" "$direct_ns")" "" "" "" "" 1)")
    done
  done
  printf '%s\n' "${vs_brute[@]}"
fi

# ------------------------------------------------------------ device-fold ---

# The host's side of a GPU run (bench/device_fold.cpp): maxload --device cuda
# at n = 1024 hands the host 2^24 maxima in blocks of 64, and at n = 65536
# 2^22 in blocks of one, each block folded into an accumulator and the block
# reduction, then sorted for the quantiles; maxshift at n = 65536 folds W',
# D' and D >= 1 of 2^21 replications in blocks of one, into two stores.
# Here from a stand-in device whose values are ready, in ns a replication,
# at 1 to all threads (lbmc_ns_per_variate: the loop; device-fold-store:
# the sort).
fold_bin="$(dirname "$lbmc")/device_fold"
if want device-fold && ((!busy)) && cmake --build "$(dirname "$lbmc")" --target device_fold >/dev/null 2>&1; then
  for fold_case in "maxload 64" "maxload 1" "maxshift 1"; do
    read -r fold_kernel block <<<"$fold_case"
    # maxshift: half of maxload's one-replication blocks (two stores a block)
    fold_reps=$(((quick ? 1 << 22 : 1 << 24) / (block == 1 ? 4 : 1)))
    [[ "$fold_kernel" == maxshift ]] && fold_reps=$((fold_reps / 2))
    for ((t = 1; t <= threads_max; t++)); do
      log "device-fold $fold_kernel threads=$t: $runs runs of $fold_reps replications in blocks of $block"
      loops=() stores=()
      for ((i = 0; i < runs; i++)); do
        read -r loop store <<<"$("$fold_bin" "$fold_reps" "$t" "$block" "$fold_kernel")"
        loops+=("$loop") stores+=("$store")
      done
      case_name="$fold_reps maxima in blocks of $block"
      [[ "$fold_kernel" == maxshift ]] && case_name="maxshift: $fold_reps replications in blocks of $block"
      row device-fold "$case_name" "$(median "${loops[@]}")" "$(percentile 10 "${loops[@]}")" \
        "$(percentile 90 "${loops[@]}")" "" "" "" "" "" "" "$t"
      row device-fold-store "$case_name" "$(median "${stores[@]}")" "$(percentile 10 "${stores[@]}")" \
        "$(percentile 90 "${stores[@]}")" "" "" "" "" "" "" "$t"
    done
  done
fi

# ----------------------------------------------------------------- python ---

# Many small runs from Python (bench/python_calls.py), in ns per call: the
# module's call against the same run as a process whose CSV pandas reads
# (python-call), and what the module adds to the command line's own work
# (python-overhead).
python_package="$(dirname "$lbmc")/python"
if want python && [[ -e "$python_package/lbmc/__init__.py" ]]; then
  log "python: $runs batches of module calls and of processes"
  "${pin[@]}" env PYTHONPATH="$python_package" OMP_NUM_THREADS=1 "$py" "$root/bench/python_calls.py" "$lbmc" \
    --runs "$runs" --calls $((quick ? 50 : 200))
fi

# ---------------------------------------------------------------- scaling ---

if want scaling && ((!busy)); then
  law="normal:0,1" n=1024
  warn_if_busy "the scaling runs"
  for kernel in maxload maxshift; do
    extra=()
    [[ "$kernel" == maxload ]] && extra=("${brute[@]}")
    t1=""
    for ((t = 1; t <= threads_max; t++)); do
      log "$kernel-scaling $law n=$n threads=$t"
      result=$(lbmc_median variate "$n" "$kernel" --dist "$law" --n "$n" --seed "$seed" --threads "$t" "${extra[@]}")
      read -r ns p10 p90 _ row_floor _ <<<"$result"
      [[ $t -eq 1 ]] && t1=$ns
      row "$kernel-scaling" "$law n=$n" "$ns" "$p10" "$p90" "" "$(ratio "$t1" "$ns")" "$row_floor" "" "" "" "$t"
    done
  done
fi
log "done"
