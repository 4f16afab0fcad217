#!/usr/bin/env bash
# The quick start's first command: installs what is missing, builds everything, and runs the
# bundled Counter example (the seeds' reactor, its text view, and a stubbed view test) on a
# test clock.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh
swift build --build-tests
swift test --skip-build --filter 'CoreTests.Counter'
