#!/bin/bash
# Mistake: hashes the login as stored (no lower-casing), so mixed-case operators are never cracked.
set -euo pipefail
sed 's/login.lower().encode()/login.encode()/' /solution/crack.py > /tmp/crack.py
python3 /tmp/crack.py
