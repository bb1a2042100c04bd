#!/bin/bash
# Mistake: deploys only the renewed leaf (no intermediate); the key is right.
set -euo pipefail
bash /solution/solve.sh
openssl x509 -in /etc/ssl/incoming/api.internal.test-renewed.crt > /etc/tlsapp/fullchain.pem
