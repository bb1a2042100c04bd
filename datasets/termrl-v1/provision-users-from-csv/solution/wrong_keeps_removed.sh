#!/bin/bash
# Mistake: skips "removed" rows instead of deleting the account,
# leaving the old account, group and home behind.
set -euo pipefail
sed -e 's/if r\["status"\] == "removed":/if r["status"] == "removed":\n        continue/' /solution/provision.py > /tmp/p.py
python3 /tmp/p.py
