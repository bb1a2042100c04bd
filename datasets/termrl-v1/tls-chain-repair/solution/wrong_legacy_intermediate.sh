#!/bin/bash
# Mistake: takes the intermediate with the right name from the legacy bundle (a different, re-keyed CA).
set -euo pipefail
bash /solution/solve.sh
IN=/etc/ssl/incoming
openssl x509 -in $IN/api.internal.test-renewed.crt > /etc/tlsapp/fullchain.pem
openssl x509 -in $IN/ca-bundle-legacy.pem >> /etc/tlsapp/fullchain.pem
