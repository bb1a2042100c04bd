#!/bin/bash
# Mistake: ignores the size field and decrypts the padding too.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/out = bytearray(blob\[12:12 + size\])/out = bytearray(blob[12:])/' /app/vault_decrypt.py
for f in /app/vault/*.enc; do python3 /app/vault_decrypt.py "$(cat /app/vault_key.txt)" "$f" "/app/decrypted/$(basename "$f" .enc)"; done
