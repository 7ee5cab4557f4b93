#!/bin/sh
# The robustness suite: the bad-input catalogue against the real binary
# (robust.py), with a valgrind memcheck transcript when valgrind is present,
# and, when the fuzz targets are built ($FUZZ_BUILD/bin, `make fuzz-build`),
# a replay of the committed fuzz corpora and crash reproducers.
# Prints exactly one summary line "robust: N passed, N failed".
set -u
BIN=${BIN:-build/ascend-lsp}
export BIN
FUZZ_BUILD=${FUZZ_BUILD:-build/fuzz}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
python3 tests/robust/robust.py "$@" >"$out" 2>&1
rc=$?
grep -v '^robust: ' "$out"
line=$(grep -E '^robust: [0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1)
if [ -z "$line" ]; then
  echo "robust.py ended without a summary (exit $rc)"
  p=0
  f=1
else
  p=$(echo "$line" | sed -E 's/robust: ([0-9]+) passed.*/\1/')
  f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed/\1/')
  [ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=$((f + 1))
fi
if [ "${ROBUST_FUZZ_REPLAY:-1}" = 1 ] && [ -d "$FUZZ_BUILD/bin" ] && [ $# -eq 0 ]; then
  for bin in "$FUZZ_BUILD"/bin/fuzz_*; do
    [ -x "$bin" ] || continue
    t=$(basename "$bin")
    if FUZZ_BUILD=$FUZZ_BUILD sh tests/fuzz/run-fuzz.sh replay "$t"; then
      p=$((p + 1))
      echo "ok   fuzz replay $t"
    else
      f=$((f + 1))
      echo "FAIL fuzz replay $t"
    fi
  done
fi
echo "robust: $p passed, $f failed"
[ "$f" -eq 0 ]
