#!/bin/bash
# Mistake: the server certificate names only the DNS names, so clients that connect to 127.0.0.1 and
# verify the address reject it.
set -euo pipefail
sed 's/subjectAltName = DNS:greeter.internal, DNS:localhost, IP:127.0.0.1/subjectAltName = DNS:greeter.internal, DNS:localhost/' \
    /solution/solve.sh > /tmp/solve_variant.sh
grep -q 'DNS:localhost$' /tmp/solve_variant.sh
bash /tmp/solve_variant.sh
