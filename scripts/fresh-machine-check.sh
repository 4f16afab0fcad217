#!/usr/bin/env bash
# The fresh-machine check (issue 38): runs the README's two quick-start commands,
# `./scripts/demo.sh` then `swift test`, verbatim, in a new Debian bookworm root that holds only
# what a "Debian machine with the Swift 6.3 toolchain" has: a minimal Debian (debootstrap
# --variant=minbase), the libraries swift.org's Linux instructions install for the toolchain, and
# the toolchain itself, bind-mounted read-only from this machine. Nothing this machine installed
# by hand reaches the root, so a program or library a test needs and no set-up step installs
# fails here as it would on a new machine.
#
# The root gets this machine's network set-up, nothing more: its resolver, apt's and pip's
# configuration and certificate bundle, and git's rewrite of https://github.com/ to a local
# package mirror (with the mirror bind-mounted read-only), so package dependencies are fetched
# as they are for CI.
#
# Needs root, Linux, and debootstrap (installed with apt-get if missing). The clean build inside
# the root is the slow part: about 45 minutes on 2 shared cores (docs/scripts.md).
#
#   scripts/fresh-machine-check.sh [--rev REV] [--work DIR] [--keep] [--ci]
#
#   --rev REV   the commit to check (default: HEAD of this clone)
#   --work DIR  where the cached base root, the fresh root and the logs go
#               (default: /var/tmp/reactor-trace-fresh)
#   --keep      leave the fresh root after the run (default: removed when both commands pass)
#   --ci        then run CI (.ci/run) in the same root: its own install steps, swift test again
#               with the browser and MCP client tests required, pytest, lint, the fuzz target
#
# The base root (Debian plus the toolchain's libraries) is made once and kept in DIR/base; each
# run copies it to DIR/root, clones this repository there and runs the two commands as root
# with a clean environment. Exit 0 when both pass; otherwise 1, with the logs in DIR/logs.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

rev=HEAD
work=/var/tmp/reactor-trace-fresh
keep=0
ci=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rev) rev="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --ci) ci=1; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

if [ "$(uname -s)" != Linux ] || [ "$(id -u)" -ne 0 ]; then
  echo "error: the fresh-machine check needs Linux and root (it builds a chroot)" >&2
  exit 2
fi
commit="$(git rev-parse --verify "$rev^{commit}")"
swift_bin="$(command -v swift || true)"
if [ -z "$swift_bin" ]; then
  echo "error: no swift on the path; the check lends this machine's toolchain to the root" >&2
  exit 2
fi
# The toolchain's prefix: the directory holding usr/bin/swift (e.g. /opt/swift).
toolchain="$(dirname "$(dirname "$(dirname "$(readlink -f "$swift_bin")")")")"
mirror="$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)"
mirror="${mirror:-http://deb.debian.org/debian}"

base="$work/base"
root="$work/root"
logs="$work/logs"
mkdir -p "$work" "$logs"
started=$SECONDS
say() { printf '[fresh %4ds] %s\n' "$((SECONDS - started))" "$*"; }

