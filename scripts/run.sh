#!/usr/bin/env bash
# Sets up, builds (Release) and runs lbmc with the given arguments. With none,
# the main job: `lbmc reproduce all` (results/<paper>/claims.*, SUMMARY.md,
# ERRATA.md), the plots of results/plots/, and the errata list of README.md,
# which is copied from results/ERRATA.md.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
cd "$root"
if [[ $# -gt 0 ]]; then
  exec "$root/build/release/lbmc" "$@"
fi
"$root/build/release/lbmc" reproduce all --out "$root/results" >/dev/null
"$root/scripts/plots.sh"
# README's verdict counts (the first table of SUMMARY.md, its links made
# relative to the repository) and errata list, each between its markers.
sed -n '/^| paper |/,/^$/p' "$root/results/SUMMARY.md" | sed '/^$/d; s/](\([a-z0-9-]*\)\/claims.md)/](results\/\1\/claims.md)/' \
  >"$root/results/.summary_table"
awk -v summary="$root/results/.summary_table" -v errata="$root/results/ERRATA.md" '
  /^<!-- (summary|errata):end -->$/ { skipping = 0 }
  !skipping { print }
  /^<!-- summary:begin -->$/ { while ((getline line < summary) > 0) print line; skipping = 1 }
  /^<!-- errata:begin -->$/ { while ((getline line < errata) > 0) print line; skipping = 1 }
' README.md >README.md.tmp
mv README.md.tmp README.md
rm "$root/results/.summary_table"
echo "run: results/ and README.md's verdict counts and errata regenerated" >&2
