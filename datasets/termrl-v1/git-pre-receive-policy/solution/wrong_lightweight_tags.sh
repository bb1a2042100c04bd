#!/bin/bash
# Mistake: protects existing release tags but accepts new lightweight ones.
set -euo pipefail
sed 's|if new != ZERO and git("cat-file", "-t", new).strip() != "tag":|if False:|' \
    /solution/pre-receive.py > /srv/git/project.git/hooks/pre-receive
grep -q 'if False:' /srv/git/project.git/hooks/pre-receive
chmod 755 /srv/git/project.git/hooks/pre-receive
