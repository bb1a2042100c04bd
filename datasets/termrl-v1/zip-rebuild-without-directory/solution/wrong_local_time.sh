#!/bin/bash
# Mistake: correct extraction, but leaves the extraction time as mtime (never applies the DOS timestamps).
set -euo pipefail
sed 's/        os.utime(path, (ts, ts))/        pass/' /solution/rebuild.py > /tmp/rebuild.py
mkdir -p /app/restored
python3 /tmp/rebuild.py
