#!/bin/sh
# Operator coverage (ASC219-ASC223) on tests/fixtures/coverage for each
# chip and several torch_npu versions. cases/NAME.args holds the `check`
# arguments (one line; the fixture path is added); NAME.out is the exact
# stdout, NAME.err the exact stderr (the version notice) and NAME.rc the exit
# status. UPDATE=1 rewrites them. Prints "coverage: N passed, N failed".
set -u
BIN=${BIN:-build/ascend-lsp}
D=tests/coverage
FIXTURE=tests/fixtures/coverage
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for a in "$D"/cases/*.args; do
  name=${a%.args}
  # shellcheck disable=SC2046
  "$BIN" check $(cat "$a") "$FIXTURE" >"$tmp/out" 2>"$tmp/err"
  echo $? >"$tmp/rc"
  if [ "${UPDATE:-0}" = 1 ]; then
    cp "$tmp/out" "$name.out"
    cp "$tmp/err" "$name.err"
    cp "$tmp/rc" "$name.rc"
  fi
  if diff -u "$name.out" "$tmp/out" >"$tmp/diff" && diff -u "$name.err" "$tmp/err" >>"$tmp/diff" &&
    diff -u "$name.rc" "$tmp/rc" >>"$tmp/diff"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL coverage/$(basename "$name")"
    head -40 "$tmp/diff"
  fi
done
echo "coverage: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
