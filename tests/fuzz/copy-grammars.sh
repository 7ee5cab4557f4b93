#!/bin/sh
# copy-grammars.sh DEST: seeds DEST/grammars/<name>/src from the main build's
# already fetched and integrity-checked grammar sources ($BUILD, default
# build), so that a second build tree (fuzzing, sanitizers) needs no network.
# When the main build has not fetched them, does nothing: the top Makefile
# then fetches them for DEST as usual.
set -eu
dest=$1
src=${BUILD:-build}
for g in python cuda toml; do
  [ -f "$dest/grammars/$g/.fetched" ] && continue
  [ -f "$src/grammars/$g/.fetched" ] || continue
  mkdir -p "$dest/grammars/$g"
  rm -rf "$dest/grammars/$g/src"
  cp -R "$src/grammars/$g/src" "$dest/grammars/$g/src"
  touch "$dest/grammars/$g/.fetched"
done
