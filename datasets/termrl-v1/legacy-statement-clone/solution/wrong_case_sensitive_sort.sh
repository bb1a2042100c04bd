#!/bin/bash
# Mistake: orders accounts by their raw names (upper case before lower case).
set -euo pipefail
sed 's/key=lambda a: (a.lower(), a))/key=lambda a: a)/' /solution/stmt.py > /app/stmt.py
grep -q "key=lambda a: a)" /app/stmt.py
