#!/usr/bin/env bash
# Builds the fuzz preset (build/fuzz: clang, libFuzzer with AddressSanitizer
# and UndefinedBehaviorSanitizer) and runs each fuzz target for SECONDS:
#   scripts/fuzz.sh SECONDS [TARGET...]   (default: every target of fuzz/)
# A target starts from its seeds (fuzz/corpus/TARGET), copied into
# build/fuzz/corpus/TARGET, where it also keeps what it finds, so the
# repository is never written. A crash, a hang (10 s), a leak or more than
# 2 GiB of memory fails the script; the input that did it is left in
# build/fuzz/artifacts/TARGET/ and libFuzzer's log in build/fuzz/logs/.
# Replay one with build/fuzz/fuzz_TARGET FILE.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ $# -lt 1 || ! $1 =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh SECONDS [TARGET...]" >&2
  exit 2
fi
seconds=$1
shift
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  for dir in "$root"/fuzz/corpus/*/; do targets+=("$(basename "$dir")"); done
fi
"$root/scripts/setup.sh"
cd "$root"
cmake --preset fuzz >/dev/null
cmake --build build/fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
failed=()
for target in "${targets[@]}"; do
  # Absolute paths: the command_line target works in a scratch folder.
  corpus=$root/build/fuzz/corpus/$target
  artifacts=$root/build/fuzz/artifacts/$target
  log=$root/build/fuzz/logs/$target.log
  mkdir -p "$corpus" "$artifacts" "$root/build/fuzz/logs"
  cp -n "$root/fuzz/corpus/$target"/* "$corpus"/
  # -close_fd_mask=3: the target's stdout and stderr (help texts, error
  # lines) are dropped; libFuzzer and the sanitizers report on a copy.
  if "build/fuzz/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
      -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1; then
    echo "fuzz $target: $(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)"
  else
    echo "fuzz $target: FAILED (log $log, input in $artifacts/)" >&2
    tail -n 40 "$log" >&2
    failed+=("$target")
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: ${failed[*]} failed" >&2
  exit 1
fi
