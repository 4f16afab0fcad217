#!/usr/bin/env bash
# Installs what reactor-trace and its tests need beyond the Swift toolchain (and the libraries
# swift.org's instructions install with it): Graphviz's C library (libgvc), found through
# pkg-config; Python 3, which runs the live server's hostile-client suite (Tests/Hostile,
# started by swift test); and Node, which a test of the MCP text filter runs to compare with
# the inspector's JavaScript. Does nothing when all are there.
# scripts/fresh-machine-check.sh checks that this is enough on a new Debian machine.
set -euo pipefail

missing=()
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libgvc; then
  missing+=(libgraphviz-dev pkg-config)
fi
if ! command -v python3 >/dev/null 2>&1; then missing+=(python3); fi
if ! command -v node >/dev/null 2>&1; then missing+=(nodejs); fi
[ ${#missing[@]} -eq 0 ] && exit 0

case "$(uname -s)" in
  Darwin)
    echo "error: Graphviz's library (libgvc), python3 or node is missing. Install them with: brew install graphviz python3 node" >&2
    exit 1
    ;;
esac

if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: ${missing[*]} missing and apt-get is not available; install Graphviz's development package (pkg-config libgvc), Python 3 and Node with your package manager" >&2
  exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "error: installing ${missing[*]} needs root; run: apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

echo "Installing ${missing[*]}..."
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
pkg-config --exists libgvc
command -v python3 node >/dev/null
echo "Installed: libgvc $(pkg-config --modversion libgvc), $(python3 --version), Node $(node --version)."
