#!/usr/bin/env bash
# The Kimura-Ichiyoshi isoefficiency sweep past the main job's p = 256, one
# level: the smallest t1 reaching eta = 0.8 for p = 4, 8, ..., 1024, with the
# fits of ln t1 on ln p and ln ln p (rows alpha, beta, alpha_harmonic,
# beta_harmonic, alpha_fixed_beta). The same settings and seed as the main
# job's one-level sweep, so its points up to 256 are the same searches.
# About 2.5 minutes of 2 cores; the output is recorded in results/isoefficiency/.
# Two levels stay at p <= 256 (scripts/plots.sh): each doubling of p costs
# them 4-5 times more, and p = 512 alone would take about ten minutes here.
# Usage: scripts/isoefficiency_sweep.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lbmc="${LBMC:-$root/build/release/lbmc}"  # LBMC: another build of the same code
out="$root/results/isoefficiency"
mkdir -p "$out"
start=$SECONDS
"$lbmc" dynamic --model exponential --isoefficiency --eta0 0.8 --lambda 1 --p 4:1024:*2 --seed 6 --progress never \
  --levels 1 --reps 1000 --tol 0.03 --csv "$out/levels_1.csv" >"$out/levels_1.txt"
echo "isoefficiency: one level, p = 4..1024: $((SECONDS - start)) s; $out/levels_1.csv" >&2
