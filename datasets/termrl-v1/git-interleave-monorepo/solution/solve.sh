#!/bin/bash
set -euo pipefail
git init -q -b main /app/mono
cd /app/mono
git fetch -q /app/frontend main:refs/src/frontend
git fetch -q /app/backend main:refs/src/backend
# every source commit with its author date (unix) and side
list=$( (git log --format="%at %H frontend" refs/src/frontend; git log --format="%at %H backend" refs/src/backend) | sort -n)
declare -A tip
parent=""
while read -r ts sha side; do
  tip[$side]=$sha
  export GIT_INDEX_FILE=/tmp/mono-index
  rm -f "$GIT_INDEX_FILE"
  for s in frontend backend; do
    if [ -n "${tip[$s]:-}" ]; then git read-tree --prefix="$s/" "${tip[$s]}^{tree}"; fi
  done
  tree=$(git write-tree)
  unset GIT_INDEX_FILE
  export GIT_AUTHOR_NAME="$(git log -1 --format=%an "$sha")"
  export GIT_AUTHOR_EMAIL="$(git log -1 --format=%ae "$sha")"
  export GIT_AUTHOR_DATE="$(git log -1 --format=%ad --date=raw "$sha")"
  export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL" GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
  msgfile=$(mktemp)
  # keep the message exactly as stored in the original commit
  git cat-file commit "$sha" | sed '1,/^$/d' > "$msgfile"
  if [ -n "$parent" ]; then
    parent=$(git commit-tree "$tree" -p "$parent" -F "$msgfile")
  else
    parent=$(git commit-tree "$tree" -F "$msgfile")
  fi
  rm -f "$msgfile"
done <<< "$list"
git update-ref refs/heads/main "$parent"
git for-each-ref --format='%(refname)' refs/src | xargs -n1 git update-ref -d
git checkout -q -f main
git log --format='%h %ad %an %s' --date=short
