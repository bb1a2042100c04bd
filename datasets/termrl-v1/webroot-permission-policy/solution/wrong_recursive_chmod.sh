#!/bin/bash
# Mistake: one recursive chmod/chown for everything (files get 2775 too) and forgets the secrets exception.
set -euo pipefail
getent group webdev >/dev/null || groupadd webdev
chown -R root:webdev /srv/site
chmod -R 2775 /srv/site
