#!/bin/bash
# filter-branch over every branch and tag: identities through git check-mailmap (git's own mailmap rules,
# including the name+email entries for the shared address), trailers through the same mapping.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
MODE=${MAILMAP_MODE:-correct}
cp "$HERE/maptrailers.py" /tmp/maptrailers.py
cd /app/repo
cat > /tmp/envfilter.sh <<'SH'
canon() { git -c mailmap.file=/app/identities.mailmap check-mailmap "$1 <$2>"; }
m=$(canon "$GIT_AUTHOR_NAME" "$GIT_AUTHOR_EMAIL"); e=${m##*<}
export GIT_AUTHOR_NAME="${m% <*}" GIT_AUTHOR_EMAIL="${e%>}"
m=$(canon "$GIT_COMMITTER_NAME" "$GIT_COMMITTER_EMAIL"); e=${m##*<}
export GIT_COMMITTER_NAME="${m% <*}" GIT_COMMITTER_EMAIL="${e%>}"
SH
if [ "$MODE" = email_only ]; then
  cat > /tmp/envfilter.sh <<'SH'
map_email() {
  case $1 in
    alice@corp.example|amoreau@home.example|alice@oldcorp.example) echo "Alice Moreau|alice@corp.example" ;;
    ben@corp.example|ben@laptop.local) echo "Ben Okafor|ben@corp.example" ;;
    dev@corp.example) echo "Chen Wei|chen@corp.example" ;;
    *) echo "" ;;
  esac
}
m=$(map_email "$GIT_AUTHOR_EMAIL"); [ -z "$m" ] || export GIT_AUTHOR_NAME="${m%|*}" GIT_AUTHOR_EMAIL="${m#*|}"
m=$(map_email "$GIT_COMMITTER_EMAIL"); [ -z "$m" ] || export GIT_COMMITTER_NAME="${m%|*}" GIT_COMMITTER_EMAIL="${m#*|}"
SH
fi
msgfilter='python3 /tmp/maptrailers.py'
[ "$MODE" = no_trailers ] && msgfilter=cat
FILTER_BRANCH_SQUELCH_WARNING=1 git filter-branch -f --env-filter '. /tmp/envfilter.sh' \
  --msg-filter "$msgfilter" --tag-name-filter cat -- --all >/dev/null 2>&1
git for-each-ref --format='%(refname)' refs/original | while read -r ref; do git update-ref -d "$ref"; done
git checkout -q main
git reset -q --hard
git log --all --format='%h %an <%ae> / %cn <%ce> %s'
