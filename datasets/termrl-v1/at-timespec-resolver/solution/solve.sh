#!/bin/bash
set -euo pipefail
cp /solution/when.py /app/when
chmod +x /app/when
/app/when 'teatime tomorrow + 1 month' --now '2027-01-30 09:15'
