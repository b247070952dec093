#!/usr/bin/env bash
# Sets up, builds (Release) and runs lbmc with the given arguments. With none,
# the main job: `lbmc reproduce all` (results/<paper>/claims.*, SUMMARY.md,
# ERRATA.md) and the plots of results/plots/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh" lbmc
cd "$root"
if [[ $# -gt 0 ]]; then
  exec "$root/build/release/lbmc" "$@"
fi
echo "run: lbmc reproduce all (about 1 min), then the plots' sweeps (about 4 min)" >&2
"$root/build/release/lbmc" reproduce all --out "$root/results" >/dev/null
"$root/scripts/plots.sh"
echo "run: results/ regenerated" >&2
