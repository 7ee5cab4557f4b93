#!/bin/sh
# Editor-client tests: the server driven by real clients.
#   nvim    headless Neovim (Debian's) loading editors/nvim through setup()
#   node    VS Code's protocol stack (vscode-jsonrpc +
#           vscode-languageserver-protocol) holding the whole conversation,
#           the extension's binary discovery, and the extension itself
#           under a stub of the `vscode` module, and the .vsix `make vsix`
#           builds, unpacked
#   emacs   Emacs in batch mode with Debian's eglot and editors/emacs
# Prints one summary line "editors: N passed, N failed"; exits non-zero on
# failure. A missing client (nvim, node modules, emacs/eglot) is a failure,
# not a skip: `make deps` installs them.
set -u
cd "$(dirname "$0")/../.." || exit 2
REPO=$(pwd)
BIN=${BIN:-build/ascend-lsp}
case $BIN in /*) ;; *) BIN=$REPO/$BIN ;; esac
export BIN
T=tests/editors
pass=0
fail=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ascend-editors.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

count() { # pass fail
  pass=$((pass + $1))
  fail=$((fail + $2))
}

# Adds the "# pass N" / "# fail N" counts of a results file; prints its
# failures (or the log when the results are missing).
tally() { # name results log
  if [ -f "$2" ] && grep -q '^# fail ' "$2"; then
    p=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$2" | tail -n 1)
    f=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$2" | tail -n 1)
    count "${p:-0}" "${f:-1}"
    [ "${f:-1}" -eq 0 ] || { echo "FAIL editors/$1:"; sed -n '/^not ok/,/^ok\|^#/p' "$2" | grep -v '^ok\|^#'; }
  else
    count 0 1
    echo "FAIL editors/$1: no results (crashed or timed out)"
    tail -n 30 "$3"
  fi
}

# A fresh scratch directory with a copy of the fixture project.
scratch() { # name
  d=$WORK/$1
  mkdir -p "$d"
  cp -R "$T/fixtures/project" "$d/project"
  echo "$d"
}

# ---- (1) Neovim ---------------------------------------------------------------
nvim_suite() { # name test-script setup(1/0)
  d=$(scratch "$1")
  if ! command -v nvim >/dev/null 2>&1; then
    count 0 1
    echo "FAIL editors/$1: nvim is not installed (make deps)"
    return
  fi
  XDG_CONFIG_HOME=$d/config XDG_DATA_HOME=$d/data XDG_CACHE_HOME=$d/cache XDG_STATE_HOME=$d/state \
    ASCEND_REPO=$REPO ASCEND_BIN=$BIN ASCEND_WORK=$d ASCEND_RESULTS=$d/results.txt \
    ASCEND_TEST=$REPO/$T/nvim/$2 ASCEND_SETUP=$3 \
    timeout 120 nvim --headless --clean -u "$T/nvim/init.lua" </dev/null >"$d/nvim.log" 2>&1
  tally "$1" "$d/results.txt" "$d/nvim.log"
  [ -f "$d/results.txt" ] && grep -q '^# fail 0$' "$d/results.txt" ||
    { [ -f "$d/cache/nvim/lsp.log" ] && tail -n 20 "$d/cache/nvim/lsp.log"; }
}
nvim_suite nvim test_plugin.lua 1
nvim_suite nvim-compat test_compat.lua 0

# ---- (2) (3) Node: protocol conversation, discovery, extension -----------------
if [ ! -d "$T/node_modules/vscode-jsonrpc" ] || [ ! -d "$T/node_modules/vscode-languageserver-protocol" ]; then
  count 0 1
  echo "FAIL editors/node: $T/node_modules is missing (make deps)"
else
  # The packaged extension: make vsix (with this BIN, not rebuilt), then
  # unpack it as VS Code does, for node/vsix.test.js.
  vsix=$WORK/ascend-lsp.vsix
  if timeout 300 make -s --no-print-directory -o "$BIN" vsix BIN="$BIN" VSCODE_VSIX="$vsix" >"$WORK/vsix.log" 2>&1 &&
    python3 -m zipfile -e "$vsix" "$WORK/vsix" >>"$WORK/vsix.log" 2>&1; then
    ASCEND_VSIX_DIR=$WORK/vsix
    export ASCEND_VSIX_DIR
  else
    echo "editors/node: make vsix failed:"
    tail -n 20 "$WORK/vsix.log"
  fi
  log=$WORK/node.tap
  timeout 300 node --test --test-reporter=tap "$T"/node/*.test.js >"$log" 2>&1
  rc=$?
  p=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$log" | tail -n 1)
  f=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$log" | tail -n 1)
  if [ -z "$p" ] || [ -z "$f" ]; then
    count 0 1
    echo "FAIL editors/node: no summary (exit $rc)"
    tail -n 40 "$log"
  else
    [ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
    count "$p" "$f"
    [ "$f" -eq 0 ] || {
      echo "FAIL editors/node:"
      # each failing test with its diagnostic block, without stack frames
      awk '/^ *not ok /{show=1} /^ *(ok |# Subtest)/{show=0} show && !/^ +[A-Za-z.<>]+[^ ]* \(.*:[0-9]+:[0-9]+\)$/' "$log" | head -n 200
    }
  fi
fi

# ---- (4) Emacs + eglot ------------------------------------------------------------
d=$(scratch emacs)
if ! command -v emacs >/dev/null 2>&1; then
  count 0 1
  echo "FAIL editors/emacs: emacs is not installed (make deps: emacs-nox elpa-eglot)"
else
  HOME=$d ASCEND_BIN=$BIN ASCEND_WORK=$d ASCEND_RESULTS=$d/results.txt \
    timeout 120 emacs --batch -L editors/emacs -l "$T/emacs/test-eglot.el" -f ascend-test-run \
    </dev/null >"$d/emacs.log" 2>&1
  tally emacs "$d/results.txt" "$d/emacs.log"
fi

echo "editors: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
