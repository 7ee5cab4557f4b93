#!/bin/sh
# tests/setup: a newcomer's two commands. `make demo` and `make test` each
# install what they need first (tests/install-deps.sh, once: a stamp under
# the build directory), the README's Setup promises exactly those two
# commands, and CI runs the test targets. Uses `make -n` on an empty build
# directory: what a fresh clone would run, without running it.
# Prints one line "setup: N passed, N failed"; exits non-zero on failure.
set -u
cd "$(dirname "$0")/../.." || exit 2
pass=0
fail=0
T=$(mktemp -d "${TMPDIR:-/tmp}/ascend-setup.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

ok() { pass=$((pass + 1)); }
bad() {
  fail=$((fail + 1))
  echo "FAIL setup/$1: $2"
}

# The line number of the first line matching a pattern (0 when none).
first() { # file pattern
  n=$(grep -n -m 1 -E "$2" "$1" | cut -d: -f1)
  echo "${n:-0}"
}

# On a fresh build directory, TARGET installs the dependencies before it
# compiles or fetches anything.
fresh_target() { # target
  make -n --no-print-directory "$1" BUILD="$T/fresh-$1" >"$T/$1.n" 2>&1
  deps=$(first "$T/$1.n" '^sh tests/install-deps.sh$')
  cc=$(first "$T/$1.n" ' -c -o |fetch-grammars')
  if [ "$deps" -eq 0 ]; then
    bad "fresh-$1" "make $1 on a fresh build directory does not run tests/install-deps.sh: $(head -n 5 "$T/$1.n")"
  elif [ "$cc" -ne 0 ] && [ "$cc" -lt "$deps" ]; then
    bad "fresh-$1" "make $1 compiles (line $cc) before it installs the dependencies (line $deps)"
  else
    ok
  fi
}
fresh_target demo
fresh_target test

# Once the stamp is there (and newer than the script and the lockfiles), the
# dependencies are not looked at again.
mkdir -p "$T/fresh-demo"
touch "$T/fresh-demo/.deps-installed"
make -n --no-print-directory demo BUILD="$T/fresh-demo" >"$T/again.n" 2>&1
if grep -q 'install-deps' "$T/again.n"; then bad second-run "the second make demo installs again: $(head -n 3 "$T/again.n")"; else ok; fi

# A changed lockfile (older stamp) installs again.
touch -d '2000-01-01' "$T/fresh-demo/.deps-installed"
make -n --no-print-directory demo BUILD="$T/fresh-demo" >"$T/changed.n" 2>&1
if grep -q '^sh tests/install-deps.sh$' "$T/changed.n"; then ok; else bad lockfile-changed "an older stamp does not install again"; fi

# README: the Setup section's commands are exactly make demo and make test.
sed -n '/^## Setup/,/^## /p' README.md | sed -n '/^```sh$/,/^```$/p' | grep -v '^```' |
  sed 's/ *#.*//' | grep -v '^$' >"$T/setup.cmds"
printf 'make demo\nmake test\n' >"$T/setup.want"
if cmp -s "$T/setup.cmds" "$T/setup.want"; then ok; else bad readme "README Setup commands: $(tr '\n' ';' <"$T/setup.cmds") (want: make demo; make test)"; fi

# CI runs the whole suite and the end-to-end suite.
if grep -qx 'make test' .ci/run && grep -qx 'make test-e2e' .ci/run; then ok; else bad ci "'.ci/run' must run make test and make test-e2e"; fi

echo "setup: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
