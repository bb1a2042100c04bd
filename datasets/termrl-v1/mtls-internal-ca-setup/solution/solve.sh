#!/bin/bash
set -euo pipefail
umask 077
mkdir -p /etc/internal-ca
cat > /etc/internal-ca/openssl.cnf <<'CNF'
[req]
distinguished_name = dn
prompt = no
[dn]
CN = Greeter Internal CA
[v3_ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:greeter.internal, DNS:localhost, IP:127.0.0.1
authorityKeyIdentifier = keyid
[client]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
CNF
cd /etc/internal-ca
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ca.key
chmod 600 ca.key
openssl req -x509 -new -key ca.key -sha256 -days 3650 -config openssl.cnf -extensions v3_ca -out ca.crt
chmod 644 ca.crt

openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out /etc/greeter/server.key
chmod 600 /etc/greeter/server.key
openssl req -new -key /etc/greeter/server.key -subj "/CN=greeter.internal" -out /tmp/server.csr
openssl x509 -req -in /tmp/server.csr -CA ca.crt -CAkey ca.key -set_serial "0x$(openssl rand -hex 16)" \
    -days 365 -sha256 -extfile openssl.cnf -extensions server -out /etc/greeter/server.crt
chmod 644 /etc/greeter/server.crt
rm -f /tmp/server.csr

cat > /etc/greeter/tls.ini <<'INI'
; TLS settings of the greeter service (see /app/greeter/greeter.py)
[tls]
certificate = /etc/greeter/server.crt
private_key = /etc/greeter/server.key
client_ca = /etc/internal-ca/ca.crt
INI
chmod 644 /etc/greeter/tls.ini

cat > /usr/local/bin/issue-client-cert <<'SH'
#!/bin/bash
# issue-client-cert NAME OUTDIR: a client key and certificate signed by the internal CA.
set -euo pipefail
if [ $# -ne 2 ] || ! [[ "$1" =~ ^[A-Za-z0-9._-]{1,40}$ ]]; then
    echo "usage: issue-client-cert NAME OUTDIR (NAME: 1-40 of A-Z a-z 0-9 . _ -)" >&2
    exit 2
fi
name=$1 out=$2
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
umask 077
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$tmp/key.pem" 2>/dev/null
openssl req -new -key "$tmp/key.pem" -subj "/CN=$name" -out "$tmp/req.csr"
openssl x509 -req -in "$tmp/req.csr" -CA /etc/internal-ca/ca.crt -CAkey /etc/internal-ca/ca.key \
    -set_serial "0x$(openssl rand -hex 16)" -days 30 -sha256 \
    -extfile /etc/internal-ca/openssl.cnf -extensions client -out "$tmp/cert.pem" 2>/dev/null
install -m 600 "$tmp/key.pem" "$out/$name.key"
install -m 644 "$tmp/cert.pem" "$out/$name.crt"
SH
chmod 755 /usr/local/bin/issue-client-cert
