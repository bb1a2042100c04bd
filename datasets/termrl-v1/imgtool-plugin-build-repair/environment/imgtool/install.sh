#!/bin/sh
# install.sh PREFIX: copies the built tree (out/) to PREFIX
set -e
cd "$(dirname "$0")"
[ -n "$1" ] || { echo "usage: install.sh PREFIX" >&2; exit 2; }
mkdir -p "$1"
cp -a out/. "$1"/
