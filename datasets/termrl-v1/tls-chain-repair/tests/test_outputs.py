import os
import re
import signal
import socket
import ssl
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

ROOT = "/etc/ssl/incoming/root-ca.pem"
CHAIN = Path("/etc/tlsapp/fullchain.pem")
KEY = Path("/etc/tlsapp/privkey.pem")
PEM_RE = re.compile(r"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----\n?", re.S)


def ossl(*args, inp=None):
    return subprocess.run(["openssl", *args], input=inp, capture_output=True, text=True, timeout=30)


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    text = CHAIN.read_text()
    blocks = PEM_RE.findall(text)
    d = tmp_path_factory.mktemp("c")
    paths = []
    for i, b in enumerate(blocks):
        p = d / f"c{i}.pem"
        p.write_text(b if b.endswith("\n") else b + "\n")
        paths.append(str(p))
    return paths


def test_chain_has_leaf_then_issuer(certs):
    assert len(certs) == 2, f"expected 2 certificates, found {len(certs)}"
    subj = ossl("x509", "-in", certs[0], "-noout", "-subject").stdout
    assert "api.internal.test" in subj
    r = ossl("verify", "-CAfile", ROOT, "-untrusted", certs[1], certs[0])
    assert r.returncode == 0, r.stdout + r.stderr
    root_fp = ossl("x509", "-in", ROOT, "-noout", "-fingerprint").stdout
    assert ossl("x509", "-in", certs[1], "-noout", "-fingerprint").stdout != root_fp


def test_leaf_is_current(certs):
    r = ossl("x509", "-in", certs[0], "-noout", "-checkend", str(30 * 86400))
    assert r.returncode == 0, "leaf certificate is expired or about to expire"
    r = ossl("x509", "-in", certs[0], "-noout", "-ext", "subjectAltName")
    assert "DNS:api.internal.test" in r.stdout


def test_key_matches_unencrypted_0600(certs):
    assert stat.S_IMODE(KEY.stat().st_mode) == 0o600
    r = ossl("pkey", "-in", str(KEY), "-passin", "pass:", "-pubout")
    assert r.returncode == 0, "key is not a readable unencrypted PEM key"
    assert "ENCRYPTED" not in KEY.read_text()
    leaf_pub = ossl("x509", "-in", certs[0], "-noout", "-pubkey").stdout
    assert r.stdout == leaf_pub


@pytest.fixture(scope="module")
def service():
    proc = subprocess.Popen(["bash", "/app/tlsapp/run.sh"], start_new_session=True, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # A hang guard for the start-up, not a speed bar: a loaded machine may be slow.
    deadline = time.time() + 60
    up = False
    while time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", 8443), timeout=0.5).close()
            up = True
            break
        except OSError:
            time.sleep(0.1)
    yield up
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def test_service_validates_for_hostname(service):
    assert service, "service did not start"
    ctx = ssl.create_default_context(cafile=ROOT)
    with socket.create_connection(("127.0.0.1", 8443), timeout=5) as raw:
        with ctx.wrap_socket(raw, server_hostname="api.internal.test") as s:
            s.sendall(b"GET /health HTTP/1.0\r\nHost: api.internal.test\r\n\r\n")
            data = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
    assert data.startswith(b"HTTP/1.0 200") and data.endswith(b"api ok\n")


def test_service_sends_two_cert_chain(service):
    assert service, "service did not start"
    r = subprocess.run(["openssl", "s_client", "-connect", "127.0.0.1:8443", "-servername", "api.internal.test",
                        "-CAfile", ROOT, "-showcerts", "-verify_return_error"],
                       input="", capture_output=True, text=True, timeout=20)
    assert r.stdout.count("-----BEGIN CERTIFICATE-----") == 2
    assert "Verify return code: 0 (ok)" in r.stdout


def test_config_points_to_deployment():
    import configparser
    c = configparser.ConfigParser()
    c.read("/app/tlsapp/tls.conf")
    assert c["tls"]["certificate"] == str(CHAIN) and c["tls"]["private_key"] == str(KEY)
    assert c["tls"].getint("port") == 8443 and c["tls"].get("bind") == "127.0.0.1"
