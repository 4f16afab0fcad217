#!/usr/bin/env bash
# The quick start's first command: installs what is missing, builds reactor-trace, and runs it
# on every bundled trace in Traces/: replays each against today's reactor code, and renders
# its transition diagram and timeline as SVG into out/.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh
swift build --product reactor-trace
bin="$(swift build --product reactor-trace --show-bin-path)/reactor-trace"

mkdir -p out
replayed=0
diverged=0
echo
echo "reactor-trace on the bundled traces"
for trace in Traces/*.trace.jsonl; do
  name="$(basename "$trace" .trace.jsonl)"
  echo
  echo "== $trace"
  if "$bin" replay "$trace"; then
    replayed=$((replayed + 1))
  else
    diverged=$((diverged + 1))
  fi
  "$bin" render transitions "$trace" -o "out/$name-transitions.svg"
  "$bin" render timeline "$trace" -o "out/$name-timeline.svg"
done

echo
echo "Summary: $replayed trace(s) replayed with a match, $diverged diverged; diagrams in out/:"
ls -1 out/*.svg | sed 's/^/  /'
[ "$diverged" -eq 0 ]
