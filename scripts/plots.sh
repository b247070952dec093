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

# step NAME SECONDS: says on stderr which sweep runs and about how long is
# left: the seconds each sweep typically takes on 2 cores (the full run;
# --quick a tenth), scaled by how fast the sweeps before it went.
planned=(1 1 2 9 2 15 160 3 1 2 2)  # in the order of the step calls below
planned_total=0
for s in "${planned[@]}"; do planned_total=$((planned_total + s)); done
planned_done=0 step_index=0 started=$SECONDS
step() {
  local elapsed=$((SECONDS - started)) left=$((planned_total - planned_done))
  if ((planned_done >= 10)); then left=$((left * elapsed / planned_done)); fi
  step_index=$((step_index + 1))
  echo "plots: [$step_index/${#planned[@]}] $1; about $(((left / scale + 59) / 60)) min left" >&2
  planned_done=$((planned_done + planned[step_index - 1]))
}

step "maxload against Gumbel"
"$lbmc" maxload --dist normal:0,1 --n 4:65536:*2 --alpha 0.95 --reps "$(reps 100000)" \
  --seed 1 --csv "$plots/data/maxload.csv" "${common[@]}" >/dev/null
step "maxshift quantiles"
"$lbmc" maxshift --dist normal:0,1 --n 16,64,1024 --alpha 0.02:0.98:+0.02 --reps "$(reps 100000)" \
  --seed 2 --csv "$plots/data/maxshift.csv" "${common[@]}" >/dev/null
step "assign efficiency"
"$lbmc" assign --model multinomial,poisson --N 1000 --P 2,5,10,20,50,100,200,500,1000 --reps "$(reps 20000)" \
  --seed 3 --csv "$plots/data/assign.csv" "${common[@]}" >/dev/null
step "dynamic efficiency against nu"
"$lbmc" dynamic --model exponential --p 16 --kappa 4 --lambda 1 --nu 20:2000:*1.25 --reps "$(reps 5000)" \
  --seed 6 --csv "$plots/data/dynamic_nu.csv" "${common[@]}" >/dev/null
step "dynamic optimal nu"
"$lbmc" dynamic --model exponential --p 16 --kappa 4 --lambda 1 --optimize-nu --reps "$(reps 20000)" \
  --seed 6 --csv "$plots/data/dynamic_opt.csv" "${common[@]}" >/dev/null
# One CSV for both levels (--levels takes one value: it fixes the --fanout list).
iso=("$lbmc" dynamic --model exponential --isoefficiency --eta0 0.8 --lambda 1 --p 4:256:*2 --seed 6 "${common[@]}")
step "isoefficiency, one level"
"${iso[@]}" --levels 1 --reps "$(reps 1000)" --tol 0.03 --csv "$plots/data/iso1.tmp" >/dev/null
step "isoefficiency, two levels"
"${iso[@]}" --levels 2 --reps "$(reps 500)" --tol 0.05 --csv "$plots/data/iso2.tmp" >/dev/null
{ cat "$plots/data/iso1.tmp"; tail -n +2 "$plots/data/iso2.tmp"; } >"$plots/data/isoefficiency.csv"
rm "$plots/data/iso1.tmp" "$plots/data/iso2.tmp"

# Which decomposition (lbmc compare): the canonical workload's efficiency
# against P, then one point each for skewed, correlated and measured times.
out="$root/results/compare"
mkdir -p "$out"
"$root/scripts/example_times.sh" >"$out/ray_tracing_costs.txt"
step "compare: efficiency against P"
"$lbmc" compare --dist exponential:1 --N 4096 --P 2:1024:*2 --reps "$(reps 2000)" \
  --seed 7 --csv "$out/efficiency_vs_p.csv" "${common[@]}" >/dev/null
step "compare: skewed times"
"$lbmc" compare --dist lognormal:0,1.5 --N 4096 --P 64 --strategy block,cyclic,random,choice:2,self,chunk:16,guided,balanced-block,lpt \
  --reps "$(reps 5000)" --seed 8 --csv "$out/skewed.csv" "${common[@]}" >/dev/null
step "compare: correlated times"
"$lbmc" compare --dist lognormal:0,1 --field iid,ar1:0.9,ar1:0.99 --N 4096 --P 64 --reps "$(reps 5000)" \
  --seed 9 --csv "$out/correlated.csv" "${common[@]}" >/dev/null
step "compare: measured times"
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
