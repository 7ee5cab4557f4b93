#!/bin/sh
# Dependency (ASC1xx) and custom-operator (ASC4xx) suite on the extension
# fixture tests/fixtures/cuda-ext:
#
#  - elf: the fixture's prebuilt .so is byte for byte what tests/kernels/mkelf.c
#    builds (our own bytes: no third-party binary is committed);
#  - golden: `check --select ASC1,ASC4` output in text and JSON ("version"
#    normalized to "*") and its exit status, exactly;
#  - expect: every line of expect.txt ("path:line:col: severity: CODE", a
#    reviewed list that UPDATE=1 does not touch, so regenerating the goldens
#    cannot bless a lost finding) is reported;
#  - lsp: the language server publishes, for every served file, the same
#    ASC1/ASC4 diagnostics as `check` of the directory (lsp_check.py), the
#    folds across files included.
#
# UPDATE=1 rewrites the goldens and the .so. Prints one summary line
# "kernels: N passed, N failed" and exits non-zero on failure.
set -u
BIN=${BIN:-build/ascend-lsp}
CC=${CC:-cc}
PY=${PYTHON:-python3}
K=tests/kernels
FIXTURE=tests/fixtures/cuda-ext
SO=$FIXTURE/prebuilt/libfused_ops.so
SELECT=ASC1,ASC4
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
ko() {
  fail=$((fail + 1))
  echo "FAIL kernels/$1"
}

# compare NAME GOLDEN ACTUAL
compare() {
  if [ "${UPDATE:-0}" = 1 ]; then cp "$3" "$2"; fi
  if diff -u "$2" "$3" >"$tmp/diff" 2>&1; then ok; else
    ko "$1"
    head -40 "$tmp/diff"
  fi
}

# -- elf: the committed fixture binary is reproducible -------------------------
if "$CC" -std=c11 -O0 -o "$tmp/mkelf" "$K/mkelf.c" 2>"$tmp/cc.err"; then
  "$tmp/mkelf" "$tmp/lib.so" --soname libfused_ops.so libcudart.so.12 libcublas.so.12 libnccl.so.2 \
    libtorch_cuda.so libc10.so libstdc++.so.6 libc.so.6
  [ "${UPDATE:-0}" = 1 ] && cp "$tmp/lib.so" "$SO"
  if cmp -s "$tmp/lib.so" "$SO"; then ok; else ko "elf-reproducible ($SO differs from mkelf output)"; fi
else
  ko "elf-build-mkelf"
  cat "$tmp/cc.err"
fi

# -- golden check output -----------------------------------------------------------
"$BIN" check "$FIXTURE" --select "$SELECT" >"$tmp/check.txt" 2>/dev/null
echo $? >"$tmp/check.rc"
"$BIN" check "$FIXTURE" --select "$SELECT" --format json 2>/dev/null |
  sed 's/^\([[:space:]]*"version":[[:space:]]*\)"[^"]*"/\1"*"/' >"$tmp/check.json"
compare golden-text "$K/golden/check.txt" "$tmp/check.txt"
compare golden-json "$K/golden/check.json" "$tmp/check.json"
compare golden-rc "$K/golden/check.rc" "$tmp/check.rc"

# -- hand-written expectations -------------------------------------------------------
while IFS= read -r line; do
  case "$line" in '' | '#'*) continue ;; esac
  if grep -qF -- "$FIXTURE/$line " "$tmp/check.txt"; then ok; else ko "expect: $line"; fi
done <"$K/expect.txt"

# -- the editor path gives the same findings -------------------------------------------
if command -v "$PY" >/dev/null 2>&1; then
  "$PY" "$K/lsp_check.py" "$BIN" "$FIXTURE" "$tmp/check.json" >"$tmp/lsp.out" 2>&1
  while IFS= read -r line; do
    case "$line" in
    ok\ *) ok ;;
    *) ko "lsp: $line" ;;
    esac
  done <"$tmp/lsp.out"
  # the folds (dispatch switch, extension internals, calls per function) reach the editor too
  # every rule on both sides: a fold may list sites of other rules (an engine file's device calls)
  "$BIN" check tests/fixtures/fused-ext --format json >"$tmp/fused.json" 2>/dev/null
  "$PY" "$K/lsp_check.py" "$BIN" tests/fixtures/fused-ext "$tmp/fused.json" >"$tmp/lsp-fused.out" 2>&1
  while IFS= read -r line; do
    case "$line" in
    ok\ *) ok ;;
    *) ko "lsp fused-ext: $line" ;;
    esac
  done <"$tmp/lsp-fused.out"
else
  echo "note: $PY not found, the language-server check is skipped"
fi

echo "kernels: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
