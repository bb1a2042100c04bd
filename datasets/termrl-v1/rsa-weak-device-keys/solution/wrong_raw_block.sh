#!/bin/bash
# Mistake: writes the whole decrypted block after the 00 02 prefix (padding bytes kept).
set -euo pipefail
sed 's/msg = em\[em.index(b"\\x00", 2) + 1:\]/msg = em[2:]/' /solution/attack.py > /tmp/attack.py
grep -q 'msg = em\[2:\]' /tmp/attack.py
python3 /tmp/attack.py
