#!/bin/bash
set -euo pipefail
cd /app/repo
MODE=${EOL_MODE:-correct}
if [ "$MODE" = force_text ]; then
  printf '%s\n' '* text eol=lf' '*.bat text eol=crlf' '*.cmd text eol=crlf' '*.png binary' '*.bin binary' \
    'fixtures/** binary' > .gitattributes
else
  printf '%s\n' '* text=auto' '*.bat text eol=crlf' '*.cmd text eol=crlf' '*.sh text eol=lf' '*.png binary' \
    '*.bin binary' 'fixtures/** binary' > .gitattributes
fi
git add .gitattributes
[ "$MODE" = no_renormalize ] || git add --renormalize .
git commit -q -m "Normalize line endings"
# check every tracked file out again so the working tree follows the attributes
git ls-files -z | xargs -0 rm -f
git checkout -- .
git status --short
git ls-files --eol
