#!/bin/bash
# Mistake: git subtree split on the current path only; the history from before the directory moved is lost
# (the first commit is the move, carrying the whole parser), and v0.1 has no counterpart.
set -euo pipefail
cd /app/calcapp
tip=$(git subtree split -q --prefix=libs/parser main)
rm -rf /app/parser-lib
git init -q -b main /app/parser-lib
git update-ref refs/tmp/parser-lib "$tip"
git -C /app/parser-lib fetch -q /app/calcapp refs/tmp/parser-lib
git -C /app/parser-lib reset -q --hard FETCH_HEAD
git -C /app/parser-lib tag v0.2 "$tip"
git -C /app/parser-lib tag v0.1 "$(git -C /app/parser-lib rev-list --max-parents=0 HEAD)"
git update-ref -d refs/tmp/parser-lib
git rm -r -q libs/parser
rm -rf libs/parser
git -c protocol.file.allow=always submodule add -q /app/parser-lib libs/parser
git commit -q -m "Use the parser library as a submodule"
