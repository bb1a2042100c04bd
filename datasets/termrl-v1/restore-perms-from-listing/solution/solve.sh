#!/bin/bash
set -euo pipefail
cp /solution/restore_perms.py /app/restore_perms.py
python3 /app/restore_perms.py /root/share.ls
