#!/bin/sh
# Runs every test suite (but tests/e2e: `make test-e2e`): each tests/<suite>/run.sh prints a line
# "<suite>: N passed, N failed" and exits non-zero on failure. The last line
# here is the total, in the same form.
set -u
BIN=${BIN:-build/ascend-lsp}
UNIT=${UNIT:-build/unit-tests}
export BIN UNIT
total_pass=0
total_fail=0
status=0
log=$(mktemp)
# every suite's CLI runs share one fresh analysis cache, never the user's
ASCEND_LSP_CACHE_DIR=$(mktemp -d)
export ASCEND_LSP_CACHE_DIR
trap 'rm -f "$log"; rm -rf "$ASCEND_LSP_CACHE_DIR"' EXIT
run_suite() {
  name=$1
  shift
  "$@" >"$log" 2>&1
  rc=$?
  cat "$log"
  line=$(grep -E '^[a-z-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
  f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
  [ -n "$line" ] || { p=0; f=1; echo "$name: no summary line (exit $rc)"; }
  [ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
  [ "$f" -eq 0 ] || status=1
}
run_suite unit "$UNIT"
for s in tests/*/run.sh; do
  case "$s" in tests/unit/*|tests/bench/*|tests/fuzz/*|tests/e2e/*) continue ;; esac
  run_suite "$(basename "$(dirname "$s")")" sh "$s"
done
echo
echo "$total_pass passed, $total_fail failed"
exit $status
