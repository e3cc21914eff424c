#!/bin/sh
# check-ecosystem.sh — runs Gymnasium's and PettingZoo's own checkers on
# every game a fresh `parlor serve` serves, and on every test spec the
# games declare (`parlor games --json`).
#
#   protocol/python/check-ecosystem.sh GYMNASIUM_DIR PETTINGZOO_DIR [SPEC ...]
#
# GYMNASIUM_DIR and PETTINGZOO_DIR are source checkouts of
# Farama-Foundation/Gymnasium and Farama-Foundation/PettingZoo (they are
# put on PYTHONPATH; nothing is installed). SPECs limit the run to those
# game specs. The server listens on an ipc:// endpoint in a private
# temporary directory and is stopped at the end. Prints one line per check
# and spec (PASS/FAIL and the reason), then "N passed, N failed"; exits
# non-zero when a check failed. PARLOR_BIN overrides build/parlor.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 GYMNASIUM_DIR PETTINGZOO_DIR [SPEC ...]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
gym=$(cd "$1" && pwd) || exit 2
pz=$(cd "$2" && pwd) || exit 2
shift 2
bin=${PARLOR_BIN:-$here/../../build/parlor}
py=/usr/bin/python3
[ -x "$bin" ] || { echo "$0: no parlor binary at $bin (run make)" >&2; exit 2; }
for dir in "$gym/gymnasium" "$pz/pettingzoo"; do
    [ -d "$dir" ] || { echo "$0: $dir is missing" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/parlor-eco.XXXXXX") || exit 2
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server"
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$bin" games --json > "$tmp/games.json" || exit 2
mkfifo "$tmp/ready"
"$bin" serve --bind "ipc://$tmp/serve.sock" --quiet > "$tmp/ready" &
server=$!
# The server's first line says where it listens; reading it waits for it.
read -r line < "$tmp/ready" || { echo "$0: parlor serve did not start" >&2; exit 2; }
endpoint=${line#parlor serve: listening on }

PYTHONPATH=$here:$gym:$pz PYTHONDONTWRITEBYTECODE=1 \
    "$py" "$here/check_ecosystem.py" "$endpoint" "$tmp/games.json" "$@"
