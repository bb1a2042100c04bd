#!/bin/bash
# Rebuild the parser's history with commit-tree: for every commit of main, take the tree of whichever
# parser directory exists; skip commits where that tree did not change; keep author, committer and message.
set -euo pipefail
cd /app/calcapp
MODE=${EXTRACT_MODE:-correct}
declare -A map
prev_tree="" prev_new=""
for c in $(git rev-list --reverse main); do
  tree=$(git rev-parse -q --verify "$c:libs/parser" 2>/dev/null || git rev-parse -q --verify "$c:parser" 2>/dev/null || true)
  if [ -z "$tree" ]; then continue; fi
  if [ "$tree" = "$prev_tree" ] && [ "$MODE" != keep_empty ]; then map[$c]=$prev_new; continue; fi
  git cat-file commit "$c" | sed '1,/^$/d' > /tmp/msg
  export GIT_AUTHOR_NAME="$(git log -1 --format=%an "$c")" GIT_AUTHOR_EMAIL="$(git log -1 --format=%ae "$c")"
  export GIT_AUTHOR_DATE="$(git log -1 --format=%ad --date=raw "$c")"
  export GIT_COMMITTER_NAME="$(git log -1 --format=%cn "$c")" GIT_COMMITTER_EMAIL="$(git log -1 --format=%ce "$c")"
  export GIT_COMMITTER_DATE="$(git log -1 --format=%cd --date=raw "$c")"
  if [ -n "$prev_new" ]; then
    new=$(git commit-tree "$tree" -p "$prev_new" -F /tmp/msg)
  else
    new=$(git commit-tree "$tree" -F /tmp/msg)
  fi
  map[$c]=$new; prev_tree=$tree; prev_new=$new
done
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE
git update-ref refs/tmp/parser-lib "$prev_new"

rm -rf /app/parser-lib
git init -q -b main /app/parser-lib
git -C /app/parser-lib fetch -q /app/calcapp refs/tmp/parser-lib
git -C /app/parser-lib reset -q --hard FETCH_HEAD
for t in parser-v0.1 parser-v0.2; do
  orig=$(git rev-parse "$t^{commit}")
  git -C /app/parser-lib tag "${t#parser-}" "${map[$orig]}"
done
git update-ref -d refs/tmp/parser-lib

git rm -r -q libs/parser
rm -rf libs/parser
git -c protocol.file.allow=always submodule add -q /app/parser-lib libs/parser
git commit -q -m "Use the parser library as a submodule"
git -C /app/calcapp submodule status
git -C /app/parser-lib log --oneline --decorate
