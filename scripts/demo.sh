#!/usr/bin/env bash
# The quick start's first command. Installs what is missing, builds reactor-trace, and runs the
# whole loop on every example reactor: records its trace from the script in Traces/, replays
# the trace against the reactor (through reduce, and by re-sending its actions on a test
# clock), renders its transition diagram and timeline as SVG and its inspector page as HTML,
# and ends with a summary.
# Everything it writes goes to out/.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh
swift build --product reactor-trace
bin="$(swift build --product reactor-trace --show-bin-path)/reactor-trace"

rm -rf out
mkdir -p out/traces
failures=0
summary=()
for script in Traces/*.actions.jsonl; do
  name="$(basename "$script" .actions.jsonl)"
  trace="out/traces/$name.trace.jsonl"
  echo
  echo "== $name ($script)"

  if recorded="$("$bin" record --actions "$script" -o "$trace" 2>&1)"; then
    echo "record: $recorded"
    if cmp -s "$trace" "Traces/$name.trace.jsonl"; then
      same="identical to Traces/$name.trace.jsonl"
    else
      same="DIFFERS from Traces/$name.trace.jsonl (re-record it on purpose)"
      failures=$((failures + 1))
    fi
    echo "        $same"
  else
    echo "record failed: $recorded"
    failures=$((failures + 1))
    summary+=("$(printf '  %-14s record FAILED' "$name")")
    continue
  fi
  screen="$(printf '%s\n' "$recorded" | sed -n 's/^screen: //p')"

  results=()
  for mode in reduce mutate; do
    if output="$("$bin" replay "$trace" --mode "$mode" 2>&1)"; then
      results+=("match")
    else
      results+=("DIVERGED")
      failures=$((failures + 1))
    fi
    echo "replay --mode $mode: $output"
  done

  diagrams=()
  for kind in transitions timeline; do
    svg="out/$name-$kind.svg"
    if output="$("$bin" render "$kind" "$trace" -o "$svg" 2>&1)"; then
      diagrams+=("$svg")
    else
      diagrams+=("($kind failed)")
      failures=$((failures + 1))
    fi
    echo "render $kind: $output"
  done
  page="out/$name-inspector.html"
  if output="$("$bin" render inspector "$trace" -o "$page" 2>&1)"; then
    diagrams+=("$page")
  else
    diagrams+=("(inspector failed)")
    failures=$((failures + 1))
  fi
  echo "render inspector: $output"
  events="$(grep -c '"seq"' "$trace")"
  summary+=("$(printf '  %-14s %s events, %s\n  %-14s replay: reduce %s, mutate %s\n  %-14s screen: %s\n  %-14s drew:   %s' \
    "$name" "$events" "$same" "" "${results[0]}" "${results[1]}" "" "$screen" "" "${diagrams[*]}")")
done

# The task app's session (many reactors in one trace): recorded from the app's script
# (Traces/taskapp.script.jsonl, each tap addressed to a reactor by name or by a path through
# the list's state) through its registered session factory and checked against
# Traces/taskapp.session.jsonl; replayed structurally (every cause across reactors checked),
# its edit screen and a row through reduce, the whole app through mutate, and compared with
# itself.
session="out/traces/taskapp.session.jsonl"
echo
echo "== taskapp session (Traces/taskapp.script.jsonl)"
if recorded="$("$bin" record --actions Traces/taskapp.script.jsonl -o "$session" 2>&1)"; then
  echo "record: $recorded"
  if cmp -s "$session" Traces/taskapp.session.jsonl; then
    session_same="identical to Traces/taskapp.session.jsonl"
  else
    session_same="DIFFERS from Traces/taskapp.session.jsonl (re-record it on purpose)"
    failures=$((failures + 1))
  fi
else
  echo "record failed: $recorded"
  session_same="record FAILED; the committed session is used"
  failures=$((failures + 1))
  session="Traces/taskapp.session.jsonl"
fi
echo "        $session_same"
session_results=()
for arguments in "" "--reactor-id 2" "--reactor-id 3" "--mode mutate" \
  "--mode mutate --effects recorded"; do
  # shellcheck disable=SC2086
  if output="$("$bin" replay "$session" $arguments 2>&1)"; then
    session_results+=("match")
  else
    session_results+=("DIVERGED")
    failures=$((failures + 1))
  fi
  echo "replay ${arguments:-(structural)}: $output"
done
if output="$("$bin" diff "$session" "$session" 2>&1)"; then
  echo "diff: $output"
else
  echo "diff: $output"
  failures=$((failures + 1))
fi
# Seeing the session: a sequence diagram, a timeline with a lane group per reactor, one state
# machine per reactor type, and the inspector with every reactor's state.
session_views=()
for view in sequence timeline transitions; do
  if "$bin" render "$view" "$session" -o "out/taskapp-$view.svg" >/dev/null 2>&1; then
    session_views+=("out/taskapp-$view.svg")
  else
    echo "render $view: FAILED"
    failures=$((failures + 1))
  fi
done
if "$bin" render inspector "$session" -o out/taskapp-inspector.html >/dev/null 2>&1; then
  session_views+=("out/taskapp-inspector.html")
else
  echo "render inspector: FAILED"
  failures=$((failures + 1))
fi
summary+=("$(printf '  %-14s %s reactors, %s events, %s\n  %-14s replay: structural %s, edit screen (reduce) %s, a row (reduce) %s, whole app (mutate) %s, whole app with effects played back %s\n  %-14s drew:   %s' \
  "taskapp" "$(grep -c '"kind":"reactor"' "$session")" "$(grep -c '"seq"' "$session")" \
  "$session_same" "" \
  "${session_results[0]}" "${session_results[1]}" "${session_results[2]}" \
  "${session_results[3]}" "${session_results[4]}" "" "${session_views[*]}")")

# One example live: `serve` in the background, the Counter example app streaming to it, and
# the kept stream replayed like any trace. (Open the printed page while it runs to watch; run
# `reactor-trace serve` yourself to keep it open.)
echo
echo "== live (reactor-trace serve + reactor-trace-live-example)"
swift build --product reactor-trace-live-example
swift build --product reactor-trace-serve
app="$(swift build --product reactor-trace-live-example --show-bin-path)/reactor-trace-live-example"
"$bin" serve --port 0 --directory out/live >out/live-serve.out 2>out/live-serve.log &
serve_pid=$!
for _ in $(seq 300); do
  grep -q '^apps:' out/live-serve.out 2>/dev/null && break
  sleep 0.1
done
live_port="$(sed -n 's/^apps: .*port \([0-9]*\),.*/\1/p' out/live-serve.out)"
live_token="$(sed -n 's/^apps: .*token \(.*\)$/\1/p' out/live-serve.out)"
sed -n 's/^live page: /live page: /p' out/live-serve.out
if [ -n "$live_port" ] && report="$("$app" --port "$live_port" --token "$live_token" \
  --stream demo --actions 200 --rate 100 --app demo)"; then
  echo "app: $report"
  if output="$("$bin" replay out/live/demo.trace.jsonl 2>&1)"; then
    live_result="streamed to out/live/demo.trace.jsonl; replay: match"
  else
    live_result="replay of the kept stream DIVERGED"
    failures=$((failures + 1))
  fi
  echo "replay: $output"
  # The task app's whole session, every reactor of it, streamed live: the server keeps what
  # the file session recorder writes for the same run (its test's, Traces/taskapp.session.jsonl).
  if report="$("$app" --session taskapp --port "$live_port" --token "$live_token" \
    --stream demo-session)" && cmp -s out/live/demo-session.trace.jsonl "$session" &&
    output="$("$bin" replay out/live/demo-session.trace.jsonl 2>&1)"; then
    echo "app (session): $report"
    echo "replay: $output"
    live_result="$live_result; the task app's session streamed to out/live/demo-session.trace.jsonl, the same bytes as $session"
  else
    live_result="$live_result; the task app's session stream FAILED (see out/live-serve.log)"
    failures=$((failures + 1))
  fi
else
  live_result="FAILED (see out/live-serve.log)"
  failures=$((failures + 1))
fi
kill "$serve_pid" 2>/dev/null || true
wait "$serve_pid" 2>/dev/null || true
summary+=("$(printf '  %-14s %s' "live" "$live_result")")

echo
echo "Summary: each example's script in Traces/ recorded into out/traces/, the trace replayed"
echo "through reduce and through mutate (its actions re-sent on a test clock), the final screen"
echo "of a text view bound to the reactor, and the diagrams drawn:"
echo
printf '%s\n\n' "${summary[@]}"
if [ "$failures" -eq 0 ]; then
  echo "All ${#summary[@]} examples recorded, replayed with a match, and drawn. Open the SVGs and"
  echo "the inspector pages (out/*-inspector.html, in any browser) in out/."
else
  echo "$failures step(s) failed; see above."
  exit 1
fi
