#!/bin/bash
set -euo pipefail
gcc -O2 -o /tmp/brute /solution/brute.c
key=""
for f in /app/vault/*.enc; do
  cands=$(/tmp/brute "$f")
  if [ -z "$key" ]; then key="$cands"; else key=$(comm -12 <(echo "$key" | sort) <(echo "$cands" | sort)); fi
done
[ "$(echo "$key" | wc -l)" -eq 1 ]
echo "$key" > /app/vault_key.txt
cp /solution/vault_decrypt.py /app/vault_decrypt.py
mkdir -p /app/decrypted
for f in /app/vault/*.enc; do
  b=$(basename "$f" .enc)
  python3 /app/vault_decrypt.py "$key" "$f" "/app/decrypted/$b"
done
ls -la /app/decrypted; cat /app/vault_key.txt
