#!/bin/bash
# Mistake: an unanchored pattern containing "/" is matched against the whole path only, as if it were
# anchored, so lib/*.so misses opt/lib/x.so.
set -euo pipefail
sed 's/            return any(self.rx.fullmatch(path\[i + 1:\]) for i, c in enumerate(path) if c == "\/")/            return False/' /solution/fselect.py > /app/fselect
chmod +x /app/fselect
/app/fselect /srv/data /app/backup.rules > /app/selection.txt
