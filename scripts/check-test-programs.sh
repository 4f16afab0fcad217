#!/usr/bin/env bash
# Checks that every program the tests start is installed on a new machine by the README's set-up
# (scripts/bootstrap.sh, which ./scripts/demo.sh runs) or by .ci/run. A program installed by hand
# on the machine that runs CI would otherwise hide a missing install step (issue 38: the `dot`
# program was started by a test and installed by neither).
#
# It finds the programs in the tests' sources: a path given to Process (`/usr/bin/X`), the first
# argument of a program started through `/usr/bin/env` (`arguments = ["X"`, `run(["X"`), and
# `/usr/bin/X` in the Python drivers. Each must have a line in PROGRAMS below saying what installs
# it, and that must hold: a Debian package named in bootstrap.sh's or .ci/run's install lines, an
# essential Debian package (there on every Debian machine), or the Swift toolchain or its Python
# (the README's starting point). Exit 0 when all hold; otherwise one line per problem, exit 1.
#
#   scripts/check-test-programs.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# The fleet's pytest starts `java` through PySpark, which the scan below cannot see. The MCP
# client test starts python3 with the `mcp` package, which .ci/run installs with pip.
# program  what installs it: deb:PACKAGE (installed by bootstrap.sh or .ci/run),
#                            essential:PACKAGE (essential in Debian), toolchain
PROGRAMS="
env          essential:coreutils
true         essential:coreutils
timeout      essential:coreutils
ldd          essential:libc-bin
swiftc       toolchain
python3      toolchain
chromium     deb:chromium
chromedriver deb:chromium-driver
java         deb:openjdk-17-jre-headless
node         deb:nodejs
"

problems=()
declare -A known=()
while read -r program source; do
  [ -n "$program" ] && known[$program]="$source"
done <<<"$PROGRAMS"

# The programs the tests start, with the first place each is started: a path given to Process,
# the first argument of a process started through /usr/bin/env (its `arguments` within the next
# lines, or a `Self.run([...])` helper that does so), and /usr/bin paths in the Python drivers.
found="$(
  {
    grep -rnoE '(fileURLWithPath|atPath): "/(usr/)?s?bin/[A-Za-z0-9._-]+"' Tests --include='*.swift' |
      grep -v '/usr/bin/env"'
    grep -rnE -A3 'fileURLWithPath: "/usr/bin/env"' Tests --include='*.swift' |
      grep -oE '^[^:]+-[0-9]+-.*arguments = \["[A-Za-z0-9._-]+"' |
      sed -E 's#^([^:]+)-([0-9]+)-#\1:\2:#'
    grep -rnoE 'Self\.run\(\["[A-Za-z0-9._-]+"' Tests --include='*.swift'
    grep -rnoE '"/usr/bin/[A-Za-z0-9._-]+"' Tests --include='*.py'
  } | sed -E 's#^([^:]+:[0-9]+):.*["/]([A-Za-z0-9._-]+)"$#\2 \1#' | sort -u -k1,1
)"
while read -r program place; do
  [ -n "$program" ] || continue
  if [ -z "${known[$program]:-}" ]; then
    problems+=("tests start '$program' ($place), which has no line in scripts/check-test-programs.sh: install it in scripts/bootstrap.sh or .ci/run and add its line, or make the test not need it")
  fi
done <<<"$found"

installers="$(cat scripts/bootstrap.sh .ci/run)"
for program in "${!known[@]}"; do
  source="${known[$program]}"
  case "$source" in
    deb:*)
      package="${source#deb:}"
      if ! grep -E 'apt-get install' -A3 <<<"$installers" | grep -qw -- "$package"; then
        problems+=("'$program' comes from the Debian package $package, which neither scripts/bootstrap.sh nor .ci/run installs")
      fi
      ;;
    essential:*)
      package="${source#essential:}"
      if command -v dpkg-query >/dev/null 2>&1 &&
        [ "$(dpkg-query -W -f='${Essential}' "$package" 2>/dev/null)" != "yes" ]; then
        problems+=("'$program' is said to come from the essential package $package, which is not essential here")
      fi
      ;;
    toolchain)
      if ! command -v "$program" >/dev/null 2>&1; then
        problems+=("'$program' is said to come with the Swift toolchain's machine but is not on the path")
      fi
      ;;
    *) problems+=("'$program' has an unknown source '$source' in scripts/check-test-programs.sh") ;;
  esac
done

if [ ${#problems[@]} -gt 0 ]; then
  printf 'check-test-programs: %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "check-test-programs: the ${#known[@]} programs tests start are installed by the set-up or .ci/run, or come with the machine"
