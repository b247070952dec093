#!/usr/bin/env bash
# Sets up, builds (Release) and runs every test with ctest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
cd "$root/build/release"
ctest --output-on-failure -j"$(nproc)" "$@"
