#!/bin/sh
# run-fuzz.sh SECONDS|replay TARGET...: runs each libFuzzer target built in
# $FUZZ_BUILD/bin for SECONDS (or, with "replay", once over its committed
# corpus and any crash reproducers in tests/fuzz/crashes/<target>/) and
# prints one line per target and a summary:
#   fuzz_python: 123456 runs in 60 s, 0 crashes, corpus 321
# Exits 1 when any target crashed (reproducers in $FUZZ_BUILD/artifacts/).
# FUZZ_KEEP_GOING=1 runs each target with -fork=1 -ignore_crashes=1, so that
# a known crash does not end the run: every crash input is kept, and at the
# end the crashes are grouped by their first frame in our code.
set -u
FUZZ_BUILD=${FUZZ_BUILD:-build/fuzz}
# absolute paths: a target may change its working directory
case $FUZZ_BUILD in /*) ;; *) FUZZ_BUILD=$(pwd)/$FUZZ_BUILD ;; esac
top=$(pwd)
secs=$1
shift
status=0
for t in "$@"; do
  bin=$FUZZ_BUILD/bin/$t
  seeds=$top/tests/fuzz/corpus/$t
  work=$FUZZ_BUILD/corpus/$t
  arts=$FUZZ_BUILD/artifacts/$t
  log=$FUZZ_BUILD/logs/$t.log
  mkdir -p "$work" "$arts" "$(dirname "$log")"
  dict=""
  [ -f "tests/fuzz/dict/$t.dict" ] && dict="-dict=$top/tests/fuzz/dict/$t.dict"
  if [ "$secs" = replay ]; then
    files=$(find "$seeds" "$top/tests/fuzz/crashes/$t" -type f 2>/dev/null | sort)
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
  fork=""
  [ "${FUZZ_KEEP_GOING:-0}" = 1 ] && fork="-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
  # -max_len past 2 x 50,000 brackets: inputs reach the nesting limit (nesting.h)
  # shellcheck disable=SC2086
  "$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -max_len=131072 -print_final_stats=1 \
    -artifact_prefix="$arts/" $fork $dict "$work" "$seeds" >"$log" 2>&1
  rc=$?
  after=$(ls "$arts" | wc -l)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
  if [ -n "$fork" ]; then # fork mode: "#N: cov: ... time: Ts job: ..." lines
    runs=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$log" | tail -n 1)
    took=$(sed -n 's/^#[0-9]*: cov:.* time: \([0-9]*\)s.*/\1/p' "$log" | tail -n 1)
  fi
  size=$(ls "$work" | wc -l)
  crashes=$((after - before))
  echo "$t: ${runs:-?} runs in ${took:-$secs} s, $crashes crashes, corpus $size (exit $rc)"
  if [ "$rc" -ne 0 ] || [ "$crashes" -gt 0 ]; then
    status=1
    if [ "$crashes" -gt 0 ]; then
      # group the crash inputs by their first frame in our sources
      for a in $(ls -t "$arts" | head -n "$crashes"); do
        "$bin" "$arts/$a" 2>&1 | grep -E '^ +#[0-9]+ .* in [a-z_0-9]+ .*/(analyzers|server|protocol)/' | head -n 1 |
          sed -E 's/.* in ([a-z_0-9]+) .*\/((analyzers|server|protocol)\/[^ ]*).*/\1 \2/'
        "$bin" "$arts/$a" 2>&1 | grep -E 'check failed|runtime error' | grep -v 'grammars/' | head -n 1
      done | sort | uniq -c | sed 's/^/    /'
    else
      grep -E 'ERROR:|check failed|SUMMARY|#[0-9]+ 0x' "$log" | head -30
    fi
  fi
done
exit $status
