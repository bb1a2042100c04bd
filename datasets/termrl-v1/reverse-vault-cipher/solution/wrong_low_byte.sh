#!/bin/bash
# Mistake: recovered plaintexts once (e.g. by hand) but the tool uses the low keystream byte instead of bits 11..18.
set -euo pipefail
bash /solution/solve.sh
sed -i 's/out\[i\] ^= (s >> 11) \& 0xFF/out[i] ^= s \& 0xFF/' /app/vault_decrypt.py
