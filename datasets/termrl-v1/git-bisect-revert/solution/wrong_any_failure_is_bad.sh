#!/bin/bash
# Mistake: treats a commit that cannot run at all as "bad" instead of skipping it.
set -euo pipefail
cd /app/repo
cat > /tmp/check.sh <<'SH'
#!/bin/bash
total=$(python3 -m invoice sample.csv 2>/dev/null | grep '^TOTAL')
[ "$total" = "TOTAL                    31.11" ]
SH
chmod +x /tmp/check.sh
git bisect start main v1.0
git bisect run /tmp/check.sh > /tmp/bisect.log
bad=$(git rev-parse refs/bisect/bad)
git bisect reset >/dev/null
echo "$bad" > /app/first_bad_commit.txt
git checkout -q main
git revert --no-edit "$bad" || { git revert --abort; true; }
