#!/bin/bash
# Mistake: the usual "old..new" range; for a new branch (old = 0) it checks the branch's whole history,
# so old commits that predate the policy block every new branch.
set -euo pipefail
sed 's|for commit in git("rev-list", new, "--not", "--all").split():|for commit in git("rev-list", new if old == ZERO else f"{old}..{new}").split():|' \
    /solution/pre-receive.py > /srv/git/project.git/hooks/pre-receive
grep -q 'new if old == ZERO' /srv/git/project.git/hooks/pre-receive
chmod 755 /srv/git/project.git/hooks/pre-receive
