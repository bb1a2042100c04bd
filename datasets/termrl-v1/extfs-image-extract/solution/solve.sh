#!/bin/bash
set -euo pipefail
cp /solution/extfs_extract.py /app/extfs_extract.py
python3 /app/extfs_extract.py /data/disk.img /srv/extracted
