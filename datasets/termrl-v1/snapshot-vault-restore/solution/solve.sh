#!/bin/bash
set -euo pipefail
cp /solution/vault_restore.py /app/vault_restore.py
python3 /app/vault_restore.py /srv/vault 3 /srv/restore3
