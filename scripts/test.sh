#!/usr/bin/env bash
# Sets up, builds (Release), runs every test with ctest, then `lbmc validate
# --quick` (every validator of every experiment on fixed seeds).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
cd "$root/build/release"
ctest --output-on-failure -j"$(nproc)" "$@"
"$root/build/release/lbmc" validate --quick
