#!/bin/sh
# The support-list generator (gen_support.py) on pages written for the test
# in the format of the torch_npu support lists (sample/: one directory per
# page format), and on a page that does not parse (bad/). Also checks that
# the committed table analyzers/kb/kb_support.def names exactly the versions
# of sources.txt. UPDATE=1 rewrites the goldens. Prints
# "kbgen: N passed, N failed".
set -u
PY=${PYTHON:-python3}
D=tests/kbgen
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
ko() {
  fail=$((fail + 1))
  echo "FAIL kbgen/$1"
  [ -f "$tmp/diff" ] && head -40 "$tmp/diff"
}
compare() { # NAME GOLDEN ACTUAL
  if [ "${UPDATE:-0}" = 1 ]; then cp "$3" "$2"; fi
  if diff -u "$2" "$3" >"$tmp/diff" 2>&1; then ok; else ko "$1"; fi
  rm -f "$tmp/diff"
}

# the sample: exact table and summary, status 0
"$PY" $D/gen_support.py --tree $D/sample --pages $D/sample/pages --commit 0000000 --date 2026-01-01 \
  --sources $D/sample/sources.txt \
  -o "$tmp/sample.def" 2>"$tmp/sample.err"
rc=$?
if [ "$rc" -eq 0 ]; then ok; else ko "sample-exit ($rc)"; fi
compare sample-table $D/sample/expected.def "$tmp/sample.def"
compare sample-summary $D/sample/expected.err "$tmp/sample.err"

# a page that does not parse: status 1, file and line named, no output written
"$PY" $D/gen_support.py --tree $D/bad --sources $D/bad/sources.txt -o "$tmp/bad.def" 2>"$tmp/bad.err"
rc=$?
if [ "$rc" -eq 1 ]; then ok; else ko "bad-exit ($rc)"; fi
compare bad-message $D/bad/expected.err "$tmp/bad.err"
if [ ! -e "$tmp/bad.def" ] && [ ! -e "$tmp/bad.def.tmp" ]; then ok; else ko "bad-no-output"; fi

# a product-list page that does not parse, a copy of another length than
# its manifest says, a `dir:` source without --pages: status 1, file and line
# (or the manifest) named, no output written
bad_list() { # NAME SOURCES PAGES
  "$PY" $D/gen_support.py --tree $D/bad $3 --sources $D/bad/lists/$2 -o "$tmp/$1.def" 2>"$tmp/$1.err"
  rc=$?
  if [ "$rc" -eq 1 ] && [ ! -e "$tmp/$1.def" ]; then ok; else ko "$1-exit ($rc)"; fi
  compare "$1-message" $D/bad/lists/$1.err "$tmp/$1.err"
}
bad_list list sources.txt "--pages $D/bad/lists/pages"
bad_list length sources-length.txt "--pages $D/sample/pages"
bad_list no-pages sources.txt ""

# a version directory that is missing: status 1
"$PY" $D/gen_support.py --tree $D/bad --sources $D/sample/sources.txt -o "$tmp/missing.def" 2>"$tmp/missing.err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q '^gen_support: error: ' "$tmp/missing.err"; then ok; else ko "missing-dir ($rc)"; fi

# the committed table: the versions of sources.txt, in order, each with its commit
grep -v '^#' $D/sources.txt | awk 'NF {print $1, $2, $3}' >"$tmp/want"
sed -n 's/^    {"\([0-9.]*\)", "\([^"]*\)", "[0-9a-f]\{40\}", "[0-9-]*", "\([^"]*\)".*/\1 \2 \3/p' analyzers/kb/kb_support.def >"$tmp/have"
compare table-versions "$tmp/want" "$tmp/have"

echo "kbgen: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
