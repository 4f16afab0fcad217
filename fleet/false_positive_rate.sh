#!/usr/bin/env bash
# How often `reactor-trace compare` cries wolf: PAIRS pairs of fleets drawn from one
# distribution (every device on 3.1.4, different seeds), each compared; prints how many pairs
# had any finding (exit 1). Issue 42's goal: at most 5 of 100 at the default alpha.
#
#   fleet/false_positive_rate.sh .build/release/reactor-trace [PAIRS] [DEVICES]
set -uo pipefail
cd "$(dirname "$0")/.."
tool="$1"
pairs="${2:-100}"
devices="${3:-1000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
any=0
for i in $(seq 1 "$pairs"); do
  rm -rf "$work/a" "$work/b"
  python3 fleet/generate_fleet.py --seed $((1000 + i)) --count "$devices" --version 3.1.4 \
    --out "$work/a" >/dev/null
  python3 fleet/generate_fleet.py --seed $((5000 + i)) --count "$devices" --version 3.1.4 \
    --out "$work/b" >/dev/null
  "$tool" compare "$work/a" "$work/b" >"$work/out.txt" 2>&1
  status=$?
  if [ "$status" -eq 1 ]; then any=$((any + 1)); fi
  if [ "$status" -eq 2 ]; then cat "$work/out.txt" >&2; exit 2; fi
done
echo "pairs with any finding: $any of $pairs"
