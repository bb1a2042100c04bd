#!/bin/bash
# Mistake: only looks at the current auth.log and forgets the rotated file.
set -euo pipefail
sed 's#\["/var/log/auth.log.1", "/var/log/auth.log"\]#["/var/log/auth.log"]#' /solution/report.py > /tmp/report.py
python3 /tmp/report.py
