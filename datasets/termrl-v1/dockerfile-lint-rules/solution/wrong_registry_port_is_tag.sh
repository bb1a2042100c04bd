#!/bin/bash
# Looks for the tag anywhere in the reference: a registry port (host:5000/app) is taken for a tag.
set -euo pipefail
sed 's|last = ref.rsplit("/", 1)\[-1\]|last = ref|' /solution/dflint.py > /app/dflint
grep -q 'last = ref$' /app/dflint
chmod 755 /app/dflint
