#!/usr/bin/env bash
# Fuzzes the trace reader, structural replay (with a session mutator: every one-reference
# change of an accepted session or trace that names the future must be refused), `shrink`'s
# inputs (a session's script reads back, conditions read back, a spelled invariant holds, the
# shrinker's result meets its condition and is 1-minimal: Fuzz/ShrinkFuzz.swift), `compare`'s
# inputs (summary lines compared: a side with itself shows no change, swapping sides swaps
# added and removed, JSON, report and change diagrams clean: Fuzz/CompareFuzz.swift), the Perfetto writer (whole and streamed, on
# traces and sessions), the sequence diagram (DOT and Mermaid), session timeline and per-type
# transitions of a session, the OTLP writer, the live server's command bodies
# (Fuzz/CommandFuzz.swift), the fleet's summary line reader, the action-script reader and the test
# generator's value writer (string literals, enum cases, identifiers from file names) with
# libFuzzer for SECONDS (default 60), starting from the sample traces and sessions in Traces/,
# the action scripts beside them and the fleet model's summary lines. Exits non-zero on any
# finding (a crash, trap,
# sanitizer report, leak or timeout), whose input is left in .build-fuzz/findings/.
#
#   scripts/fuzz.sh 60          # what CI runs
#   scripts/fuzz.sh 3600        # longer; the corpus in .build-fuzz/corpus grows across runs
#   FUZZ_JOBS=2 scripts/fuzz.sh 3600   # several processes in parallel
#   FUZZ_TIMEOUT=30 scripts/fuzz.sh 1800   # a longer limit for one input (default 10 s), on a
#                                          # machine busy with other work
#
# Our modules are compiled with swiftc -sanitize=fuzzer,address here, outside the package's
# build graph, so `swift build` and `swift test` never compile the fuzz target. The
# third-party modules replay needs (CustomDump, IssueReporting) come from a normal
# `swift build` of the package, uninstrumented, as do those of ReactorScript (Clocks,
# ConcurrencyExtras), which test generation imports.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
jobs="${FUZZ_JOBS:-1}"
timeout="${FUZZ_TIMEOUT:-10}"
out=.build-fuzz
mkdir -p "$out/modules" "$out/corpus" "$out/findings"

# The dependencies of ReactorReplay and ReactorScript, built as usual.
swift build --target ReactorReplay >/dev/null
swift build --target ReactorScript >/dev/null
deps=.build/debug
third_party_objects=("$deps"/CustomDump.build/*.o "$deps"/IssueReporting.build/*.o
  "$deps"/Clocks.build/*.o "$deps"/ConcurrencyExtras.build/*.o)

flags=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -Onone -g -package-name reactor_trace
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility
  -I "$out/modules" -I "$deps/Modules"
  # The system libraries' module maps (Graphviz for ReactorDiagrams, zlib for ReactorFleet).
  -I Sources/CGraphviz -I Sources/CZlib $(pkg-config --cflags-only-I libgvc zlib | sed 's/-I/-Xcc -I/g'))

echo "fuzz: compiling ReactorCore, ReactorJSON, ReactorSchema, ReactorTracing, ReactorReplay, ReactorExport, ReactorScript, ReactorLiveRecording, ReactorTestGeneration, ReactorStateMachines, ReactorDiagrams, ReactorExploration, ReactorFleet, ReactorShrinking, ReactorComparison and the fuzz target"
libraries=()
for module in ReactorCore ReactorJSON ReactorSchema ReactorTracing ReactorReplay ReactorExport \
  ReactorScript ReactorLiveRecording ReactorTestGeneration ReactorStateMachines ReactorDiagrams ReactorExploration \
  ReactorFleet ReactorShrinking ReactorComparison; do
  mapfile -t sources < <(find "Sources/$module" -name '*.swift' | sort)
  swiftc "${flags[@]}" -module-name "$module" -emit-library -static \
    -emit-module -emit-module-path "$out/modules/$module.swiftmodule" \
    "${sources[@]}" -o "$out/lib$module.a"
  libraries=("$out/lib$module.a" "${libraries[@]}")
done
# (ld.gold warns about every ASan helper it cannot export; they are not ours to fix.)
swiftc "${flags[@]}" -module-name ReactorTraceFuzz Fuzz/*.swift \
  "${libraries[@]}" "${third_party_objects[@]}" -o "$out/reactor-trace-fuzz" 2>&1 |
  { grep -v "Cannot export local symbol" || true; }

# The seed corpus: the sample traces, sessions, action and app scripts, the fleet model's
# summary lines, and Fuzz/corpus (valid sessions and scripts of generated app scripts and
# the summary lines of two sets of them: see Fuzz/corpus/README.md), added to what earlier
# runs found.
cp Traces/*.trace.jsonl Traces/*.session.jsonl Traces/*.actions.jsonl Traces/*.script.jsonl \
  Tests/Fixtures/*.trace.jsonl Fuzz/corpus/*.jsonl "$out/corpus/"
cp fleet/model.summary.jsonl "$out/corpus/model.summary.jsonl"

echo "fuzz: running for ${seconds}s"
parallel=()
# Several processes write their logs to fuzz-N.log, in .build-fuzz.
[[ "$jobs" -gt 1 ]] && parallel=(-jobs="$jobs" -workers="$jobs")
# No Swift backtracer: a trap must end the process at once, as libFuzzer expects.
root="$PWD"
(cd "$out" && SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1 ./reactor-trace-fuzz \
  -max_total_time="$seconds" -max_len=65536 -timeout="$timeout" -rss_limit_mb=2048 \
  -dict="$root/Fuzz/trace.dict" "${parallel[@]}" \
  -artifact_prefix=findings/ -print_final_stats=1 corpus)
echo "fuzz: no finding in ${seconds}s"
