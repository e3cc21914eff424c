#!/bin/sh
# run-tests.sh — runs the JavaScript client's tests (node --test) against a
# parlor binary, installing the two npm packages into protocol/js first
# when they are missing.
#
#   protocol/js/run-tests.sh [PATH/TO/parlor]    (default: build/parlor)
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../build/parlor}
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "run-tests.sh: node and npm are needed (scripts/deps.sh installs" \
         "Debian's nodejs and npm)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
if [ ! -d "$here/node_modules/zeromq" ] || [ ! -d "$here/node_modules/@msgpack/msgpack" ]; then
    (cd "$here" && npm install --no-audit --no-fund --loglevel=error) || {
        echo "run-tests.sh: npm install failed in $here" >&2
        echo "0 passed, 1 failed"
        exit 1
    }
fi
PARLOR_BIN=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
export PARLOR_BIN
cd "$here" && exec node --test --test-concurrency=1 test/*.test.js
