#!/bin/bash
# Mistake: converts the files by hand and relies on the local core.autocrlf setting instead of attributes;
# nothing travels with the repository, so clones and new files are not covered.
set -euo pipefail
cd /app/repo
git config core.autocrlf input
for f in $(git ls-files); do
  case $f in fixtures/*|*.png|*.bin|*.pdf|*utf16*) continue ;; esac
  sed -i 's/\r$//' "$f"
done
for f in $(git ls-files '*.bat' '*.cmd'); do sed -i 's/$/\r/' "$f"; done
printf '# line endings are handled by core.autocrlf=input\n' > .gitattributes
git add -A
git commit -q -m "Normalize line endings"
