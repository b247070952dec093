#!/usr/bin/env bash
# Packs lbmc for a machine without its build tools (a GPU node, say) into
# one folder: the Release binary, the timing programs beside it
# (device_fold; device_parts where the build has CUDA; rng_floor, the
# pcg64 floor of scripts/bench.sh) and, in lib/, every shared library ldd
# lists for them but the loader. scripts/gpu_check.sh and
# scripts/bench_scaling.sh run from it (LBMC_BINARY=DIR/lbmc); gpu_check
# takes from lib/ what that machine lacks.
#
# Usage: scripts/pack.sh [DIR]   (default build/device; emptied first)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${1:-$root/build/device}
release=$root/build/release
[[ -f "$release/CMakeCache.txt" ]] || { echo "pack: no build at $release (scripts/build.sh)" >&2; exit 2; }

targets=(lbmc device_fold)
grep -q '^LBMC_CUDA:BOOL=ON' "$release/CMakeCache.txt" && targets+=(device_parts)
cmake --build "$release" --target "${targets[@]}" >/dev/null
rm -rf "$dir"
mkdir -p "$dir/lib"
for target in "${targets[@]}"; do cp "$release/$target" "$dir/"; done
g++ -O3 -std=c++20 "$root/bench/rng_floor.cpp" -o "$dir/rng_floor"

# Each library once, by the path the loader found (the loader itself and
# the kernel's vdso are the machine's own).
for binary in "$dir"/lbmc "$dir"/device_*; do
  ldd "$binary" | awk '$3 ~ /^\// { print $3 }'
done | sort -u | while read -r library; do
  case "$(basename "$library")" in ld-linux*) continue ;; esac
  cp -L "$library" "$dir/lib/"
done
echo "pack: $dir: ${targets[*]} rng_floor, $(find "$dir/lib" -type f | wc -l) libraries," \
  "$(du -sh "$dir" | cut -f1)" >&2
