#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer (with LeakSanitizer), then under
# ThreadSanitizer, each in its own build directory, then the libFuzzer targets under
# AddressSanitizer (scripts/fuzz.sh: the trace reader, structural replay, the Perfetto
# writer, the action-script reader and the test generator's value writer) for FUZZ_SECONDS
# (default 60), and prints how long each took.
#
#   scripts/sanitize.sh            # all three
#   scripts/sanitize.sh address    # one of them
#   scripts/sanitize.sh thread
#   FUZZ_SECONDS=600 scripts/sanitize.sh fuzz
#
# Not part of CI: each builds the package from scratch the first time (several minutes).
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizers=("${@:-address}")
[[ $# -eq 0 ]] && sanitizers=(address thread fuzz)

for sanitizer in "${sanitizers[@]}"; do
  case "$sanitizer" in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    fuzz)
      start=$(date +%s)
      echo "sanitize: fuzzing under the address sanitizer for ${FUZZ_SECONDS:-60} s"
      scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
      echo "sanitize: fuzz passed in $(($(date +%s) - start)) s"
      continue
      ;;
    *) echo "sanitize.sh: unknown sanitizer '$sanitizer'; use address, thread or fuzz" >&2; exit 64 ;;
  esac
  start=$(date +%s)
  echo "sanitize: building and testing under the ${sanitizer} sanitizer in ${scratch}"
  # Leaks are reported only for our code: scripts/lsan.supp lists the third-party ones.
  # halt_on_error: any report fails the run, not only the test that triggered it.
  SWIFT_BACKTRACE=enable=no \
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 \
    LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0" \
    TSAN_OPTIONS=halt_on_error=1 \
    swift test --sanitize="$sanitizer" --scratch-path "$scratch"
  echo "sanitize: ${sanitizer} passed in $(($(date +%s) - start)) s"
done
