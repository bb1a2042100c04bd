#!/bin/bash
# Builds a small sample certificate store (the tests use other, freshly generated stores).
set -e
D=$1; mkdir -p "$D/web" "$D/legacy"; cd "$D"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out web/site.key 2>/dev/null
openssl req -x509 -new -key web/site.key -subj "/O=Sample Org/CN=www.sample.test" -days 398 \
  -addext "subjectAltName=DNS:www.sample.test,DNS:sample.test" -set_serial 0x1a2b -out web/site.crt 2>/dev/null
openssl genrsa -traditional -out legacy/old.key 1024 2>/dev/null
openssl req -x509 -new -key legacy/old.key -sha1 -subj "/CN=old-vpn" -days 30 -set_serial 7 \
  -outform DER -out legacy/old.cer 2>/dev/null
printf 'certificates exported from the old load balancer, 2024\n' > README.txt
