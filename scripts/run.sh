#!/usr/bin/env bash
# Sets up, builds (Release) and runs lbmc with the given arguments; with none,
# the main job: `lbmc reproduce all`, which regenerates results/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
cd "$root"
if [[ $# -eq 0 ]]; then
  set -- reproduce all
fi
exec "$root/build/release/lbmc" "$@"
