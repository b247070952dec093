#!/usr/bin/env bash
# Benchmarks lbmc's kernels against the raw pcg64 floor and an idiomatic NumPy
# peer (bench/peers/numpy_kernels.py), in one run. See bench/README.md.
#
# Usage: scripts/bench.sh [--quick] [--checkpoints]
#   default: median of 5 runs, each replication loop lasting about 0.5 s
#   --quick: median of 3 runs of about 0.1 s
#   --checkpoints: only the cost of checkpoints (about 25 minutes, both
#     cores; section "checkpoints" below). LBMC=PATH times that binary
#     instead of building build/release.
#
# stdout: CSV with the columns
#   kernel,case,lbmc_ns_per_variate,peer_ns_per_variate,speedup_vs_peer,floor_ns,x_floor,threads
# or, with --checkpoints,
#   measure,case,run,cpu,wall_s,cpu_s,peak_rss_mib,checkpoints,largest_checkpoint_mib,overhead_wall_pct,overhead_cpu_pct
# stderr: progress and the individual runs.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

quick=0 checkpoints=0
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    --checkpoints) checkpoints=1 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "bench: unknown argument '$arg' (expected --quick or --checkpoints)" >&2; exit 2 ;;
  esac
done

# floor_*: the rng rows' floor; row_floor_outputs: the floor timed before
# each lbmc run, whose median is the row's floor_ns.
if ((quick)); then
  runs=3 target_s=0.1 pilot_variates=2e6 floor_outputs=$((1 << 25)) floor_reps=5
  row_floor_outputs=$((1 << 23))
else
  runs=5 target_s=0.5 pilot_variates=1e7 floor_outputs=$((1 << 27)) floor_reps=7
  row_floor_outputs=$((1 << 25))
