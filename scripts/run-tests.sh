#!/bin/sh
# run-tests.sh — runs each test binary given, then prints one closing line
# "N passed, N failed" counting test binaries. Exits non-zero on a failure.
set -u
pass=0
fail=0
failed=""
for t in "$@"; do
    echo "== $t"
    if "$t"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        failed="$failed $t"
    fi
done
[ -n "$failed" ] && echo "failed suites:$failed"
echo "suites: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
