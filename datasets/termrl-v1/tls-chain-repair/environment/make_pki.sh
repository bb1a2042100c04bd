#!/bin/bash
# Builds a small PKI with decoys into /etc/ssl/incoming (run once at image build).
set -euo pipefail
W=$(mktemp -d); cd "$W"
OUT=/etc/ssl/incoming; mkdir -p "$OUT"
cat > ca.cnf <<'CNF'
[ ca ]
default_ca = myca
[ myca ]
dir = .
database = index.txt
new_certs_dir = newcerts
serial = serial
default_md = sha256
policy = any
copy_extensions = copy
unique_subject = no
[ any ]
commonName = supplied
organizationName = optional
[ v3_inter ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ v3_leaf ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
CNF
mkdir newcerts; : > index.txt; echo 1000 > serial
# root
openssl req -x509 -newkey rsa:2048 -nodes -keyout root.key -out root.pem -days 3650 \
  -subj "/O=Internal Test/CN=Internal Test Root CA" -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
# real intermediate and decoy intermediate with the same subject
for n in inter decoy; do
  openssl req -new -newkey rsa:2048 -nodes -keyout $n.key -out $n.csr -subj "/O=Internal Test/CN=Internal Test Issuing CA 2" 2>/dev/null
  openssl ca -batch -config ca.cnf -cert root.pem -keyfile root.key -in $n.csr -out $n.pem -days 1825 -extensions v3_inter -notext 2>/dev/null
done
leaf() { # name cn san start end
  openssl req -new -newkey rsa:2048 -nodes -keyout $1.key -out $1.csr -subj "/O=Internal Test/CN=$2" -addext "subjectAltName=$3" 2>/dev/null
  openssl ca -batch -config ca.cnf -cert inter.pem -keyfile inter.key -in $1.csr -out $1.pem -startdate $4 -enddate $5 -extensions v3_leaf -notext 2>/dev/null
}
leaf api_old api.internal.test "DNS:api.internal.test" 20220101000000Z 20230101000000Z
leaf api_new api.internal.test "DNS:api.internal.test,DNS:api" 20240101000000Z 20390101000000Z
leaf www www.internal.test "DNS:www.internal.test" 20240101000000Z 20390101000000Z
cp root.pem $OUT/root-ca.pem
openssl x509 -in inter.pem -outform DER -out $OUT/issuing-ca-2.der
cat decoy.pem root.pem > $OUT/ca-bundle-legacy.pem
cp api_old.pem $OUT/api.internal.test.pem
cp api_new.pem $OUT/api.internal.test-renewed.crt
cp www.pem $OUT/www.internal.test.pem
openssl pkey -in api_old.key -out $OUT/key-1.pem
openssl pkey -in api_new.key -aes256 -passout pass:Winter-Rotation-2024 -out $OUT/key-2.pem
openssl pkey -in www.key -out $OUT/key-3.pem
cat > $OUT/NOTES.txt <<'TXT'
Renewal drop from the PKI team. Keys are exported the usual way; the encrypted one uses
the passphrase Winter-Rotation-2024. The legacy bundle is what we used before the CA re-key.
TXT
# initial (broken) deployment: expired leaf alone, and an encrypted key that does not match it
mkdir -p /etc/tlsapp
cp api_old.pem /etc/tlsapp/fullchain.pem
cp $OUT/key-2.pem /etc/tlsapp/privkey.pem
chmod 644 /etc/tlsapp/privkey.pem
cd /; rm -rf "$W"
