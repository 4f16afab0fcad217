#!/usr/bin/env bash
# Runs every command of a reactor-trace binary over every single-reactor trace (Traces/ and
# Tests/Fixtures/) and writes what each printed, its exit code and the files it wrote into OUT,
# one folder per run. Two binaries' folders compare with `diff -r`: the check that a change keeps
# every output of today's single-reactor traces byte-identical.
#
#   scripts/outputs.sh .build/debug/reactor-trace /tmp/after
#   diff -r /tmp/before /tmp/after
set -uo pipefail
cd "$(dirname "$0")/.."
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
out="$2"
rm -rf "$out"
mkdir -p "$out"

# run NAME ARGS…: runs the binary in a folder of its own, which keeps the files it writes.
run() {
  local name="$1"
  shift
  local dir="$out/$name"
  mkdir -p "$dir"
  (cd "$dir" && "$bin" "$@" >stdout 2>stderr; echo $? >exit)
  # Paths of this machine's temporary folders and the working tree are not outputs.
  sed -i "s#$PWD#ROOT#g" "$dir/stdout" "$dir/stderr"
}

traces=(Traces/*.trace.jsonl Tests/Fixtures/*.trace.jsonl)
for trace in "${traces[@]}"; do
  t="$PWD/$trace"
  n="$(basename "$trace" .trace.jsonl)-$(basename "$(dirname "$trace")")"
  for mode in structural reduce mutate; do
    run "$n/replay-$mode" replay "$t" --mode "$mode"
    run "$n/replay-$mode-json" replay "$t" --mode "$mode" --json
  done
  run "$n/replay-mutate-recorded" replay "$t" --mode mutate --effects recorded
  run "$n/replay-steps" replay "$t" --steps
  run "$n/replay-state-at" replay "$t" --state-at 3
  run "$n/diff-self" diff "$t" "$t"
  run "$n/diff-self-json" diff "$t" "$t" --json
  run "$n/transitions-dot" render transitions "$t" -o t.dot
  run "$n/transitions-mmd" render transitions "$t" -o t.mmd
  run "$n/transitions-whole" render transitions "$t" --whole-state -o t.dot
  run "$n/timeline-dot" render timeline "$t" -o t.dot
  run "$n/timeline-pages" render timeline "$t" --page-size 5 -o t.dot
  run "$n/sequence-dot" render sequence "$t" -o t.dot
  run "$n/sequence-mmd" render sequence "$t" -o t.mmd
  run "$n/inspector" render inspector "$t" -o i.html
  run "$n/perfetto" render perfetto "$t" -o p.json
  run "$n/otlp" render otlp "$t" -o o.jsonl
  run "$n/generate-test" generate-test "$t"
  run "$n/generate-test-xctest" generate-test "$t" --xctest --final-state
  run "$n/summarize" summarize "$t" -o -
  run "$n/coverage" coverage "$t" --max-states 200 --json
done
# Pairs: diffs between different traces, and every trace summarized and drawn together.
run pairs/diff-counter-profile diff "$PWD/Traces/counter.trace.jsonl" "$PWD/Traces/profile.trace.jsonl"
run pairs/diff-tasklist-itemlist diff "$PWD/Traces/tasklist.trace.jsonl" "$PWD/Tests/Fixtures/itemlist.trace.jsonl" --json
run pairs/summarize-merge summarize "$PWD/Traces" --merge -o -
for reactor in ReactorExamples.CounterReactor ReactorExamples.TaskListReactor; do
  run "explore/$reactor" explore "$reactor" --max-states 200 --graph g.dot
done
# The whole-app session: not bound to stay byte-identical, but a change to it should be one
# that was meant.
s="$PWD/Traces/taskapp.session.jsonl"
for mode in structural reduce mutate; do run "session/replay-$mode" replay "$s" --mode "$mode"; done
run session/replay-mutate-recorded replay "$s" --mode mutate --effects recorded
run session/diff-self diff "$s" "$s" --json
run session/transitions render transitions "$s" -o t.dot
run session/timeline render timeline "$s" -o t.dot
run session/sequence render sequence "$s" -o t.mmd
run session/inspector render inspector "$s" -o i.html
run session/perfetto render perfetto "$s" -o p.json
run session/otlp render otlp "$s" -o o.jsonl
run session/generate-test generate-test "$s"
run session/summarize summarize "$s" -o -
echo "outputs of $(find "$out" -name exit | wc -l) runs in $out"
