#!/bin/bash
# Mistake: read-only accounts are only refused STOR; MKD, RMD and DELE still change the tree.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/^WRITE_CMDS = {"STOR", "MKD", "RMD", "DELE"}/WRITE_CMDS = {"STOR"}/' /app/ftpd/ftpd.py
grep -q '^WRITE_CMDS = {"STOR"}' /app/ftpd/ftpd.py
