#!/bin/sh
# The on-disk analysis cache of check/fix/report: a warm run gives exactly
# the output of an uncached one; a changed file, a changed option, a corrupt
# or foreign cache file, concurrent runs and an unwritable cache folder all
# still give exactly that output, and --no-cache writes nothing.
set -u
BIN=${BIN:-build/ascend-lsp}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset ASCEND_LSP_NO_CACHE
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL cache/$1"; }
# check NAME CACHE_DIR ARGS...: stdout+stderr+exit status of one run
run() {
  out=$1; dir=$2; shift 2
  ASCEND_LSP_CACHE_DIR=$dir "$BIN" "$@" >"$out" 2>"$out.err"
  echo "exit $?" >>"$out.err"
}
same() { cmp -s "$1" "$2" && cmp -s "$1.err" "$2.err"; }
entries() { ls "$1" 2>/dev/null | grep -c '\.cache$'; }

cp -R tests/fixtures/demo-project "$tmp/proj"
cp -R tests/fixtures/dit-model "$tmp/proj/dit"
C="$tmp/c"
args="check --format json --exit-zero $tmp/proj"

run "$tmp/ref" "$tmp/unused" $args --no-cache
if [ ! -e "$tmp/unused" ] && grep -q '"ASC' "$tmp/ref"; then ok; else bad no-cache-writes-nothing; fi

run "$tmp/cold" "$C" $args
if same "$tmp/ref" "$tmp/cold" && [ "$(entries "$C")" = 1 ] && [ -f "$C/CACHEDIR.TAG" ]; then ok; else bad cold-run; fi
cp -R "$C"/*.cache "$tmp/saved"

# the shards of one identity's folder, each with its inode and times
stamp() { stat -c '%n %i %Y.%y' "$1"/*; }
before=$(stamp "$C"/*.cache)
sleep 1 # a rewrite would move the modification time
run "$tmp/warm" "$C" $args
if same "$tmp/ref" "$tmp/warm" && diff -r "$tmp/saved" "$C"/*.cache >/dev/null; then ok; else bad warm-run; fi
# everything came from the cache: no shard is written again (same inode, same time)
if [ "$(stamp "$C"/*.cache)" = "$before" ]; then ok; else bad warm-run-writes-nothing; fi
# a warm run analyzes nothing: every file's results come from the cache
# and the folds across files and the project model are not run again either
n=$(ASCEND_LSP_CACHE_STATS=1 ASCEND_LSP_CACHE_DIR=$C "$BIN" $args 2>&1 >/dev/null | grep '^cache:' | tr '\n' '|')
total=$(ASCEND_LSP_CACHE_STATS=1 ASCEND_LSP_CACHE_DIR="$tmp/count" "$BIN" $args 2>&1 >/dev/null | sed -n 's/^cache: 0 of \([0-9]*\) files.*/\1/p')
if [ -n "$total" ] && [ "$total" -gt 10 ] &&
   [ "$n" = "cache: $total of $total files from the cache|cache: the project's outcome from the cache|" ]; then ok
else bad warm-run-analyzes-nothing; fi

# one file changed: its new findings, the others' from the cache
printf '\nimport torch\ntorch.cuda.synchronize()\n' >>"$tmp/proj/train.py"
run "$tmp/ref2" "$tmp/unused" $args --no-cache
ASCEND_LSP_CACHE_STATS=1 ASCEND_LSP_CACHE_DIR=$C "$BIN" $args >"$tmp/touched" 2>"$tmp/touched.err"
echo "exit $?" >>"$tmp/touched.err"
hit=$(grep '^cache:' "$tmp/touched.err")
sed -i '/^cache:/d' "$tmp/touched.err"
if same "$tmp/ref2" "$tmp/touched" && ! cmp -s "$tmp/ref" "$tmp/ref2" &&
   [ "$hit" = "cache: $((total - 1)) of $total files from the cache" ]; then ok; else bad changed-file; fi
