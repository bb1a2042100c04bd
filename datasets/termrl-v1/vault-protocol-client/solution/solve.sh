#!/bin/bash
set -euo pipefail
cp /solution/vault_client.py /app/vault_client.py
chmod +x /app/vault_client.py
