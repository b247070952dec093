#!/usr/bin/env bash
# Makes the Debian package of the Release tree (cpack -G DEB), installs it
# with apt-get, checks the installed lbmc (version, man pages, one run) and,
# where the build has it, the Python module (one run, and validate's cases
# with the installed binary), and removes it again. Needs root; CI runs it after scripts/test.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
cd "$root/build/release"
rm -f lbmc_*.deb
cpack -G DEB >/dev/null 2>&1
package=$(ls lbmc_*.deb)
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq "./$package" >/dev/null
trap 'apt-get remove -y -qq lbmc >/dev/null' EXIT
[[ $(command -v lbmc) == /usr/bin/lbmc ]]
lbmc --version
man -w lbmc lbmc-maxload lbmc-compare >/dev/null
[[ -e /usr/share/bash-completion/completions/lbmc ]]
csv=$(lbmc maxload --n 16 --reps 1e4 --seed 1 --quiet --csv -)
grep -q '^maxload,"normal:0,1",16,' <<<"$csv"
if [[ -e python/lbmc/__init__.py ]]; then
  (cd / && env -u PYTHONPATH /usr/bin/python3 -c '
import lbmc, lbmc._locations
assert lbmc.__file__.startswith("/usr/lib/python3/dist-packages/lbmc/"), lbmc.__file__
assert lbmc._locations.EXECUTABLE == "/usr/bin/lbmc", lbmc._locations.EXECUTABLE
assert len(lbmc.maxload(n=[16], reps=1e4, seed=1, quiet=True)) == 9
cases = lbmc.validate(quick=True, only="scatter", quiet=True)
assert (cases["exact_pass"] == cases["exact_checks"]).all()')
fi
apt-get remove -y -qq lbmc >/dev/null
trap - EXIT
if [[ -e /usr/bin/lbmc || -e /usr/lib/python3/dist-packages/lbmc ]]; then
  echo "package: lbmc still installed after removal" >&2
  exit 1
fi
echo "package: $package installs, runs and removes cleanly" >&2
