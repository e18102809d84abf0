#!/bin/sh
# Makes the test-only certificates in Tests/Fixtures/tls (docs/reliability.md,
# "TLS and the real services"). Needs the openssl command (Debian: openssl).
#
#   ca.pem           a test certificate authority that only the tests trust
#   server.pem       127.0.0.1 and localhost, signed by that authority (cert + key)
#   wrong-name.pem   wrong-name.invalid, signed by it (cert + key)
#   expired.pem      127.0.0.1 and localhost, signed by it, expired in 2001 (cert + key)
#   self-signed.pem  127.0.0.1 and localhost, signed by itself (cert + key)
#
# The authority's key is thrown away, so nothing else can ever be signed with it;
# run the script again to make a new set (all files change together).
set -eu

out="${1:-$(dirname "$0")/../Tests/Fixtures/tls}"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT INT TERM

# Fixed dates, valid from 2020 to the end of 2099 (a clock somewhat wrong still
# accepts them); the expired one lived in 2000 only.
valid="-startdate 20200101000000Z -enddate 20991231235959Z"
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

cat >"$work/ca.cnf" <<'EOF'
[ca]
default_ca = test_ca
[test_ca]
dir = .
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = anything
copy_extensions = none
unique_subject = no
[anything]
commonName = supplied
[loopback]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, DNS:localhost
[authority]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[wrong_name]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:wrong-name.invalid
EOF

cd "$work"
: >index.txt
echo 1000 >serial

# request NAME COMMON-NAME: a new key and a certificate request for it
request() {
    key "$1.key"
    openssl req -new -key "$1.key" -subj "/CN=$2" -out "$1.csr"
}
# issue NAME EXTENSIONS [openssl ca options...]: NAME.pem holds the certificate, then its key
issue() {
    name=$1; ext=$2; shift 2
    openssl ca -batch -config ca.cnf -extensions "$ext" -notext -in "$name.csr" -out "$name.crt" "$@" 2>/dev/null
    cat "$name.crt" "$name.key" >"$name.pem"
}

# $valid is split into options on purpose (unquoted below).
request ca "vtourist test CA"
openssl ca -batch -config ca.cnf -selfsign -keyfile ca.key -extensions authority -notext \
    -in ca.csr -out ca.pem $valid 2>/dev/null
request server 127.0.0.1
issue server loopback -cert ca.pem -keyfile ca.key $valid
request wrong-name wrong-name.invalid
issue wrong-name wrong_name -cert ca.pem -keyfile ca.key $valid
request expired 127.0.0.1
issue expired loopback -cert ca.pem -keyfile ca.key -startdate 20000101000000Z -enddate 20010101000000Z
request self-signed 127.0.0.1
issue self-signed loopback -selfsign -keyfile self-signed.key $valid

cd - >/dev/null
for f in ca server wrong-name expired self-signed; do cp "$work/$f.pem" "$out/$f.pem"; done
echo "wrote $(cd "$out" && pwd): ca.pem server.pem wrong-name.pem expired.pem self-signed.pem"
