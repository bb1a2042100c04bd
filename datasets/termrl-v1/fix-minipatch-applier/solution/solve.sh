#!/bin/bash
# The fixed tool: counts default to 1, the no-newline marker applies to the side of the line before it,
# placement searches both directions from the expected position moved by the previous hunk's offset and
# never before the previous hunk's end, files are written only when every hunk applied, deletions remove
# the file, creations make parent directories, and the whole patch is parsed before anything is touched.
set -euo pipefail
cp "$(dirname "$0")/minipatch.py" /app/minipatch.py
