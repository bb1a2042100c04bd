#!/bin/bash
set -euo pipefail
IN=/etc/ssl/incoming
openssl x509 -inform DER -in $IN/issuing-ca-2.der -out /tmp/inter.pem
# sanity: the renewed leaf verifies through this intermediate
openssl verify -CAfile $IN/root-ca.pem -untrusted /tmp/inter.pem $IN/api.internal.test-renewed.crt
openssl x509 -in $IN/api.internal.test-renewed.crt > /etc/tlsapp/fullchain.pem
cat /tmp/inter.pem >> /etc/tlsapp/fullchain.pem
# find the key that matches the leaf
want=$(openssl x509 -in $IN/api.internal.test-renewed.crt -noout -pubkey)
for k in $IN/key-*.pem; do
  got=$(openssl pkey -in "$k" -passin pass:Winter-Rotation-2024 -pubout 2>/dev/null || true)
  if [ "$got" = "$want" ]; then
    ( umask 077; openssl pkey -in "$k" -passin pass:Winter-Rotation-2024 -out /etc/tlsapp/privkey.pem )
  fi
done
chmod 600 /etc/tlsapp/privkey.pem
