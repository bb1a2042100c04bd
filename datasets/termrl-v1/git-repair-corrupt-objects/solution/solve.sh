#!/bin/bash
set -euo pipefail
cd /app/project
tip=$(cat .git/refs/heads/main)
# 1) find objects that fsck cannot read and move corrupt loose files out of the way
git fsck --full > /tmp/fsck.txt 2>&1 || true
for sha in $(grep -oE '(missing|corrupt) (blob|tree|commit) [0-9a-f]{40}' /tmp/fsck.txt | awk '{print $3}' | sort -u) \
           $(grep -oE 'unable to unpack header of \.git/objects/[0-9a-f]{2}/[0-9a-f]{38}' /tmp/fsck.txt | sed 's#.*objects/##; s#/##'); do
  f=".git/objects/${sha:0:2}/${sha:2}"
  [ -f "$f" ] && rm -f "$f"
done
# 2) copy every object the backup still has into this repository
git -C /app/backup cat-file --batch-all-objects --batch-check='%(objectname) %(objecttype)' | while read -r sha type; do
  if ! git cat-file -e "$sha" 2>/dev/null; then
    git -C /app/backup cat-file "$type" "$sha" | git hash-object -w -t "$type" --stdin >/dev/null
  fi
done
# 3) objects that only exist in the working tree (files of the latest commit)
git ls-tree -r "$tip" | while read -r mode type sha path; do
  if ! git cat-file -e "$sha" 2>/dev/null; then
    new=$(git hash-object -w "$path")
    [ "$new" = "$sha" ] || { echo "content mismatch for $path"; exit 1; }
  fi
done
git fsck --full
git log -p main > /dev/null
git status --short
