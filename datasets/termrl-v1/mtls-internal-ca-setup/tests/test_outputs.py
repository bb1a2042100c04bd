"""The greeter is started here with the configured TLS files; client names and a rogue CA are generated here."""
import os
import random
import re
import signal
import socket
import ssl
import stat
import subprocess
import tempfile
import threading
import time

import pytest

RNG = random.Random(5280)
CA_CRT, CA_KEY = "/etc/internal-ca/ca.crt", "/etc/internal-ca/ca.key"
SRV_CRT, SRV_KEY = "/etc/greeter/server.crt", "/etc/greeter/server.key"
OUT = tempfile.mkdtemp(prefix="clients")
NAMES = ["".join(RNG.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)) + RNG.choice(["", ".ops", "_ci", "-7"])
         for _ in range(3)]


def sh(*cmd, check=True):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if check:
        assert p.returncode == 0, (cmd, p.stderr[-500:])
    return p


def x509_text(path):
    return sh("openssl", "x509", "-in", path, "-noout", "-text").stdout


def dates(path):
    out = sh("openssl", "x509", "-in", path, "-noout", "-startdate", "-enddate").stdout
    d = dict(line.split("=", 1) for line in out.strip().splitlines())
    return ssl.cert_time_to_seconds(d["notBefore"]), ssl.cert_time_to_seconds(d["notAfter"])


def key_ok(path):
    text = sh("openssl", "pkey", "-in", path, "-noout", "-text").stdout
    bits = int(re.search(r"Private-Key: \((\d+) bit", text).group(1))
    return bits >= 256 if "ASN1 OID" in text or "NIST CURVE" in text else bits >= 2048


def issue(name, out=OUT):
    if not os.access("/usr/local/bin/issue-client-cert", os.X_OK):
        return subprocess.CompletedProcess([], 127, "", "issue-client-cert is missing")
    return subprocess.run(["/usr/local/bin/issue-client-cert", name, out], capture_output=True, text=True, timeout=120)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def clients():
    made = {}
    for n in NAMES:
        p = issue(n)
        if p.returncode == 0:
            made[n] = (os.path.join(OUT, n + ".crt"), os.path.join(OUT, n + ".key"))
    return made


