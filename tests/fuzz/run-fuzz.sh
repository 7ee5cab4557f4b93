#!/bin/sh
# run-fuzz.sh SECONDS|replay TARGET...: runs each libFuzzer target built in
# $FUZZ_BUILD/bin for SECONDS (or, with "replay", once over its committed
# corpus and any crash reproducers in tests/fuzz/crashes/<target>/) and
# prints one line per target and a summary:
#   fuzz_python: 123456 runs in 60 s, 0 crashes, corpus 321
# Exits 1 when any target crashed (reproducers in $FUZZ_BUILD/artifacts/).
set -u
FUZZ_BUILD=${FUZZ_BUILD:-build/fuzz}
secs=$1
shift
status=0
for t in "$@"; do
  bin=$FUZZ_BUILD/bin/$t
  seeds=tests/fuzz/corpus/$t
  work=$FUZZ_BUILD/corpus/$t
  arts=$FUZZ_BUILD/artifacts/$t
  log=$FUZZ_BUILD/logs/$t.log
  mkdir -p "$work" "$arts" "$(dirname "$log")"
  dict=""
  [ -f "tests/fuzz/dict/$t.dict" ] && dict="-dict=tests/fuzz/dict/$t.dict"
  if [ "$secs" = replay ]; then
    files=$(find "$seeds" tests/fuzz/crashes/$t -type f 2>/dev/null | sort)
    # shellcheck disable=SC2086
    if [ -z "$files" ]; then
      echo "$t: no corpus"
      continue
    fi
    # shellcheck disable=SC2086
    if "$bin" -timeout=30 -rss_limit_mb=4096 $files >"$log" 2>&1; then
      echo "$t: replayed $(echo "$files" | wc -l) inputs, ok"
    else
      echo "$t: REPLAY FAILED (see $log)"
      grep -E 'ERROR|check failed|Running:|#[0-9]+ 0x' "$log" | head -20
      status=1
    fi
    continue
  fi
  before=$(ls "$arts" | wc -l)
  # shellcheck disable=SC2086
  "$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$arts/" $dict "$work" "$seeds" >"$log" 2>&1
  rc=$?
  after=$(ls "$arts" | wc -l)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
  size=$(ls "$work" | wc -l)
  crashes=$((after - before))
  echo "$t: ${runs:-?} runs in ${took:-$secs} s, $crashes crashes, corpus $size (exit $rc)"
  if [ "$rc" -ne 0 ] || [ "$crashes" -gt 0 ]; then
    status=1
    grep -E 'ERROR:|check failed|SUMMARY|#[0-9]+ 0x' "$log" | head -30
  fi
done
exit $status
