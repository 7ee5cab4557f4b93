#!/bin/sh
# apt-install.sh NAME PACKAGE...: installs the Debian packages that are
# missing (and Node.js with npm when npm is not on PATH; it may come from
# another Debian-format repository that bundles npm), through sudo when not
# root. NAME prefixes the progress line. Never downloads anything else.
set -eu
name=$1
shift
missing=""
for p in "$@"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
command -v npm >/dev/null 2>&1 || missing="$missing nodejs npm"
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "$name: installing$missing"
  $SUDO apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
