#!/bin/bash
# Mistake: counts every hard link as a separate file.
set -euo pipefail
sed 's/            if key in seen:/            if False:/' /solution/usage.py > /app/usage_report
chmod +x /app/usage_report
/app/usage_report /srv/share > /app/share_usage.json
