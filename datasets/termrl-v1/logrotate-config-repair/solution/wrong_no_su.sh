#!/bin/bash
# Mistake: fixes the options and file mode but not the insecure-parent-directory problem (no su line).
set -euo pipefail
bash /solution/solve.sh >/dev/null
sed -i '/^    su webapp adm$/d' /etc/logrotate.d/webapp
