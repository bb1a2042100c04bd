#!/bin/bash
# Plausible mistake: groups by content only, so files with different modes get merged.
set -euo pipefail
sed 's/key = (h.hexdigest(), st.st_size, stat.S_IMODE(st.st_mode))/key = (h.hexdigest(), st.st_size)/' /solution/dedupe.py > /app/dedupe.py
python3 /app/dedupe.py /data
