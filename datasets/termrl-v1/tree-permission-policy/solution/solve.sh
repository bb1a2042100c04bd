#!/bin/bash
set -euo pipefail
cp /solution/permpolicy.py /app/permpolicy
chmod +x /app/permpolicy
/app/permpolicy /app/site.policy /srv/site
