#!/bin/bash
# The fixed script: health check from the release directory, shared paths read line by line, existing IDs
# refused, atomic symlink swap (ln -s to a temporary name + mv -T), pruning by deploy order with arithmetic
# that cannot trip set -e, and rollback walking back from the current release through deploy.log.
set -euo pipefail
cp "$(dirname "$0")/deploy_fixed.bash" /app/deploy.sh
chmod +x /app/deploy.sh
