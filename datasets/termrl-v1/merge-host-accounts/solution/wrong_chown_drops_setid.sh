#!/bin/bash
# Mistake: plain chown of every entry; the kernel clears setuid/setgid bits on chown and they are
# never put back.
set -euo pipefail
sed 's/^                os.chmod(path, stat.S_IMODE(st.st_mode))$/                pass/' /solution/merge_accounts.py > /app/merge-accounts
chmod +x /app/merge-accounts
/app/merge-accounts /etc /app/oldhost /srv/oldhome
