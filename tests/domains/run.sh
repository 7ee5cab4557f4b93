#!/bin/sh
# Domain tests for attention (ASC3xx), distributed (ASC5xx), precision
# (ASC6xx) and compilation (ASC7xx) on the DiT fixture package.
#
#  - cases/NAME.args: `ascend-lsp` arguments (one line, paths relative to the
#    repository root); NAME.out is the exact expected stdout ("version" in
#    JSON normalized to "*") and NAME.rc the exit status;
#  - fixes: every fix of a JSON report (unsafe included) is applied to a copy
#    of the fixture by apply_fixes.py; each resulting .py file must parse as
#    Python, and the change must equal fixes/NAME.diff; re-checking the fixed
#    copy must give fixes/NAME.recheck.
# UPDATE=1 rewrites every golden file. Prints one summary line
# "domains: N passed, N failed" and exits non-zero on failure.
set -u
BIN=${BIN:-build/ascend-lsp}
case "$BIN" in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
PY=${PYTHON:-python3}
D=tests/domains
FIXTURE=tests/fixtures/dit-model
SELECT=ASC3,ASC5,ASC6,ASC7
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
ko() {
  fail=$((fail + 1))
  echo "FAIL domains/$1"
}

# compare NAME GOLDEN ACTUAL: exact match, or rewrite under UPDATE=1.
compare() {
  if [ "${UPDATE:-0}" = 1 ]; then cp "$3" "$2"; fi
  if diff -u "$2" "$3" >"$tmp/diff" 2>&1; then
    ok
  else
    ko "$1"
    head -40 "$tmp/diff"
  fi
}

run_bin() { # args... -> stdout normalized into $tmp/out, status into $tmp/rc
  "$BIN" "$@" >"$tmp/raw" 2>/dev/null
  echo $? >"$tmp/rc"
  sed -E 's/"version":([[:space:]]*)"[^"]*"/"version":\1"*"/' "$tmp/raw" >"$tmp/out"
}

# ---- golden outputs -------------------------------------------------------
for a in "$D"/cases/*.args; do
  name=$(basename "${a%.args}")
  # shellcheck disable=SC2046
  run_bin $(cat "$a")
  compare "$name" "$D/cases/$name.out" "$tmp/out"
  compare "$name.rc" "$D/cases/$name.rc" "$tmp/rc"
done

# ---- fixes ------------------------------------------------------------------
# fix_case NAME [extra check options]: apply, parse, diff, re-check.
fix_case() {
  name=$1
  shift
  run_bin check --format json --select "$SELECT" "$@" "$FIXTURE"
  cp "$tmp/raw" "$tmp/report.json"
  dst="$tmp/fixed-$name"
  if ! "$PY" "$D/apply_fixes.py" "$tmp/report.json" "$FIXTURE" "$dst" >"$tmp/applied" 2>&1; then
    ko "$name.apply"
    cat "$tmp/applied"
    return
  fi
  ok
  bad=0
  for f in $(cd "$dst" && find . -name '*.py' | sort); do
    if ! "$PY" -c 'import ast,sys; ast.parse(open(sys.argv[1], encoding="utf-8").read())' "$dst/$f" 2>"$tmp/err"; then
      bad=1
      echo "  $f does not parse:"
      sed 's/^/    /' "$tmp/err"
    fi
  done
  if [ "$bad" = 0 ]; then ok; else ko "$name.parse"; fi
  (cd "$tmp" && diff -ru "$OLDPWD/$FIXTURE" "fixed-$name" |
    sed -E -e 's#^(---|\+\+\+) ([^	]*)	.*#\1 \2#' -e "s#$OLDPWD/##" >"$tmp/change.diff")
  compare "$name.diff" "$D/fixes/$name.diff" "$tmp/change.diff"
  (cd "$tmp" && run_bin check --select "$SELECT" "$@" "fixed-$name") # paths relative to $tmp
  compare "$name.recheck" "$D/fixes/$name.recheck" "$tmp/out"
}

fix_case unsafe
fix_case mindiesd --mindiesd
fix_case chip-310p --chip 310P

echo "domains: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
