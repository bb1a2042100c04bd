#!/bin/bash
# Mistake: "fixes" python3 by dropping /opt/legacy/bin from PATH entirely.
set -euo pipefail
bash /solution/solve.sh >/dev/null
rm -f /etc/profile.d/10-legacy.sh
