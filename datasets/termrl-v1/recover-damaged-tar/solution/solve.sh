#!/bin/bash
set -euo pipefail
mkdir -p /app/recovered
python3 /solution/carve.py
cat /app/unrecoverable.txt
cd /app/recovered && sha256sum -c --quiet --ignore-missing /app/backup/manifest.sha256
