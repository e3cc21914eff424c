#!/bin/sh
# deps.sh — checks the build's Debian dependencies and installs what is
# missing: with apt-get when root, with sudo when available, otherwise it
# prints the exact command and fails.
set -u
pkgs=""
need() { # need PKG-CONFIG-NAME-or-COMMAND DEBIAN-PACKAGE
    case "$1" in
    cmd:*) command -v "${1#cmd:}" >/dev/null 2>&1 || pkgs="$pkgs $2" ;;
    py:*) /usr/bin/python3 -c "import ${1#py:}" >/dev/null 2>&1 ||
        pkgs="$pkgs $2" ;;
    *) pkg-config --exists "$1" 2>/dev/null || pkgs="$pkgs $2" ;;
    esac
}
command -v pkg-config >/dev/null 2>&1 || pkgs="$pkgs pkg-config"
need cmd:cc gcc
need cmd:make make
need libzmq libzmq3-dev
need msgpack libmsgpack-dev
need cmocka libcmocka-dev
need jansson libjansson-dev
need cmd:gnuplot gnuplot-nox
need cmd:python3 python3
need py:zmq python3-zmq
need py:msgpack python3-msgpack
need py:numpy python3-numpy
need py:pytest python3-pytest
need cmd:node nodejs
need cmd:npm npm
[ -z "$pkgs" ] && exit 0

cmd="apt-get install -y --no-install-recommends$pkgs"
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo"
else
    echo "parlor: missing packages:$pkgs" >&2
    echo "parlor: install them with: sudo apt-get update && sudo $cmd" >&2
    exit 1
fi
echo "parlor: installing missing packages:$pkgs" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2 && $sudo $cmd >&2 || {
    echo "parlor: installing failed; run: apt-get update && $cmd" >&2
    exit 1
}
