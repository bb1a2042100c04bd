#!/bin/bash
set -euo pipefail
cp /solution/merge_accounts.py /app/merge-accounts
chmod +x /app/merge-accounts
/app/merge-accounts /etc /app/oldhost /srv/oldhome
tail -n 6 /etc/passwd
