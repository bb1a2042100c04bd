#!/bin/bash
# Mistake: fixes everything but keeps listening on 0.0.0.0.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/^bind = 127.0.0.1/bind = 0.0.0.0/' /app/quotesvc/quotesvc.ini
