#!/usr/bin/env bash
# Installs llama-cpp-python (with its OpenAI-compatible server) into .venv.
#
# Why: the `openai` policy is tested against a real, independent OpenAI-compatible server
# serving the embedded SmolLM2 GGUF. PyPI has no wheel for llama-cpp-python, so the first run
# compiles one (about 4-5 minutes on 2 cores) and caches it under ~/.cache/termrl/wheels/;
# every later run installs the cached wheel in seconds, and a run that finds it installed
# does nothing.
#
# The build is a plain, portable CPU build: GGML_NATIVE=OFF (the cached wheel must not depend
# on the exact CPU that built it), no BLAS, no multimodal (mtmd) library, which the server
# only loads for image models.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION="${TERMRL_LLAMA_CPP_VERSION:-0.3.36}"
CACHE="${TERMRL_WHEEL_CACHE:-$HOME/.cache/termrl/wheels}"
PY=.venv/bin/python
step() { echo "==> $*"; }

if [ ! -x "$PY" ]; then
  echo "no .venv here: run scripts/setup.sh first" >&2
  exit 1
fi

if "$PY" - "$VERSION" <<'EOF' 2>/dev/null; then
import sys
import llama_cpp, llama_cpp.server.app, uvicorn  # noqa: F401  (the server and its deps import)
sys.exit(0 if llama_cpp.__version__ == sys.argv[1] else 1)
EOF
  exit 0
fi

mkdir -p "$CACHE"
wheel=$(ls "$CACHE"/llama_cpp_python-"$VERSION"-*.whl 2>/dev/null | head -1 || true)
if [ -z "$wheel" ]; then
  step "building llama-cpp-python $VERSION (once; about 4-5 minutes on 2 cores)"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  start=$(date +%s)
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_BLAS=OFF -DGGML_OPENMP=ON -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF" \
  CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
    "$PY" -m pip wheel -q --no-deps "llama-cpp-python==$VERSION" -w "$tmp" >"$tmp/build.log" 2>&1 || {
      echo "building llama-cpp-python $VERSION failed; the end of its log:" >&2
      tail -40 "$tmp/build.log" >&2
      exit 1
    }
  built=$(ls "$tmp"/llama_cpp_python-*.whl | head -1)
  wheel="$CACHE/$(basename "$built")"
  cp "$built" "$wheel.partial" && mv "$wheel.partial" "$wheel"  # never leave a half-copied wheel in the cache
  step "built $(basename "$wheel") in $(( $(date +%s) - start )) s"
fi

step "installing $(basename "$wheel") with its server dependencies"
log=$(mktemp)
"$PY" -m pip install -q "${wheel}[server]" >"$log" 2>&1 || {
  echo "installing $wheel failed:" >&2
  cat "$log" >&2
  rm -f "$log"
  exit 1
}
rm -f "$log"
