#!/usr/bin/env bash
# Builds the asan preset (build/asan, flags in CMakePresets.json: AddressSanitizer
# and UndefinedBehaviorSanitizer) and runs the `fast` tests under it; any
# sanitizer finding (memory error, leak, undefined behaviour) fails the test
# that ran into it. Arguments go to ctest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
cd "$root"
cmake --preset asan >/dev/null
cmake --build build/asan -j"$(nproc)" >/dev/null
# verify_asan_link_order=0: the CPU-independence tests preload a library
# ahead of the runtime (tests/support/x87_perturb.cpp).
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:print_stacktrace=1:verify_asan_link_order=0
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
ctest --preset asan -j"$(nproc)" "$@"
