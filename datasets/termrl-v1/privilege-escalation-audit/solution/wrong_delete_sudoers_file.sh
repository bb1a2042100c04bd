#!/bin/bash
# Mistake: deletes the whole sudoers drop-in (losing maria's legitimate journalctl rule).
set -euo pipefail
bash /solution/solve.sh >/dev/null
rm -f /etc/sudoers.d/90-temp-access
