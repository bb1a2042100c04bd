#!/bin/bash
set -euo pipefail
install -m 755 /solution/sweep.py /app/sweep.py
python3 /app/sweep.py /srv/www
