#!/bin/bash
set -euo pipefail
cp /solution/sysctl_merge.py /app/sysctl-merge
chmod +x /app/sysctl-merge
/app/sysctl-merge /app/sysroot > /app/effective.conf
cat /app/effective.conf
