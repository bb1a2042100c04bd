#!/bin/bash
set -euo pipefail
cd /app/repo
HERE=$(cd "$(dirname "$0")" && pwd)
MODE=${BACKPORT_MODE:-correct}   # the wrong_*.sh variants reuse this script with another mode

# main commits reverted later on main: both the original and the revert are skipped
reverted=$(git log --format=%B main | sed -n 's/^This reverts commit \([0-9a-f]\{40\}\)\..*/\1/p' | sort -u)

for short in 1.x 2.x; do
  branch=release/$short
  git checkout -q "$branch"
  for c in $(git rev-list --reverse --no-merges "$branch..main"); do
    wanted=$(git log -1 --format='%(trailers:key=Backport,valueonly,separator=%x2C)' "$c" | tr ',' '\n' | tr -d ' ')
    grep -qxF "$short" <<< "$wanted" || continue
    if [ "$MODE" != ignore_revert ] && grep -qxF "$c" <<< "$reverted"; then continue; fi
    subject=$(git log -1 --format=%s "$c")
    # (not `git log | grep -q`: with pipefail, grep quitting early can make the pipeline fail)
    on_branch=$(git log --format=%s "main..$branch")
    if grep -qxF "$subject" <<< "$on_branch"; then continue; fi
    pre=$(git rev-parse HEAD)
    x=-x; [ "$MODE" = no_x ] && x=
    if ! git cherry-pick $x "$c" >/dev/null 2>&1; then
      if [ "$MODE" = theirs ]; then
        git diff --name-only --diff-filter=U | xargs git checkout --theirs --
      else
        python3 "$HERE/port.py" "$pre" "$subject" >/dev/null
      fi
      git add -A
      GIT_EDITOR=true git cherry-pick --continue >/dev/null
    elif [ "$MODE" = correct ]; then
      # a clean pick must still be exactly the port (sanity check of the automatic merge)
      python3 "$HERE/port.py" "$pre" "$subject" >/dev/null
      git diff --quiet || { echo "automatic merge of $subject differs from the port" >&2; git diff >&2; exit 1; }
    fi
  done
done
git checkout -q main
git log --oneline main..release/1.x
git log --oneline main..release/2.x
