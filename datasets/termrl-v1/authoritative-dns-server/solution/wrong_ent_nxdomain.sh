#!/bin/bash
# Mistake: a name only exists if it owns records itself (empty non-terminals become NXDOMAIN).
set -euo pipefail
bash /solution/solve.sh
sed -i 's/    return any(r\[0\] == n or r\[0\].endswith("." + n) for r in RECORDS)/    return any(r[0] == n for r in RECORDS)/' /app/dns/dnsd.py
grep -q 'return any(r\[0\] == n for r in RECORDS)' /app/dns/dnsd.py
