#!/usr/bin/env bash
# The GPU check, for a machine with a CUDA GPU: first --device cuda against
# --device cpu --rng philox byte for byte (tests/gpu_bytes.sh), then one
# table of rates in the same run, in 10^9 variates a second, end to end with
# the output written: lbmc on the GPU (whole process, and its run phase from
# the JSON meta's ns_per_variate, which leaves out start-up and CUDA's
# context), lbmc on all cores (--rng philox and pcg64), and the PyTorch peer
# (bench/peers/torch_kernels.py, float32 and float64), for maxload, maxshift
# and scatter, then four long runs. About 4 minutes on an H200 with 16
# cores.
#
# Usage: scripts/gpu_check.sh [--quick]
#   LBMC_BINARY: the lbmc to check (default build/release/lbmc). A folder
#   lib/ beside it may hold its shared libraries (from ldd): those this
#   machine lacks are taken from there, so a binary built elsewhere runs
#   (scripts/pack.sh makes such a folder, build/device, with the timing
#   programs below).
#   --quick: the byte comparisons with fewer replications, rates once.
#   A device_parts beside it (cmake --build build/release --target
#   device_parts) is run too: the normal kernel's parts timed apart; and a
#   device_fold (bench/device_fold.cpp): the host's side of a GPU run on
#   all cores, one-replication blocks and blocks of 64, and maxshift's
#   one-replication blocks.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lbmc=${LBMC_BINARY:-$root/build/release/lbmc}
quick=()
repeats=3
[[ ${1:-} == --quick ]] && { quick=(--quick); repeats=1; shift; }
[[ $# -eq 0 ]] || { echo "gpu_check: unknown argument '$1' (usage: scripts/gpu_check.sh [--quick])" >&2; exit 2; }
[[ -x "$lbmc" ]] || { echo "gpu_check: no lbmc at $lbmc (scripts/build.sh, or set LBMC_BINARY)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

libs=$(dirname "$lbmc")/lib
if [[ -d "$libs" ]]; then
  mkdir "$work/lib"
  for f in "$libs"/*.so*; do
    name=$(basename "$f")
    { ldconfig -p | awk '{print $1}' | grep -qxF "$name" || [[ -e /usr/lib/x86_64-linux-gnu/$name ]]; } ||
      ln -s "$(cd "$libs" && pwd)/$name" "$work/lib/$name"
  done
  export LD_LIBRARY_PATH=$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
if ldd "$lbmc" | grep -q "not found"; then
  echo "gpu_check: libraries missing: $(ldd "$lbmc" | grep 'not found' | tr -s ' \t\n' ' ')" >&2
  exit 2
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_WAIT_POLICY=passive
cores=$(nproc)

echo "gpu_check: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null)," \
  "$cores cores ($(lscpu | sed -n 's/^Model name: *//p'), $(lscpu | sed -n 's/^Thread(s) per core: *//p') threads a core)"
echo "lbmc: $("$lbmc" --version 2>&1 | head -1)"
echo
echo "== bytes: --device cuda against --device cpu --rng philox"
"$root/tests/gpu_bytes.sh" "$lbmc" "${quick[@]}"
bytes=$?

parts=$(dirname "$lbmc")/device_parts
if [[ -x "$parts" ]]; then
  echo
  echo "== the kernel's parts (bench/device_parts.cu)"
  "$parts" 4096 262144
fi
fold=$(dirname "$lbmc")/device_fold
if [[ -x "$fold" ]]; then
  echo
  echo "== the host's side on $cores threads (bench/device_fold.cpp), ns a replication: loop, store"
  echo "2^22 maxima in blocks of 1: $("$fold" $((1 << 22)) "$cores" 1)"
  echo "2^24 maxima in blocks of 64: $("$fold" $((1 << 24)) "$cores" 64)"
  echo "maxshift, 2^21 replications in blocks of 1: $("$fold" $((1 << 21)) "$cores" 1 maxshift)"
fi

# lbmc_rate REPEATS TOTAL PER_REP COMMAND ARGS...: "process run" rates (1e9
# variates/s), medians over REPEATS runs of COMMAND ARGS with TOTAL variates,
# PER_REP a replication.
lbmc_rate() {
  local repeats=$1 total=$2 n=$3 command=$4; shift 4
  local reps=$((total / n))
  local process=() run=()
  for ((i = 0; i < repeats; i++)); do
    local start end
    start=$(date +%s.%N)
    "$lbmc" "$command" "$@" --reps "$reps" --seed $((i + 1)) --quiet \
      --csv "$work/rate.csv" --json "$work/rate.json" >/dev/null 2>"$work/rate.err" ||
      { echo "failed: $(tail -1 "$work/rate.err")" >&2; echo "- -"; return; }
    end=$(date +%s.%N)
    process+=("$(awk -v v="$reps" -v n="$n" -v a="$start" -v b="$end" 'BEGIN { printf "%.4g", v * n / (b - a) / 1e9 }')")
    run+=("$(/usr/bin/env python3 -c 'import json,sys; print("%.4g" % (1 / json.load(open(sys.argv[1]))["meta"]["ns_per_variate"]))' "$work/rate.json")")
  done
  echo "$(printf '%s\n' "${process[@]}" | sort -g | sed -n "$(((repeats + 1) / 2))p")" \
    "$(printf '%s\n' "${run[@]}" | sort -g | sed -n "$(((repeats + 1) / 2))p")"
}

torch_rate() {  # KERNEL DTYPE TOTAL LAW PER_REP PROCS -> 1e9 variates/s, or -
  local ns
  if ns=$(python3 "$root/bench/peers/torch_kernels.py" --kernel "$1" --dtype "$2" --total "$3" --dist "$4" --n "$5" \
            --procs "$6" --repeats "$repeats" --out "$work/torch.csv" 2>"$work/torch.err"); then
    awk -v ns="$ns" 'BEGIN { printf "%.4g", 1 / ns }'
  else
    echo "torch failed: $(tail -1 "$work/torch.err")" >&2
    echo "-"
  fi
}

echo
echo "== rates, 10^9 variates/s, end to end with output written (medians of $repeats)"
echo "| kernel | lbmc cuda, process | lbmc cuda, run | lbmc cpu philox, $cores threads | lbmc cpu pcg64, $cores threads | torch float32 | torch float64 | lbmc cuda / torch float32 |"
echo "|---|---|---|---|---|---|---|---|"
# command|law|variates a replication|processors (scatter)|GPU variates|CPU variates|the command's size and levels
rows=(
  "maxload|normal:0,1|1024|1|$((1 << 34))|$((1 << 33))|--method brute --n 1024 --alpha 0.5,0.99"
  "maxload|normal:0,1|65536|1|$((1 << 36))|$((1 << 34))|--method brute --n 65536 --alpha 0.5,0.99"
  "maxload|exponential:1|65536|1|$((1 << 36))|$((1 << 34))|--method brute --n 65536 --alpha 0.5,0.99"
  "maxload|uniform:0,1|65536|1|$((1 << 36))|$((1 << 34))|--method brute --n 65536 --alpha 0.5,0.99"
  "maxload|poisson:10|1024|1|$((1 << 34))|$((1 << 32))|--method brute --n 1024 --alpha 0.5,0.99"
  "maxload|binomial:4096,0.5|1024|1|$((1 << 34))|$((1 << 32))|--method brute --n 1024 --alpha 0.5,0.99"
  "maxshift|normal:0,1|1024|1|$((1 << 34))|$((1 << 33))|--n 1024 --alpha 0.5,0.99"
  "maxshift|normal:0,1|65536|1|$((1 << 35))|$((1 << 33))|--n 65536 --alpha 0.5,0.99"
  "maxshift|poisson:10|1024|1|$((1 << 34))|$((1 << 32))|--n 1024 --alpha 0.5,0.99"
  "scatter|exponential:1|1048576|1024|$((1 << 35))|$((1 << 33))|--tasks 1024 --procs 1024 --confidence 0.5,0.99"
)
for row in "${rows[@]}"; do
  IFS='|' read -r command law n procs gpu_total cpu_total size <<<"$row"
  read -ra size_args <<<"$size"
  read -r gpu_process gpu_run <<<"$(lbmc_rate "$repeats" "$gpu_total" "$n" "$command" "${size_args[@]}" --device cuda --dist "$law")"
  read -r philox _ <<<"$(lbmc_rate 1 "$cpu_total" "$n" "$command" "${size_args[@]}" --rng philox --threads "$cores" --dist "$law")"
  read -r pcg _ <<<"$(lbmc_rate 1 "$cpu_total" "$n" "$command" "${size_args[@]}" --rng pcg64 --threads "$cores" --dist "$law")"
  t32=$(torch_rate "$command" float32 "$gpu_total" "$law" "$n" "$procs")
  t64=$(torch_rate "$command" float64 "$gpu_total" "$law" "$n" "$procs")
  ratio=$(awk -v a="$gpu_process" -v b="$t32" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3g", a / b; else print "-" }')
  echo "| $command $law ${size% --*} | $gpu_process | $gpu_run | $philox | $pcg | $t32 | $t64 | $ratio |"
done

# The rows above last 0.2-2 s on an H200, where CUDA's start-up (about 0.3
# s) weighs; long runs show the rate a user of 10^11 variates gets.
echo
echo "== long runs, n = 65536, one each: 10^9 variates/s, whole process (run phase), and torch float32"
echo "| kernel | variates | lbmc cuda, process | lbmc cuda, run | torch float32 |"
echo "|---|---|---|---|---|"
for row in "maxload|normal:0,1|38|--method brute" "maxload|poisson:10|38|--method brute" \
  "maxshift|normal:0,1|37|" "maxshift|poisson:10|37|"; do
  IFS='|' read -r command law power extra <<<"$row"
  read -ra extra_args <<<"$extra"
  read -r process run <<<"$(lbmc_rate 1 $((1 << power)) 65536 "$command" "${extra_args[@]}" --n 65536 --device cuda --dist "$law")"
  t32=$(torch_rate "$command" float32 $((1 << power)) "$law" 65536 1)
  echo "| $command $law | 2^$power | $process | $run | $t32 |"
done
exit $bytes
