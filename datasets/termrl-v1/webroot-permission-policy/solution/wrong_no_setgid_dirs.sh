#!/bin/bash
# Mistake: forgets the setgid bit on directories (uses 0775).
set -euo pipefail
bash /solution/solve.sh
find /srv/site -type d -exec chmod g-s {} +
