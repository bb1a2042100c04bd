#!/bin/bash
set -euo pipefail
cp /solution/usage.py /app/usage_report
chmod +x /app/usage_report
/app/usage_report /srv/share > /app/share_usage.json
cat /app/share_usage.json
