#!/bin/bash
# Mistake: shifts old rotations but never deletes the ones beyond KEEP.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/then rm -f "\$log.\$k.gz"; else/then mv -f "$log.$k.gz" "$log.$((k+1)).gz"; else/; s/if \[ 2 -gt "\$keep" \]; then rm -f "\$log.1"; else/if false; then :; else/' /app/rotate.sh
