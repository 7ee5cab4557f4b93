#!/bin/sh
# Fetch one pinned tree-sitter grammar with `npm pack`, verify its sha512
# integrity against tests/grammars.lock, and unpack it under $BUILD/grammars/NAME.
set -eu
name=$1
BUILD=${BUILD:-build}
line=$(grep -E "^$name[[:space:]]" tests/grammars.lock) || { echo "fetch-grammars: $name not in tests/grammars.lock" >&2; exit 2; }
spec=$(echo "$line" | awk '{print $2}')
want=$(echo "$line" | awk '{print $3}')
dest=$BUILD/grammars/$name
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dest"
(cd "$tmp" && npm pack --silent "$spec" >/dev/null)
tgz=$(ls "$tmp"/*.tgz)
got="sha512-$(openssl dgst -sha512 -binary "$tgz" | openssl base64 -A)"
if [ "$got" != "$want" ]; then
  echo "fetch-grammars: integrity mismatch for $spec" >&2
  echo "  want $want" >&2
  echo "  got  $got" >&2
  exit 1
fi
rm -rf "$dest/src"
tar xzf "$tgz" -C "$tmp"
mv "$tmp/package/src" "$dest/src"
grep -q 'define LANGUAGE_VERSION 14' "$dest/src/parser.c" || { echo "fetch-grammars: $spec is not ABI 14" >&2; exit 1; }
touch "$dest/.fetched"
echo "fetched $spec into $dest"
