#!/bin/bash
set -euo pipefail
getent group webdev >/dev/null || groupadd webdev
R=/srv/site
find $R \( -type d -o -type f \) -exec chown root:webdev {} +
find $R -type d -exec chmod 2775 {} +
find $R -type f -exec chmod 0664 {} +
find $R/bin -maxdepth 1 -type f -name '*.sh' -exec chmod 0775 {} +
chown root:www-data $R/config/secrets.env
chmod 0640 $R/config/secrets.env
