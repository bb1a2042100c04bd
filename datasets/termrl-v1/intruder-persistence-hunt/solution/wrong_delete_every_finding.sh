#!/bin/bash
# Mistake: finds the right files but "cleans" by deleting every one of them, including the legitimate
# files the intruder only modified (/etc/passwd, /root/.bashrc, a package script, ...).
set -euo pipefail
sed -e 's/^for h in created:$/for h in sorted(created | set(modified)):/' \
    -e 's/^for h, lines in modified.items():$/for h, lines in {}.items():/' /solution/solve.sh > /tmp/wrong.sh
grep -q 'sorted(created | set(modified))' /tmp/wrong.sh
bash /tmp/wrong.sh
