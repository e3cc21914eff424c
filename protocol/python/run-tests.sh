#!/bin/sh
# run-tests.sh — runs the Python client's tests against a parlor binary.
#
#   protocol/python/run-tests.sh [PATH/TO/parlor]    (default: build/parlor)
#
# Uses Debian's /usr/bin/python3 (which has python3-zmq, -msgpack, -numpy),
# with pytest when it is installed and unittest otherwise; either way the
# last line is "N passed, N failed, N skipped" and the exit status is
# non-zero when a test failed or none ran. Each test class starts its own
# `parlor serve` on a free port or an ipc path and stops it afterwards.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../build/parlor}
py=/usr/bin/python3
if [ ! -x "$bin" ]; then
    echo "run-tests.sh: no parlor binary at $bin (run make first)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
if ! "$py" -c 'import zmq, msgpack, numpy' 2>/dev/null; then
    echo "run-tests.sh: $py lacks python3-zmq, python3-msgpack or" \
         "python3-numpy (scripts/deps.sh installs them)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
PARLOR_BIN=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
PYTHONPATH=$here:$here/tests
PYTHONDONTWRITEBYTECODE=1
export PARLOR_BIN PYTHONPATH PYTHONDONTWRITEBYTECODE
cd "$here/tests" || exit 1
if "$py" -c 'import pytest' 2>/dev/null; then
    exec "$py" -m pytest -q -p no:cacheprovider --rootdir "$here/tests" .
fi
exec "$py" run.py
