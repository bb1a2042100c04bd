#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian machine: Debian packages, the Docker engine,
# the virtual environment, and termrl's local base images. A second run skips
# every finished step in seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo "==> $*"; }

if ! command -v dockerd >/dev/null 2>&1 || ! command -v mmdebstrap >/dev/null 2>&1; then
  step "installing docker.io and mmdebstrap (Debian packages)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io mmdebstrap >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  step "starting dockerd"
  setsid nohup dockerd >/var/log/termrl-dockerd.log 2>&1 </dev/null &
  for _ in $(seq 1 90); do docker info >/dev/null 2>&1 && break; sleep 1; done
  if ! docker info >/dev/null 2>&1; then
    echo "dockerd did not answer within 90 s; its log (/var/log/termrl-dockerd.log) ends with:" >&2
    tail -20 /var/log/termrl-dockerd.log >&2
    exit 1
  fi
fi

if [ ! -x .venv/bin/python ]; then
  step "creating .venv"
  python3 -m venv .venv
fi
stamp=.venv/.termrl-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  step "installing termrl into .venv"
  .venv/bin/pip install -q -e '.[test]'
  touch "$stamp"
fi

step "base images"
.venv/bin/termrl images build
