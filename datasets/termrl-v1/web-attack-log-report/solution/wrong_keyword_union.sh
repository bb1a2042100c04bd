#!/bin/bash
# Mistake: flags any target mentioning "union" or "select" (false positives on normal searches).
set -euo pipefail
sed 's/SQLI = \["union select",/SQLI = ["union", "select",/' /solution/report.py > /tmp/report.py
python3 /tmp/report.py
