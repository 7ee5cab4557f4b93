#!/bin/sh
# LSP transcript tests (see run.py).
exec python3 "$(dirname "$0")/run.py" "$@"
