#!/bin/bash
# Mistake: moves the live log away and creates a new file (new inode) instead of copy+truncate.
set -euo pipefail
bash /solution/solve.sh >/dev/null 2>&1 || true
sed -i 's/^  cp -p "\$log" "\$log.1"$/  mv "$log" "$log.1"; touch "$log"/; s/^  : > "\$log"$/  chmod --reference="$log.1" "$log"/' /app/rotate.sh
# redo the real rotation from a clean state is impossible; the tests exercise the script on fresh dirs