# one changed file rewrites its shard and the project outcome's (one or two
# shards, each a line before and a line after): the others keep their inode and times
after=$(stamp "$C"/*.cache)
moved=$(printf '%s\n%s\n' "$before" "$after" | sort | uniq -u | wc -l)
if [ "$moved" -le 4 ] && [ "$moved" -ge 2 ]; then ok; else echo "moved $moved"; bad changed-file-rewrites-one-shard; fi
cp -R "$C"/*.cache "$tmp/saved2"

# whole DIR: a run through cache DIR takes every file and the project's
# outcome from it and prints what an uncached run prints (shards are compared
# by what they give, not byte for byte: a file's stamp is recorded once it is
# old enough to trust, so a rewritten shard may hold one the first did not)
whole() {
  ASCEND_LSP_CACHE_STATS=1 ASCEND_LSP_CACHE_DIR=$1 "$BIN" $args >"$tmp/whole" 2>"$tmp/whole.err"
  echo "exit $?" >>"$tmp/whole.err"
  grep -q "^cache: $total of $total files from the cache$" "$tmp/whole.err" &&
    grep -q "^cache: the project's outcome from the cache$" "$tmp/whole.err" && sed -i '/^cache:/d' "$tmp/whole.err" &&
    same "$tmp/ref2" "$tmp/whole"
}

# corrupt shards: truncated, one byte flipped, garbage, empty; and a shard
# of another shard number (a valid file at the wrong name)
shard=$(cd "$tmp/saved2" && ls | sort | tail -1)
other=$(cd "$tmp/saved2" && ls | sort | head -1)
for how in truncate flip garbage empty renamed; do
  f="$(ls -d "$C"/*.cache)/$shard"
  case $how in
    truncate) head -c 100 "$tmp/saved2/$shard" >"$f" ;;
    flip) cp "$tmp/saved2/$shard" "$f"; printf 'Z' | dd of="$f" bs=1 seek=200 conv=notrunc 2>/dev/null ;;
    garbage) head -c 5000 /dev/urandom >"$f" ;;
    empty) : >"$f" ;;
    renamed) cp "$tmp/saved2/$other" "$f" ;;
  esac
  run "$tmp/corrupt" "$C" $args
  if same "$tmp/ref2" "$tmp/corrupt" && whole "$C"; then ok; else bad "corrupt-$how"; fi
done

# another scan's cache under this scan's name is not trusted
D="$tmp/d"
run "$tmp/other" "$D" check --format json --exit-zero tests/fixtures/not-findings
cp "$D"/*.cache/* "$(ls -d "$C"/*.cache)"
run "$tmp/foreign" "$C" $args
if same "$tmp/ref2" "$tmp/foreign" && whole "$C"; then ok; else bad foreign-file; fi

# another target profile is another cache file, with its own results
run "$tmp/ref310" "$tmp/unused" $args --chip 310P --no-cache
run "$tmp/c310" "$C" $args --chip 310P
if same "$tmp/ref310" "$tmp/c310" && [ "$(entries "$C")" = 2 ]; then ok; else bad options-change; fi

# concurrent runs: the same output each, a valid cache after
E="$tmp/e"
for i in 1 2 3 4; do run "$tmp/par$i" "$E" $args & done
wait
good=1
for i in 1 2 3 4; do same "$tmp/ref2" "$tmp/par$i" || good=0; done
run "$tmp/after" "$E" $args
if [ $good = 1 ] && same "$tmp/ref2" "$tmp/after" && whole "$E" &&
   [ "$(ls "$E"/*.cache | grep -c tmp)" = 0 ]; then ok; else bad concurrent-runs; fi

# an unwritable cache folder: a note, the same findings and exit status
: >"$tmp/notadir"
ASCEND_LSP_CACHE_DIR="$tmp/notadir/sub" "$BIN" $args >"$tmp/nw" 2>"$tmp/nw.err"
echo "exit $?" >>"$tmp/nw.err"
if cmp -s "$tmp/ref2" "$tmp/nw" && grep -q '^note: the analysis cache was not written' "$tmp/nw.err"; then ok
else bad unwritable-dir; fi

# a FIFO where this run's temporary file of a shard goes (named after the
# process id, which exec keeps): removed, not opened, so the run neither
# blocks nor loses its results
name=$(ls "$E" | grep '\.cache$')
rm -f "$E/$name/$shard"
ASCEND_LSP_CACHE_DIR=$E timeout 20 sh -c 'mkfifo "$0/$1.$$.tmp" && exec "$2" check --format json --exit-zero "$3"' \
  "$E/$name" "$shard" "$BIN" "$tmp/proj" >"$tmp/fifo.out" 2>"$tmp/fifo.err"
rc=$?
if [ $rc -eq 0 ] && cmp -s "$tmp/ref2" "$tmp/fifo.out" && [ "$(ls "$E/$name" | grep -c tmp)" = 0 ] &&
   [ -f "$E/$name/$shard" ] && whole "$E"; then ok; else bad fifo-at-temp-name; fi

# ASCEND_LSP_NO_CACHE turns it off
ASCEND_LSP_NO_CACHE=1 ASCEND_LSP_CACHE_DIR="$tmp/off" "$BIN" $args >"$tmp/off.out" 2>/dev/null
if [ ! -e "$tmp/off" ] && cmp -s "$tmp/ref2" "$tmp/off.out"; then ok; else bad env-off; fi

# cache-dir in the configuration, relative to the file's folder
cp -R tests/fixtures/phases-project "$tmp/cfg"
printf '\n[tool.ascend-lsp]\ncache-dir = ".ascend-cache"\n' >>"$tmp/cfg/pyproject.toml"
(cd "$tmp" && env -u ASCEND_LSP_CACHE_DIR "$BIN" check --exit-zero cfg >/dev/null 2>&1)
if [ "$(entries "$tmp/cfg/.ascend-cache")" = 1 ] && [ "$(cat "$tmp/cfg/.ascend-cache/.gitignore")" = "*" ]; then ok
else bad config-cache-dir; fi

# fix through a warm cache rewrites exactly what an uncached fix does
cp -R tests/fixtures/demo-project "$tmp/fa"
cp -R tests/fixtures/demo-project "$tmp/fb"
ASCEND_LSP_CACHE_DIR="$tmp/f" "$BIN" check --exit-zero "$tmp/fa" >/dev/null 2>&1
ASCEND_LSP_CACHE_DIR="$tmp/f" "$BIN" fix "$tmp/fa" >"$tmp/fa.out" 2>&1
"$BIN" fix --no-cache "$tmp/fb" >"$tmp/fb.out" 2>&1
sed "s#$tmp/fa#X#g" "$tmp/fa.out" >"$tmp/fa.norm"
sed "s#$tmp/fb#X#g" "$tmp/fb.out" >"$tmp/fb.norm"
if diff -r "$tmp/fa" "$tmp/fb" >/dev/null && cmp -s "$tmp/fa.norm" "$tmp/fb.norm" && ! diff -r tests/fixtures/demo-project "$tmp/fa" >/dev/null
then ok; else bad fix-through-cache; fi

# the project's outcome follows every file: a module removed (its callers'
# call-site findings go) and a launcher added (what it runs becomes
# reachable) give exactly an uncached run's output
cp -R tests/fixtures/dit-model "$tmp/pm"
pargs="check --format json --exit-zero $tmp/pm"
run "$tmp/pm0" "$tmp/pmc" $pargs
victim=$(cd "$tmp/pm" && grep -rl '^def \|^class ' --include=*.py . | sort | head -1)
rm "$tmp/pm/$victim"
run "$tmp/pm1" "$tmp/unused" $pargs --no-cache
run "$tmp/pm1c" "$tmp/pmc" $pargs
printf '#!/bin/sh\npython train.py --steps 1\n' >"$tmp/pm/run.sh"
run "$tmp/pm2" "$tmp/unused" $pargs --no-cache
run "$tmp/pm2c" "$tmp/pmc" $pargs
if same "$tmp/pm1" "$tmp/pm1c" && same "$tmp/pm2" "$tmp/pm2c" && ! cmp -s "$tmp/pm0" "$tmp/pm1"; then ok
else bad project-outcome-follows-files; fi

# early cutoff: the project's outcome is keyed by the files' results, so an
# edit that changes none (a comment at the end of a file) reuses it; the
# line count, which is that file's alone, is this run's (report json)
cp -R tests/fixtures/dit-model "$tmp/ec"
for how in check report; do
  eargs="$how --format json $tmp/ec"
  [ $how = check ] && eargs="$eargs --exit-zero"
  run "$tmp/ec0" "$tmp/ecc" $eargs
done
edited=$(cd "$tmp/ec" && grep -l 'torch.cuda' --include=*.py -r . | sort | head -1)
printf '# tuned for the NPU later\n' >>"$tmp/ec/$edited"
good=1
for how in check report; do
  eargs="$how --format json $tmp/ec"
  [ $how = check ] && eargs="$eargs --exit-zero"
  run "$tmp/ec1" "$tmp/unused" $eargs --no-cache
  ASCEND_LSP_CACHE_STATS=1 ASCEND_LSP_CACHE_DIR="$tmp/ecc" "$BIN" $eargs >"$tmp/ec1c" 2>"$tmp/ec1c.err"
  echo "exit $?" >>"$tmp/ec1c.err"
  hit=$(grep '^cache:' "$tmp/ec1c.err" | tr '\n' '|')
  sed -i '/^cache:/d' "$tmp/ec1c.err"
  same "$tmp/ec1" "$tmp/ec1c" || good=0
  case $hit in "cache: "*" files from the cache|cache: the project's outcome from the cache|") ;; *) good=0 ;; esac
done
if [ $good = 1 ]; then ok; else bad early-cutoff; fi
# a launcher's text is part of that key (the model reads it itself): what it
# runs changes what is reachable even when its own results do not change
cp -R tests/fixtures/wrapped-project "$tmp/el"
printf '#!/bin/sh\npython -m wanlite.generate\n' >"$tmp/el/run.sh"
run "$tmp/ec2" "$tmp/unused" check --format json --exit-zero "$tmp/el" --no-cache
run "$tmp/ec2c" "$tmp/ecc" check --format json --exit-zero "$tmp/el"
printf '#!/bin/sh\npython -m wanlite.utils\n' >"$tmp/el/run.sh"
run "$tmp/ec3" "$tmp/unused" check --format json --exit-zero "$tmp/el" --no-cache
run "$tmp/ec3c" "$tmp/ecc" check --format json --exit-zero "$tmp/el"
if same "$tmp/ec2" "$tmp/ec2c" && same "$tmp/ec3" "$tmp/ec3c" && ! cmp -s "$tmp/ec2" "$tmp/ec3"; then ok; else bad launcher-in-project-key; fi

# stamps: a file unchanged since its stamp was recorded (older than the two
# seconds in which another write could keep it) is not read again; a change
# that keeps its size and modification time (touch -r) still changes its
# ctime, and is found
cp -R tests/fixtures/dit-model "$tmp/st"
sargs="check --format json --exit-zero $tmp/st"
sleep 2.2
run "$tmp/st0" "$tmp/stc" $sargs
nfiles=$(ASCEND_LSP_CACHE_STATS=1 ASCEND_LSP_CACHE_DIR="$tmp/stc" "$BIN" $sargs 2>&1 >/dev/null |
  sed -n 's/^cache: \([0-9]*\) files unchanged by their stamps, not read$/\1/p')
if [ -n "$nfiles" ] && [ "$nfiles" -gt 5 ]; then ok; else bad stamps-skip-reading; fi
victim=$(cd "$tmp/st" && grep -rl 'torch\.float16' --include=*.py . | sort | head -1)
cp -p "$tmp/st/$victim" "$tmp/victim.orig"
sed 's/torch\.float16/torch.float64/' "$tmp/victim.orig" >"$tmp/st/$victim" # same size: a float64 finding
touch -r "$tmp/victim.orig" "$tmp/st/$victim"
sleep 2.2 # past the window: only ctime tells the change
run "$tmp/st1" "$tmp/unused" $sargs --no-cache
ASCEND_LSP_CACHE_STATS=1 ASCEND_LSP_CACHE_DIR="$tmp/stc" "$BIN" $sargs >"$tmp/st1c" 2>"$tmp/st1c.err"
echo "exit $?" >>"$tmp/st1c.err"
stfiles=$(sed -n 's/^cache: [0-9]* of \([0-9]*\) files from the cache$/\1/p' "$tmp/st1c.err")
hit=$(grep '^cache: [0-9]* of' "$tmp/st1c.err")
sed -i '/^cache:/d' "$tmp/st1c.err"
if same "$tmp/st1" "$tmp/st1c" && [ -n "$stfiles" ] && [ "$hit" = "cache: $((stfiles - 1)) of $stfiles files from the cache" ]
then ok; else bad stamps-see-ctime; fi

echo "cache: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
