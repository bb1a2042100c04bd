#!/bin/bash
# Mistake: checks only the tip commit of each pushed ref, so a bad commit in the middle of a push slips through.
set -euo pipefail
sed 's|for commit in git("rev-list", new, "--not", "--all").split():|for commit in [git("rev-parse", new + "^{commit}").strip()] if git("rev-list", new, "--not", "--all").strip() else []:|' \
    /solution/pre-receive.py > /srv/git/project.git/hooks/pre-receive
grep -q 'rev-parse", new' /srv/git/project.git/hooks/pre-receive
chmod 755 /srv/git/project.git/hooks/pre-receive