mounts=()
unmount_all() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
  mounts=()
}
trap unmount_all EXIT
bind() { # bind SOURCE TARGET [ro]
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounts+=("$2")
  if [ "${3:-}" = ro ]; then mount -o remount,bind,ro "$2"; fi
}
mount_system() { # mount_system ROOT
  mkdir -p "$1/proc" "$1/dev" "$1/sys"
  mount -t proc proc "$1/proc"
  mounts+=("$1/proc")
  bind /dev "$1/dev"
  bind /dev/pts "$1/dev/pts"
  bind /sys "$1/sys" ro
}
in_root() { # in_root ROOT COMMAND...: a login-free clean environment, as a new machine's shell has
  nice chroot "$1" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH="$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    "${@:2}"
}
# This machine's network set-up (not its packages): resolver, apt and pip configuration, the
# certificate bundle they use (and its local certificates, which Debian's ca-certificates adds
# back whenever it rebuilds the bundle), and git's rewrite of GitHub URLs to the local package
# mirror.
copy_network_setup() { # copy_network_setup ROOT
  cp -L /etc/resolv.conf "$1/etc/resolv.conf"
  for file in /etc/apt/apt.conf.d/99artifact-registry /etc/pip.conf \
    /etc/ssl/certs/ca-certificates.crt /usr/local/share/ca-certificates/*.crt; do
    if [ -f "$file" ]; then
      mkdir -p "$1$(dirname "$file")"
      cp -L "$file" "$1$file"
    fi
  done
  rm -f "$1/etc/gitconfig"
  git config --system --get-regexp '^url\..*\.insteadof$' | while read -r key value; do
    git config --file "$1/etc/gitconfig" --add "$key" "$value"
  done
}

# 1. The base root: minimal Debian bookworm plus what swift.org's instructions install for the
#    toolchain on Debian 12 (https://www.swift.org/install/linux/tarball/, and the official
#    swift:debian12 image's list, which adds libstdc++-12-dev). Made once, then reused.
if [ ! -f "$base/.complete" ]; then
  if ! command -v debootstrap >/dev/null 2>&1; then
    say "installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  fi
  if [ ! -f "$base/.debootstrapped" ]; then
    rm -rf "$base"
    say "debootstrap --variant=minbase bookworm from $mirror (log: $logs/debootstrap.log)"
    nice debootstrap --variant=minbase bookworm "$base" "$mirror" >"$logs/debootstrap.log" 2>&1
    touch "$base/.debootstrapped"
  fi
  copy_network_setup "$base"
  cat >"$base/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${mirror%/debian}/debian-security bookworm-security main
EOF
  mount_system "$base"
  say "installing the toolchain's libraries (swift.org's Debian 12 list)"
  in_root "$base" /bin/sh -c 'export DEBIAN_FRONTEND=noninteractive
    apt-get -q update && apt-get -q install -y binutils-gold gcc git libcurl4-openssl-dev \
      libedit-dev libicu-dev libncurses-dev libpython3-dev libsqlite3-dev libstdc++-12-dev \
      libxml2-dev pkg-config tzdata uuid-dev && apt-get clean' >"$logs/base-apt.log" 2>&1
  unmount_all
  touch "$base/.complete"
fi

# 2. A fresh root from the base, with the toolchain and the package mirror lent read-only.
say "copying the base root to $root"
rm -rf "$root"
cp -a "$base" "$root"
rm -f "$root/.complete" "$root/.debootstrapped"
copy_network_setup "$root"
mount_system "$root"
bind "$toolchain" "$root$toolchain" ro
for dir in $(git config --system --get-regexp '^url\..*\.insteadof$' |
  sed -E 's/^url\.(.*)\.insteadof .*/\1/I' | sort -u); do
  if [ -d "$dir" ]; then bind "$dir" "$root$dir" ro; fi
done
in_root "$root" swift --version >"$logs/swift-version.txt" 2>&1 || {
  cat "$logs/swift-version.txt" >&2
  echo "error: the toolchain does not run in the fresh root" >&2
  exit 1
}

# 3. The project, cloned as a newcomer would, at the commit under test.
say "cloning $repo at ${commit:0:7}"
git clone -q --no-hardlinks "$repo" "$root/root/reactor-trace"
git -C "$root/root/reactor-trace" checkout -q "$commit"

# 4. The README's two commands, verbatim (then CI's script, with --ci).
commands=(./scripts/demo.sh "swift test")
if [ "$ci" -eq 1 ]; then commands+=(.ci/run); fi
status=0
for command in "${commands[@]}"; do
  log="$logs/$(echo "$command" | tr -c 'a-z\n' '-' | sed 's/^-*//').log"
  say "running: $command (log: $log)"
  begin=$SECONDS
  if in_root "$root" /bin/sh -c "cd /root/reactor-trace && $command" >"$log" 2>&1; then
    say "passed: $command ($((SECONDS - begin)) s)"
  else
    say "FAILED: $command ($((SECONDS - begin)) s); its last lines:"
    tail -n 40 "$log" | sed 's/^/    /'
    status=1
    break
  fi
done
if [ "$status" -eq 0 ]; then
  grep -E "Test run with|Executed [0-9]+ test" "$logs/swift-test.log" | tail -n 3 || true
  say "a fresh machine passes: ${commands[*]} succeeded at ${commit:0:7}"
fi

unmount_all
if [ "$status" -eq 0 ] && [ "$keep" -eq 0 ]; then rm -rf "$root"; fi
exit "$status"
