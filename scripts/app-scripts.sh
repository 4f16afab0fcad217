#!/usr/bin/env bash
# Issue 40's property of valid app scripts, at scale: COUNT (default 1000) generated valid
# scripts of the example apps (half the task app, half the todo app), each of which
#   1. records the same bytes twice, replays structurally and through mutate (effects run and
#      played back) without a divergence, and records again (`rerecord`) byte for byte: in
#      process, AppScriptPropertyTests with REACTOR_TRACE_APP_SCRIPTS=COUNT, which keeps each
#      valid script and its session;
#   2. replays as a corpus through the command-line tool (`replay FOLDER --jobs 2`) in every
#      mode: structural, reduce, mutate, mutate with effects played back;
#   3. recorded by two `reactor-trace record` processes at the same time gives the same bytes
#      twice, the bytes of step 1 ("two runs at once");
# and a sample of SAMPLE (default 100) of them
#   4. gives a generated test (`generate-test`, one file per app holding every sampled
#      session) that compiles: one `swiftc -typecheck` against the built modules.
# Exits non-zero on the first property that does not hold. Needs a debug build with tests
# (`swift build --build-tests`), which it makes.
#
#   scripts/app-scripts.sh              # 1,000 scripts, 100 sampled
#   scripts/app-scripts.sh 200 20
set -euo pipefail
cd "$(dirname "$0")/.."

count="${1:-1000}"
sample="${2:-100}"
out="$PWD/.build/app-scripts"
bin=.build/debug/reactor-trace
rm -rf "$out"
mkdir -p "$out/scripts" "$out/twice" "$out/tests"
# APP_SCRIPTS_SKIP_BUILD=1: use the build there is, and run its test binary directly (beside
# another `swift test` of the same build, which holds SwiftPM's lock).
property=(swift test --skip-build --filter AppScriptPropertyTests)
if [[ -n "${APP_SCRIPTS_SKIP_BUILD:-}" ]]; then
  property=(.build/debug/reactor-tracePackageTests.xctest --testing-library swift-testing
    --filter AppScriptPropertyTests)
else
  swift build --build-tests 2>&1 | grep -E "error|warning: " || true
fi
start=$SECONDS

echo "app-scripts: 1. $count distinct valid scripts in process (record twice, structural, mutate, rerecord)"
REACTOR_TRACE_APP_SCRIPTS="$count" REACTOR_TRACE_APP_SCRIPTS_DIR="$out/scripts" \
  "${property[@]}" >"$out/property.log" 2>&1 ||
  { tail -40 "$out/property.log"; exit 1; }
valid=$(find "$out/scripts" -name '*.script.jsonl' | wc -l)
distinct=$(for f in "$out"/scripts/*.script.jsonl; do md5sum <"$f"; done | sort -u | wc -l)
echo "app-scripts: $valid valid scripts, $distinct distinct ($((SECONDS - start)) s)"
[[ "$valid" -ge "$count" ]] || { echo "app-scripts: only $valid valid scripts" >&2; exit 1; }

echo "app-scripts: 2. every session replayed as a corpus, in every mode"
for mode in "auto" "structural" "mutate" "mutate --effects recorded"; do
  # shellcheck disable=SC2086
  "$bin" replay "$out/scripts" --mode $mode --jobs 2 --junit "$out/replay.xml" >"$out/replay.log" ||
    { grep -v '^PASS ' "$out/replay.log" | head -20; exit 1; }
  echo "app-scripts:    $mode: $(tail -1 "$out/replay.log") ($((SECONDS - start)) s)"
done

echo "app-scripts: 3. every script recorded by two processes at once"
mapfile -t scripts < <(find "$out/scripts" -name '*.script.jsonl' | sort -V)
for script in "${scripts[@]}"; do
  name=$(basename "$script" .script.jsonl)
  "$bin" record --actions "$script" -o "$out/twice/$name.a.session.jsonl" >/dev/null &
  first=$!
  "$bin" record --actions "$script" -o "$out/twice/$name.b.session.jsonl" >/dev/null &
  second=$!
  wait "$first"
  wait "$second"
  for copy in a b; do
    cmp -s "$out/twice/$name.$copy.session.jsonl" "${script%.script.jsonl}.session.jsonl" || {
      echo "app-scripts: $script recorded at the same time as another run gives other bytes" >&2
      exit 1
    }
  done
  rm "$out/twice/$name".?.session.jsonl
done
echo "app-scripts:    ${#scripts[@]} scripts, 2 runs each at once: identical ($((SECONDS - start)) s)"

step=$(((${#scripts[@]} + sample - 1) / sample))
sampled=()
for ((i = 0; i < ${#scripts[@]}; i += step)); do sampled+=("${scripts[$i]}"); done
echo "app-scripts: 4. generated tests of ${#sampled[@]} sampled sessions compile"
for app in taskapp todoapp; do
  sessions=()
  for script in "${sampled[@]}"; do
    [[ "$(basename "$script")" == "$app"-* ]] && sessions+=("${script%.script.jsonl}.session.jsonl")
  done
  [[ ${#sessions[@]} -gt 0 ]] || continue
  "$bin" generate-test "${sessions[@]}" --suite-name "Generated${app}Tests" \
    -o "$out/tests/$app.swift" >/dev/null
done
swiftc -typecheck -swift-version 6 -I .build/debug/Modules "$out"/tests/*.swift
echo "app-scripts:    $(cat "$out"/tests/*.swift | grep -c '@Test') generated tests typecheck ($((SECONDS - start)) s)"
echo "app-scripts: every property holds ($((SECONDS - start)) s)"
