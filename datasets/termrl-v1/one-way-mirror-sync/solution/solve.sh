#!/bin/bash
set -euo pipefail
cp /solution/mirror.py /app/mirror.py
python3 /app/mirror.py /srv/projects /backup/projects --exclude '*.tmp' --exclude cache
