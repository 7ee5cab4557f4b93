#!/bin/sh
# Golden CLI tests: each tests/cli/cases/NAME.args holds the arguments (one
# line, paths relative to the repository root); NAME.out is the exact
# expected stdout and NAME.rc the exit code. UPDATE=1 rewrites the goldens.
set -u
BIN=${BIN:-build/ascend-lsp}
pass=0
fail=0
for a in tests/cli/cases/*.args; do
  name=${a%.args}
  args=$(cat "$a")
  out=$(mktemp)
  # shellcheck disable=SC2086
  "$BIN" $args >"$out" 2>/dev/null
  rc=$?
  if [ "${UPDATE:-0}" = 1 ]; then
    cp "$out" "$name.out"
    echo "$rc" >"$name.rc"
  fi
  if diff -u "$name.out" "$out" >/dev/null && [ "$rc" = "$(cat "$name.rc")" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL cli/$(basename "$name") (exit $rc, want $(cat "$name.rc"))"
    diff -u "$name.out" "$out" | head -40
  fi
  rm -f "$out"
done
echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
