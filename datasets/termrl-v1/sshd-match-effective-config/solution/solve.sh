#!/bin/bash
set -euo pipefail
cp /solution/sshd_eff.py /app/sshd-eff
chmod +x /app/sshd-eff
/app/sshd-eff /app/example-root alice ws1.corp.example 10.1.2.3
