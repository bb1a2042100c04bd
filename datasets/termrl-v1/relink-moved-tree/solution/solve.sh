#!/bin/bash
set -euo pipefail
cp /solution/relink.py /app/relink.py
python3 /app/relink.py /srv/app /opt/legacy/app
