#!/usr/bin/env bash
# Writes the man pages of an lbmc binary into a folder, from the binary's own
# --help (help2man): lbmc.1 for the program and lbmc-COMMAND.1 for each
# command its --help lists. The build runs it (target `man`), so the pages
# always say what the binary does. Usage: scripts/man_pages.sh LBMC OUTDIR
set -euo pipefail
lbmc=$(realpath "$1")
out=$2
mkdir -p "$out"
version=$("$lbmc" --version)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

see_also="lbmc(1)"
commands=$("$lbmc" --help | awk '/^Subcommands:/ { listing = 1; next } listing && NF { print $1 }')
for command in $commands; do see_also+=", lbmc-$command(1)"; done
printf '[SEE ALSO]\n%s\n\nThe documentation of the source tree: README.md and docs/.\n' "$see_also" >"$work/see_also.h2m"

help2man --no-info --no-discard-stderr --version-string="$version" --include="$work/see_also.h2m" \
  --name="Monte Carlo statistics of parallel load balancing, checked against closed forms" \
  --output="$out/lbmc.1" "$lbmc"

for command in $commands; do
  # help2man names a page after the program it runs: a wrapper lbmc-COMMAND.
  wrapper="$work/lbmc-$command"
  printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$lbmc" "$command" >"$wrapper"
  chmod +x "$wrapper"
  summary=$("$lbmc" --help | awk -v c="$command" '$1 == c { $1 = ""; sub(/^ +/, ""); print; exit }')
  help2man --no-info --no-discard-stderr --version-string="lbmc-$command ${version#lbmc }" \
    --include="$work/see_also.h2m" --name="$summary" --output="$out/lbmc-$command.1" "$wrapper"
done
