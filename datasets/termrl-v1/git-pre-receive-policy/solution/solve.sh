#!/bin/bash
set -euo pipefail
install -m 755 /solution/pre-receive.py /srv/git/project.git/hooks/pre-receive