fi
seed=20240601
# The system interpreter: setup.sh installs python3-numpy for it (a pyenv
# python3 earlier on PATH may have no NumPy).
py=/usr/bin/python3
peer=(env OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$py" "$root/bench/peers/numpy_kernels.py")
lbmc="${LBMC:-$root/build/release/lbmc}"
floor_bin="$root/build/bench/rng_floor"

log() { echo "bench: $*" >&2; }

# ---------------------------------------------------------------- helpers ---

# median VALUE...: the median of the arguments (mean of the middle two).
median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
    END { if (NR == 0) exit 1; if (NR % 2) printf "%.4f\n", v[(NR + 1) / 2];
          else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
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

# row KERNEL CASE LBMC PEER SPEEDUP FLOOR X_FLOOR THREADS
row() {
  printf '%s,%s,%s,%s,%s,%s,%s,%s\n' "$1" "$(csv_field "$2")" "$3" "$4" "$5" "$6" "$7" "$8"
}

# lbmc_once ARGS...: runs lbmc quietly with JSON on stdout and prints
# "ns_per_variate reps_per_second" from its metadata.
lbmc_once() {
  "$lbmc" "$@" --quiet --json - |
    "$py" -c 'import json, sys; m = json.load(sys.stdin)["meta"]; print(m["ns_per_variate"], m["reps_per_second"])'
}

# lbmc_median UNIT PER_REP ARGS...: the median over $runs runs of lbmc ARGS
# (which must not contain --reps), in ns per variate (UNIT = variate, taken
# from meta.ns_per_variate) or ns per replication (UNIT = rep, from
# meta.reps_per_second). A pilot run sizes --reps so that the replication loop
# lasts about $target_s; PER_REP is the variates one replication draws. The
# floor is timed just before each run, so that x_floor compares times taken
# side by side even when the host's speed drifts during the benchmark.
# Prints "MEDIAN REPS FLOOR" (REPS: the --reps of the timed runs; FLOOR: the
# median of those floors).
lbmc_median() {
  local unit=$1 per_rep=$2
  shift 2
  local pilot_reps rps ns out reps values=() floors=()
  pilot_reps=$(awk -v p="$pilot_variates" -v v="$per_rep" 'BEGIN { r = int(p / v); if (r < 64) r = 64; print r }')
  out=$(lbmc_once "$@" --reps "$pilot_reps")
  rps=${out#* }
  reps=$(awk -v t="$target_s" -v r="$rps" 'BEGIN { n = int(t * r + 0.5); if (n < 64) n = 64; print n }')
  for ((i = 0; i < runs; i++)); do
    floors+=("$("$floor_bin" "$row_floor_outputs" 1 2>/dev/null)")
    out=$(lbmc_once "$@" --reps "$reps")
    if [[ "$unit" == variate ]]; then
      ns=${out% *}
    else
      ns=$(awk -v r="${out#* }" 'BEGIN { printf "%.4f\n", 1e9 / r }')
    fi
    values+=("$ns")
  done
  log "  lbmc $* --reps $reps: ns/$unit ${values[*]}; floor ${floors[*]}"
  echo "$(median "${values[@]}") $reps $(median "${floors[@]}")"
}

# peer_median KERNEL ARGS...: the NumPy peer's median over $runs repetitions.
peer_log=$(mktemp)
trap 'rm -f "$peer_log"' EXIT
peer_median() {
  local out
  if ! out=$("${peer[@]}" "$@" --seconds "$target_s" --repeats "$runs" --seed "$seed" 2>"$peer_log"); then
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
  trap 'rm -rf "$work" "$peer_log"' EXIT
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

have_method=0
if "$lbmc" maxload --help 2>/dev/null | grep -q -- --method; then
  have_method=1
  brute=(--method brute)
else
  brute=()
  log "lbmc maxload has no --method: direct-max rows get empty lbmc fields"
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

echo "kernel,case,lbmc_ns_per_variate,peer_ns_per_variate,speedup_vs_peer,floor_ns,x_floor,threads"

# -------------------------------------------------------------------- rng ---

log "rng: pcg64 floor, median of $floor_reps x $floor_outputs outputs"
floor=$("$floor_bin" "$floor_outputs" "$floor_reps" 2>/dev/null)
log "  floor: $floor ns per 64-bit output"
rng_total=$((quick ? 1 << 24 : 1 << 26))
for kind in raw integers random; do
  peer_ns=$(peer_median "rng-$kind" --total "$rng_total")
  case "$kind" in
    raw) row rng "pcg64 u64 (numpy random_raw)" "$floor" "$peer_ns" "$(ratio "$peer_ns" "$floor")" "$floor" "1.00" 1 ;;
    integers) row rng "pcg64 u64 (numpy integers)" "$floor" "$peer_ns" "$(ratio "$peer_ns" "$floor")" "$floor" "1.00" 1 ;;
    random) row rng "uniform double (numpy random)" "" "$peer_ns" "" "$floor" "" 1 ;;
  esac
done

# -------------------------------------------------------- maxload, maxshift ---

declare -A brute_ns  # law -> maxload ns per variate at n = 65536
for kernel in maxload maxshift; do
  for law in "${laws[@]}"; do
    for n in "${sizes[@]}"; do
      case_name="$law n=$n"
      log "$kernel $case_name"
      extra=()
      [[ "$kernel" == maxload ]] && extra=("${brute[@]}")
      result=$(lbmc_median variate "$n" "$kernel" --dist "$law" --n "$n" --seed "$seed" --threads 1 "${extra[@]}")
      read -r lbmc_ns lbmc_reps row_floor <<<"$result"
      peer_ns=$(peer_median "$kernel" --dist "$law" --n "$n" --total $((lbmc_reps * n)))
      [[ "$kernel" == maxload && "$n" == 65536 ]] && brute_ns[$law]=$lbmc_ns
      row "$kernel" "$case_name" "$lbmc_ns" "$peer_ns" "$(ratio "$peer_ns" "$lbmc_ns")" \
        "$row_floor" "$(ratio "$lbmc_ns" "$row_floor")" 1
    done
  done
done

# ---------------------------------------------------------- task-time laws ---

# Each task-time sampler through maxload by brute force at n = 65536 (a draw
# and a compare per variate), against NumPy's generator for the same law:
# the negative binomial on its table (1000,0.01) and past it (1e4,0.01), and
# the empirical law of 10^5 measured times (lognormal values written once by
# NumPy from the run's seed; NumPy's peer is rng.choice of the sorted values).
times_file=$(mktemp --suffix=.txt)
trap 'rm -f "$peer_log" "$times_file"' EXIT
"$py" -c 'import sys, numpy as np
np.savetxt(sys.argv[1], np.random.default_rng(int(sys.argv[2])).lognormal(0.0, 0.5, 100000), fmt="%.17g")' \
  "$times_file" "$seed"
for law in "gamma:2.5,2" "gamma:0.3,1" "lognormal:0,0.5" "weibull:1.5,2" "pareto:4.5,1" "geometric:0.3" \
  "negbinomial:3,0.4" "negbinomial:1000,0.01" "negbinomial:1e4,0.01" "empirical:$times_file"; do
  label=$law
  [[ "$law" == empirical:* ]] && label="empirical:(1e5 lognormal times)"
  n=65536 case_name="$label n=65536"
  log "sampler $case_name"
  result=$(lbmc_median variate "$n" maxload --dist "$law" --n "$n" --seed "$seed" --threads 1 "${brute[@]}")
  read -r lbmc_ns lbmc_reps row_floor <<<"$result"
  peer_ns=$(peer_median maxload --dist "$law" --n "$n" --total $((lbmc_reps * n)))
  row sampler "$case_name" "$lbmc_ns" "$peer_ns" "$(ratio "$peer_ns" "$lbmc_ns")" \
    "$row_floor" "$(ratio "$lbmc_ns" "$row_floor")" 1
done

# ---------------------------------------------------------------- compare ---

# Each strategy of `lbmc compare` alone on N = 1e6 exponential tasks, P =
# 1024, in ns per task (one replication draws the N times and runs the
# schedule). The floor of these rows is the draw itself, maxload's brute
# force on the same law (a draw and a compare per variate), and x_floor is
# the strategy's extra cost per task in units of that draw:
# (ns per task - floor) / floor. No NumPy peer (NumPy has no schedules).
draw_result=$(lbmc_median variate 65536 maxload --dist exponential:1 --n 65536 --seed "$seed" --threads 1 "${brute[@]}")
read -r draw_ns _ _ <<<"$draw_result"
for strategy in block cyclic random choice:2 self chunk:16 guided balanced-block lpt; do
  tasks=1000000 case_name="$strategy N=1e6 P=1024"
  log "compare $case_name"
  result=$(lbmc_median rep "$tasks" compare --dist exponential:1 --N "$tasks" --P 1024 --strategy "$strategy" \
    --seed "$seed" --threads 1)
  read -r rep_ns _ _ <<<"$result"
  task_ns=$(awk -v r="$rep_ns" -v n="$tasks" 'BEGIN { printf "%.4f\n", r / n }')
  extra=$(awk -v t="$task_ns" -v f="$draw_ns" 'BEGIN { printf "%.2f\n", (t - f) / f }')
  row compare "$case_name" "$task_ns" "" "" "$draw_ns" "$extra" 1
done

# ----------------------------------------------------------------- assign ---

# Multinomial assignment by throwing (lbmc picks throwing for N <= 64 P), in
# ns per task; one replication draws N tasks.
for nodes in "1000 100" "1000000 1000000"; do
  read -r tasks procs <<<"$nodes"
  case_name="N=$tasks P=$procs"
  log "assign $case_name"
  result=$(lbmc_median variate "$tasks" assign --N "$tasks" --P "$procs" --seed "$seed" --threads 1)
  read -r lbmc_ns lbmc_reps row_floor <<<"$result"
  peer_ns=$(peer_median assign --n "$tasks" --bins "$procs" --total $((lbmc_reps * tasks)))
  row assign "$case_name" "$lbmc_ns" "$peer_ns" "$(ratio "$peer_ns" "$lbmc_ns")" \
    "$row_floor" "$(ratio "$lbmc_ns" "$row_floor")" 1
done

# ------------------------------------------------------------- direct-max ---

n=65536
vs_brute=()
for law in "normal:0,1" "exponential:1"; do
  case_name="$law n=$n"
  log "direct-max $case_name"
  direct_ns="" peer_ns="" total=$((quick ? 1 << 22 : 1 << 24)) row_floor=$floor
  if ((have_method)); then
    result=$(lbmc_median rep 1 maxload --method direct --dist "$law" --n "$n" --seed "$seed" --threads 1)
    read -r direct_ns total row_floor <<<"$result"
  fi
  if [[ "$law" == exponential:* ]]; then
    peer_ns=$(peer_median direct-max --dist "$law" --n "$n" --total "$total")
  fi
  row direct-max "$case_name" "$direct_ns" "$peer_ns" "$(ratio "$peer_ns" "$direct_ns")" \
    "$row_floor" "$(ratio "$direct_ns" "$row_floor")" 1
  per_rep_brute=$(product "${brute_ns[$law]}" "$n")
  vs_brute+=("$(row direct-max-vs-brute "$case_name" "$direct_ns" "$per_rep_brute" \
    "$(ratio "$per_rep_brute" "$direct_ns")" "$row_floor" "$(ratio "$direct_ns" "$row_floor")" 1)")
done
printf '%s\n' "${vs_brute[@]}"

# ---------------------------------------------------------------- scaling ---

law="normal:0,1" n=1024
warn_if_busy "the scaling runs"
for kernel in maxload maxshift; do
  extra=()
  [[ "$kernel" == maxload ]] && extra=("${brute[@]}")
  t1=""
  for ((t = 1; t <= threads_max; t++)); do
    log "$kernel-scaling $law n=$n threads=$t"
    result=$(lbmc_median variate "$n" "$kernel" --dist "$law" --n "$n" --seed "$seed" --threads "$t" "${extra[@]}")
    read -r ns _ row_floor <<<"$result"
    [[ $t -eq 1 ]] && t1=$ns
    row "$kernel-scaling" "$law n=$n" "$ns" "" "$(ratio "$t1" "$ns")" "$row_floor" "" "$t"
  done
done
log "done"
