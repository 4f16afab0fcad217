#!/usr/bin/env bash
# Installs what reactor-trace needs beyond the Swift toolchain: Graphviz's C library (libgvc),
# found through pkg-config. Does nothing when it is already there.
set -euo pipefail

if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libgvc; then
  exit 0
fi

case "$(uname -s)" in
  Darwin)
    echo "error: Graphviz's library (libgvc) is missing. Install it with: brew install graphviz" >&2
    exit 1
    ;;
esac

if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: libgvc is missing and apt-get is not available; install Graphviz's development package (pkg-config libgvc) with your package manager" >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "error: installing libgraphviz-dev needs root; run: apt-get install -y libgraphviz-dev pkg-config" >&2
    exit 1
  fi
fi

echo "Installing libgraphviz-dev (Graphviz's C library) and pkg-config..."
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends libgraphviz-dev pkg-config >/dev/null
pkg-config --exists libgvc
echo "Installed libgvc $(pkg-config --modversion libgvc)."
