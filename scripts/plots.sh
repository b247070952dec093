#!/usr/bin/env bash
# The sweeps behind results/plots/ (fixed seeds, so the CSVs regenerate
# byte-identically) and their rendering to SVG by the gnuplot scripts there,
# when gnuplot is installed. Usage: scripts/plots.sh [--quick]
# (--quick: a tenth of the replications, for a fast look).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lbmc="${LBMC:-$root/build/release/lbmc}"  # LBMC: another build of the same code
plots="$root/results/plots"
scale=1
if [[ "${1:-}" == "--quick" ]]; then scale=10; fi
reps() { echo $(( $1 / scale )); }

mkdir -p "$plots/data"
common=(--quiet --progress never)

# The sweeps in the order they run, each with the seconds it typically
# takes on 2 cores (the full run; --quick takes a tenth). `step`, called
# before each, says on stderr which runs and about how long is left, scaled
# by how fast the sweeps before it went.
sweeps=(
  "maxload against Gumbel" 1
  "maxshift quantiles" 1
  "assign efficiency" 2
  "dynamic efficiency against nu" 9
  "dynamic optimal nu" 2
  "isoefficiency, one level" 15
  "isoefficiency, two levels" 160
  "compare: efficiency against P" 3
  "compare: skewed times" 1
  "compare: correlated times" 2
  "compare: measured times" 2
)
planned_total=0
for ((i = 1; i < ${#sweeps[@]}; i += 2)); do planned_total=$((planned_total + sweeps[i])); done
planned_done=0 step_index=0 started=$SECONDS
step() {
  local elapsed=$((SECONDS - started)) left=$((planned_total - planned_done))
  if ((planned_done >= 10)); then left=$((left * elapsed / planned_done)); fi
  local minutes=$(((left / scale + 30) / 60)) remaining="under a minute left"
  ((minutes > 0)) && remaining="about $minutes min left"
  echo "plots: [$((step_index / 2 + 1))/$((${#sweeps[@]} / 2))] ${sweeps[step_index]}; $remaining" >&2
  planned_done=$((planned_done + sweeps[step_index + 1]))
  step_index=$((step_index + 2))
}

step
"$lbmc" maxload --dist normal:0,1 --n 4:65536:*2 --alpha 0.95 --reps "$(reps 100000)" \
  --seed 1 --csv "$plots/data/maxload.csv" "${common[@]}" >/dev/null
step
"$lbmc" maxshift --dist normal:0,1 --n 16,64,1024 --alpha 0.02:0.98:+0.02 --reps "$(reps 100000)" \
  --seed 2 --csv "$plots/data/maxshift.csv" "${common[@]}" >/dev/null
step
"$lbmc" assign --model multinomial,poisson --N 1000 --P 2,5,10,20,50,100,200,500,1000 --reps "$(reps 20000)" \
  --seed 3 --csv "$plots/data/assign.csv" "${common[@]}" >/dev/null
step
"$lbmc" dynamic --model exponential --p 16 --kappa 4 --lambda 1 --nu 20:2000:*1.25 --reps "$(reps 5000)" \
  --seed 6 --csv "$plots/data/dynamic_nu.csv" "${common[@]}" >/dev/null
step
"$lbmc" dynamic --model exponential --p 16 --kappa 4 --lambda 1 --optimize-nu --reps "$(reps 20000)" \
  --seed 6 --csv "$plots/data/dynamic_opt.csv" "${common[@]}" >/dev/null
# One CSV for both levels (--levels takes one value: it fixes the --fanout list).
iso=("$lbmc" dynamic --model exponential --isoefficiency --eta0 0.8 --lambda 1 --p 4:256:*2 --seed 6 "${common[@]}")
step
"${iso[@]}" --levels 1 --reps "$(reps 1000)" --tol 0.03 --csv "$plots/data/iso1.tmp" >/dev/null
step
"${iso[@]}" --levels 2 --reps "$(reps 500)" --tol 0.05 --csv "$plots/data/iso2.tmp" >/dev/null
{ cat "$plots/data/iso1.tmp"; tail -n +2 "$plots/data/iso2.tmp"; } >"$plots/data/isoefficiency.csv"
rm "$plots/data/iso1.tmp" "$plots/data/iso2.tmp"

# Which decomposition (lbmc compare): the canonical workload's efficiency
# against P, then one point each for skewed, correlated and measured times.
out="$root/results/compare"
mkdir -p "$out"
"$root/scripts/example_times.sh" >"$out/ray_tracing_costs.txt"
step
"$lbmc" compare --dist exponential:1 --N 4096 --P 2:1024:*2 --reps "$(reps 2000)" \
  --seed 7 --csv "$out/efficiency_vs_p.csv" "${common[@]}" >/dev/null
step
"$lbmc" compare --dist lognormal:0,1.5 --N 4096 --P 64 --strategy block,cyclic,random,choice:2,self,chunk:16,guided,balanced-block,lpt \
  --reps "$(reps 5000)" --seed 8 --csv "$out/skewed.csv" "${common[@]}" >/dev/null
step
"$lbmc" compare --dist lognormal:0,1 --field iid,ar1:0.9,ar1:0.99 --N 4096 --P 64 --reps "$(reps 5000)" \
  --seed 9 --csv "$out/correlated.csv" "${common[@]}" >/dev/null
step
(cd "$out" && "$lbmc" compare --times ray_tracing_costs.txt --P 16,64 --h 0,0.05 --reps "$(reps 5000)" \
  --seed 10 --csv measured.csv "${common[@]}" >/dev/null)

if ! command -v gnuplot >/dev/null; then
  echo "plots: gnuplot not found; the data are in $plots/data, the SVGs were not rendered" >&2
  exit 0
fi
cd "$plots"
for script in maxload_percentile shift_ecdf assign_efficiency dynamic_eta_nu isoefficiency compare_efficiency; do
  gnuplot "$script.gp"
done
echo "plots: rendered $(cd "$plots" && ls ./*.svg | wc -l) SVGs in $plots and the compare plot in $out" >&2
