#!/bin/bash
set -euo pipefail
cp /solution/mend.py /app/mend.py
python3 /app/mend.py /data/image.bsum /data/image.img /data/copies/copy-a.img /data/copies/copy-b.img /data/copies/copy-c.img
