#!/bin/bash
# Builds the central bare repository /srv/git/project.git deterministically.
set -euo pipefail
export GIT_AUTHOR_NAME="Lena Brandt" GIT_AUTHOR_EMAIL="lena@example.org"
export GIT_COMMITTER_NAME="Lena Brandt" GIT_COMMITTER_EMAIL="lena@example.org"
at() { export GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; }

mkdir -p /srv/git
git init -q --bare -b main /srv/git/project.git
rm -f /srv/git/project.git/hooks/*.sample
work=$(mktemp -d)
git init -q -b main "$work"
cd "$work"
printf 'def area(w, h):\n    return w * h\n' > geometry.py
printf '# geometry\n' > README.md
git add -A && at "2025-03-01T09:00:00" && git commit -q -m "Initial import"
printf '\ndef perimeter(w, h):\n    return 2 * (w + h)\n' >> geometry.py
git add -A && at "2025-03-02T10:00:00" && git commit -q -m "add perimeter (quick hack)"
git tag -a v1.0 -m "Release 1.0"
printf 'Usage: import geometry\n' >> README.md
git add -A && at "2025-03-04T11:00:00" && git commit -q -m "docs: usage line"
git checkout -q -b legacy-experiments
printf '# TODO try numpy\n' >> geometry.py
git add -A && at "2025-03-05T12:00:00" && git commit -q -m "WIP numpy"
git checkout -q main
printf '\ndef square(s):\n    return area(s, s)\n' >> geometry.py
git add -A && at "2025-03-06T09:30:00" && git commit -q -m "feat(shapes): square helper"
git push -q /srv/git/project.git main legacy-experiments v1.0
cd / && rm -rf "$work"
