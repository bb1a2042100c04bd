#!/bin/bash
# Mistake: percent-decodes only once, so double-encoded traversal slips through.
set -euo pipefail
python3 /solution/report.py --decode-once