@pytest.fixture(scope="module")
def greeter():
    port = free_port()
    proc = subprocess.Popen(["bash", "/app/greeter/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, GREETER_PORT=str(port)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    ok, deadline = False, time.time() + 30
    while not ok and time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    err = "" if ok else (proc.stderr.read().decode()[-500:] if proc.poll() is not None else "not listening")
    yield port if ok else None, err
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def talk(port, cert, key, host="greeter.internal", cafile=CA_CRT):
    ctx = ssl.create_default_context(cafile=cafile)
    ctx.load_cert_chain(cert, key)
    with socket.create_connection(("127.0.0.1", port), timeout=20) as raw:
        with ctx.wrap_socket(raw, server_hostname=host) as s:
            line = f"ping {RNG.randrange(10**6)}"
            s.sendall(line.encode() + b"\n")
            return s.makefile("rb").readline().decode().strip(), line


def test_ca():
    assert os.path.isfile(CA_CRT) and os.path.isfile(CA_KEY), "the CA files are missing"
    assert stat.S_IMODE(os.stat(CA_KEY).st_mode) == 0o600
    text = x509_text(CA_CRT)
    assert re.search(r"Subject:\s*(?:.*,\s*)?CN\s*=\s*Greeter Internal CA\s*(?:,|$)", text, re.M), "CA subject"
    assert re.search(r"X509v3 Basic Constraints: critical\s+CA:TRUE", text), "CA:TRUE, critical"
    assert "Certificate Sign" in text, "keyUsage keyCertSign"
    assert sh("openssl", "verify", "-CAfile", CA_CRT, CA_CRT, check=False).returncode == 0, "self-signed"
    nb, na = dates(CA_CRT)
    assert nb <= time.time() + 60 and na - nb <= 3653 * 86400
    assert key_ok(CA_KEY)
    key_pub = sh("openssl", "pkey", "-in", CA_KEY, "-pubout").stdout
    assert sh("openssl", "x509", "-in", CA_CRT, "-noout", "-pubkey").stdout == key_pub, "ca.key matches ca.crt"


def test_server_certificate():
    assert os.path.isfile(SRV_CRT) and os.path.isfile(SRV_KEY), "the server files are missing"
    assert stat.S_IMODE(os.stat(SRV_KEY).st_mode) == 0o600
    assert key_ok(SRV_KEY)
    assert sh("openssl", "verify", "-CAfile", CA_CRT, "-purpose", "sslserver", SRV_CRT, check=False).returncode == 0
    assert sh("openssl", "verify", "-CAfile", CA_CRT, "-purpose", "sslclient", SRV_CRT, check=False).returncode != 0, \
        "the server certificate must not be valid for client authentication"
    nb, na = dates(SRV_CRT)
    assert nb <= time.time() + 60 and na - nb <= 397 * 86400 + 60


def test_greets_issued_clients(greeter, clients):
    port, err = greeter
    assert port, f"the greeter did not start: {err}"
    assert sorted(clients) == sorted(NAMES), "issue-client-cert failed"
    for n, (crt, key) in clients.items():
        answer, line = talk(port, crt, key)
        assert answer == f"hello {n}: {line}"


def test_server_names_verified(greeter, clients):
    port, err = greeter
    assert port and clients, f"the greeter did not start: {err}"
    crt, key = next(iter(clients.values()))
    for host in ("greeter.internal", "localhost", "127.0.0.1"):
        answer, line = talk(port, crt, key, host=host)
        assert answer.endswith(line), host
    for host in ("other.internal", "127.0.0.2"):
        with pytest.raises(ssl.SSLCertVerificationError):
            talk(port, crt, key, host=host)


def refused(port, crt, key):
    try:
        answer, _ = talk(port, crt, key)
    except (ssl.SSLError, OSError):
        return True
    return not answer.startswith("hello")


def test_foreign_and_misused_certificates_refused(greeter, clients):
    port, err = greeter
    assert port and clients, f"the greeter did not start: {err}"
    d = tempfile.mkdtemp(prefix="rogue")
    # a client certificate from another CA
    sh("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "5",
       "-subj", "/CN=Greeter Internal CA", "-keyout", f"{d}/ca.key", "-out", f"{d}/ca.crt")
    sh("openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
       "-subj", f"/CN={NAMES[0]}", "-keyout", f"{d}/c.key", "-out", f"{d}/c.csr")
    with open(f"{d}/ext", "w") as f:
        f.write("basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n")
    sh("openssl", "x509", "-req", "-in", f"{d}/c.csr", "-CA", f"{d}/ca.crt", "-CAkey", f"{d}/ca.key",
       "-set_serial", "7", "-days", "5", "-extfile", f"{d}/ext", "-out", f"{d}/c.crt")
    assert refused(port, f"{d}/c.crt", f"{d}/c.key"), "a client of another CA must be refused"
    # the server's certificate is not a client certificate
    assert refused(port, SRV_CRT, SRV_KEY), "the server certificate must not authenticate a client"
    # a client certificate signing another one is not a CA
    crt, key = next(iter(clients.values()))
    sh("openssl", "x509", "-req", "-in", f"{d}/c.csr", "-CA", crt, "-CAkey", key, "-set_serial", "9", "-days", "5",
       "-extfile", f"{d}/ext", "-out", f"{d}/sub.crt")
    assert sh("openssl", "verify", "-CAfile", CA_CRT, "-untrusted", crt, f"{d}/sub.crt", check=False).returncode != 0
    # a client certificate cannot act as a server
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(crt, key)
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)

    def accept():
        try:
            c, _ = srv.accept()
            with ctx.wrap_socket(c, server_side=True):
                pass
        except (ssl.SSLError, OSError):
            pass

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    cctx = ssl.create_default_context(cafile=CA_CRT)
    cctx.check_hostname = False
    with pytest.raises(ssl.SSLCertVerificationError):
        with socket.create_connection(srv.getsockname(), timeout=20) as raw:
            cctx.wrap_socket(raw).close()
    t.join(20)
    srv.close()


def test_client_certificates_and_script_rules(clients):
    assert sorted(clients) == sorted(NAMES), "issue-client-cert failed"
    for n, (crt, key) in clients.items():
        assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
        assert key_ok(key)
        text = x509_text(crt)
        assert re.search(r"Subject:\s*(?:.*,\s*)?CN\s*=\s*" + re.escape(n) + r"\s*(?:,|$)", text, re.M), n
        assert sh("openssl", "verify", "-CAfile", CA_CRT, "-purpose", "sslclient", crt, check=False).returncode == 0
        assert sh("openssl", "verify", "-CAfile", CA_CRT, "-purpose", "sslserver", crt, check=False).returncode != 0
        nb, na = dates(crt)
        assert nb <= time.time() + 60 and na - nb <= 30 * 86400 + 60
    keys = {sh("openssl", "pkey", "-in", k, "-pubout").stdout for _, k in clients.values()}
    assert len(keys) == len(clients), "every client gets its own key"
    bad_dir = tempfile.mkdtemp(prefix="bad")
    for bad in ("", "a b", "../escape", "x" * 41, "semi;colon", "-"[:0] + "ü"):
        assert issue(bad, bad_dir).returncode != 0, repr(bad)
    assert os.listdir(bad_dir) == [], "nothing may be created for an invalid name"
    assert issue("x" * 40, bad_dir).returncode == 0
