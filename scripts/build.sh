#!/usr/bin/env bash
# Configures and builds the Release tree (build/release) with both cores:
# every target, or only the targets given (scripts/build.sh lbmc).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
cmake --preset release -S "$root" >/dev/null
targets=()
[[ $# -gt 0 ]] && targets=(--target "$@")
cmake --build "$root/build/release" -j"$(nproc)" "${targets[@]}" >/dev/null
