#!/bin/sh
# Install the Debian packages the build and the test suites need, when missing.
# Uses sudo when not root. Never downloads anything but Debian and npm packages.
set -eu
PKGS="build-essential pkg-config libtree-sitter-dev libcjson-dev libuv1-dev openssl neovim emacs-nox elpa-eglot ripgrep hyperfine valgrind clang libclang-rt-14-dev python3 chromium"
# shellcheck disable=SC2086
sh tests/apt-install.sh install-deps $PKGS
# Node packages for the editor-client and report tests (pinned in their
# package-lock.json), again when a lockfile changed since. tests/e2e installs
# its own, under build/ (tests/e2e/install.sh, run by `make test-e2e`).
for d in tests/*/ editors/*/; do
  d=${d%/}
  [ "$d" != tests/e2e ] || continue
  if [ -f "$d/package-lock.json" ] &&
    { [ ! -d "$d/node_modules" ] || [ "$d/package-lock.json" -nt "$d/node_modules/.package-lock.json" ]; }; then
    (cd "$d" && npm ci --silent --no-audit --no-fund)
  fi
done
echo "install-deps: ok"
