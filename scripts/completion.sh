#!/usr/bin/env bash
# Writes the bash completion of an lbmc binary to stdout, from the binary's
# own --help: the commands, each command's options, and the law names after
# an option that takes a law (--dist, --r-dist, --u-dist); file names after
# the options that take a file. The build writes it (target `completion`)
# and install puts it where bash-completion finds it.
# Usage: scripts/completion.sh LBMC OUTFILE
set -euo pipefail
lbmc=$1
exec >"$2"
commands=$("$lbmc" --help | awk '/^Subcommands:/ { listing = 1; next } listing && NF { print $1 }')
laws=$("$lbmc" maxload --help |
  awk '/^Laws and their valid ranges/ { listing = 1; next } listing && /^  [a-z]+:/ { sub(/^ +/, ""); sub(/:.*/, ":"); print }')

echo "# bash completion of lbmc, written by scripts/completion.sh from lbmc --help"
echo "_lbmc() {"
echo '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} options'
echo "  if ((COMP_CWORD == 1)); then"
echo "    COMPREPLY=(\$(compgen -W \"$(echo $commands) --help --version\" -- \"\$cur\"))"
echo "    return"
echo "  fi"
echo '  case $prev in'
echo "    --dist | --r-dist | --u-dist)"
echo "      COMPREPLY=(\$(compgen -W \"$(echo $laws)\" -- \"\$cur\"))"
echo "      compopt -o nospace"
echo "      return ;;"
echo "    --csv | --json | --checkpoint | --times | --cov | --out)"
echo '      COMPREPLY=($(compgen -f -- "$cur"))'
echo "      return ;;"
echo "  esac"
echo '  case ${COMP_WORDS[1]} in'
for command in $commands; do
  options=$("$lbmc" "$command" --help | grep -oE '^ +(-[a-zA-Z],)?--[A-Za-z0-9-]+' | grep -oE -- '--[A-Za-z0-9-]+' | sort -u)
  echo "    $command) options=\"$(echo $options)\" ;;"
done
echo "    *) options= ;;"
echo "  esac"
echo '  COMPREPLY=($(compgen -W "$options" -- "$cur"))'
echo "}"
echo "complete -o default -F _lbmc lbmc"
