#!/bin/bash
# Plausible mistake: reports the size of every replaced path, even when the inode is still linked elsewhere.
set -euo pipefail
sed 's/            if remaining\[st.st_ino\] == 0:/            if True:/' /solution/dedupe.py > /app/dedupe.py
python3 /app/dedupe.py /data
