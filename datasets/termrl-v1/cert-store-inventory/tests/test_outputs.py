"""Behavioural tests for /app/certinv on a certificate store generated here with openssl."""
import hashlib
import json
import os
import random
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

TOOL = "/app/certinv"
R = random.Random(0xCE57)


def sh(*args, cwd):
    subprocess.run(list(args), cwd=cwd, check=True, capture_output=True)


def rand_serial(bits):
    return R.getrandbits(bits) | (1 << (bits - 1))


def word():
    return "".join(R.choice("abcdefghkmnprstuvwxz") for _ in range(R.randint(4, 8)))


def fingerprint_and_dates(path, inform="PEM"):
    der = subprocess.run(["openssl", "x509", "-inform", inform, "-in", str(path), "-outform", "DER"],
                         check=True, capture_output=True).stdout
    out = subprocess.run(["openssl", "x509", "-inform", inform, "-in", str(path), "-noout", "-startdate",
                          "-enddate"], check=True, capture_output=True, text=True).stdout.splitlines()

    def iso(s):
        return datetime.strptime(s.split("=", 1)[1].strip(), "%b %d %H:%M:%S %Y GMT").strftime("%Y-%m-%dT%H:%M:%SZ")
    return hashlib.sha256(der).hexdigest(), iso(out[0]), iso(out[1])


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    w = tmp_path_factory.mktemp("work")
    s = tmp_path_factory.mktemp("store")
    for sub in ("ca", "chain", "web", "keys", "backup", "legacy", "hosts"):
        (s / sub).mkdir()
    org = word().title()
    exp = {}

    # root CA: RSA 2048 self-signed (req -x509 makes it CA:TRUE)
    sh("openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "root.key", cwd=w)
    root_cn = f"{org} Root R{R.randint(2, 9)}"
    root_ser = rand_serial(64)
    sh("openssl", "req", "-x509", "-new", "-key", "root.key", "-subj", f"/O={org}/CN={root_cn}", "-days", "3650",
       "-set_serial", hex(root_ser), "-out", "root.crt", cwd=w)
    (s / "ca/root.key").write_bytes((w / "root.key").read_bytes())
    (s / "ca/root.crt").write_bytes((w / "root.crt").read_bytes())

    # intermediate: EC P-384, CA:TRUE, no SAN, key not in the store
    sh("openssl", "ecparam", "-name", "secp384r1", "-genkey", "-noout", "-out", "int.key", cwd=w)
    int_cn = f"{org} Issuing CA {R.randint(10, 99)}"
    int_ser = rand_serial(120)
    sh("openssl", "req", "-new", "-key", "int.key", "-subj", f"/O={org}/CN={int_cn}", "-out", "int.csr", cwd=w)
    (w / "int.ext").write_text("basicConstraints=critical,CA:TRUE\nkeyUsage=keyCertSign,cRLSign\n")
    sh("openssl", "x509", "-req", "-in", "int.csr", "-CA", "root.crt", "-CAkey", "root.key", "-set_serial",
       hex(int_ser), "-days", "1800", "-sha256", "-extfile", "int.ext", "-out", "int.crt", cwd=w)

    # leaf1: EC P-256 by the intermediate, SAN with DNS names (and an IP that is not a DNS name)
    sh("openssl", "ecparam", "-name", "prime256v1", "-genkey", "-out", "leaf1.key", cwd=w)  # with EC PARAMETERS
    host = f"{word()}.{org.lower()}.test"
    dns1 = [host, f"{word()}.{org.lower()}.test", f"*.{word()}.{org.lower()}.test"]
    leaf1_ser = rand_serial(128)
    sh("openssl", "req", "-new", "-key", "leaf1.key", "-subj", f"/O={org}/CN={host}", "-out", "leaf1.csr", cwd=w)
    (w / "leaf1.ext").write_text("basicConstraints=CA:FALSE\nsubjectAltName=DNS:%s,IP:10.%d.0.5,DNS:%s,DNS:%s\n"
                                 % (dns1[0], R.randint(1, 200), dns1[1], dns1[2]))
    sh("openssl", "x509", "-req", "-in", "leaf1.csr", "-CA", "int.crt", "-CAkey", "int.key", "-set_serial",
       hex(leaf1_ser), "-days", "200", "-sha256", "-extfile", "leaf1.ext", "-out", "leaf1.crt", cwd=w)

    # leaf2: RSA 1024, SHA-1, no extensions at all, signed by the root, stored as DER
    sh("openssl", "genrsa", "-traditional", "-out", "leaf2.key", "1024", cwd=w)
    dev = f"dev-{word()}"
    leaf2_ser = R.randint(2, 4000)
    sh("openssl", "req", "-new", "-key", "leaf2.key", "-subj", f"/CN={dev}", "-out", "leaf2.csr", cwd=w)
    sh("openssl", "x509", "-req", "-in", "leaf2.csr", "-CA", "root.crt", "-CAkey", "root.key", "-set_serial",
       str(leaf2_ser), "-days", str(R.randint(400, 900)), "-sha1", "-outform", "DER", "-out", "leaf2.der", cwd=w)

    # leaf3: RSA 2048, subject without CN, SAN, short-lived (expired at AT)
    sh("openssl", "genrsa", "-traditional", "-out", "leaf3.key", "2048", cwd=w)
    ou = word().title()
    leaf3_ser = rand_serial(72)
    sh("openssl", "req", "-new", "-key", "leaf3.key", "-subj", f"/O={org}/OU={ou}", "-out", "leaf3.csr", cwd=w)
    dns3 = [f"printer-{word()}.{org.lower()}.test"]
    (w / "leaf3.ext").write_text(f"subjectAltName=DNS:{dns3[0]}\n")
    sh("openssl", "x509", "-req", "-in", "leaf3.csr", "-CA", "int.crt", "-CAkey", "int.key", "-set_serial",
       hex(leaf3_ser), "-days", "20", "-sha256", "-extfile", "leaf3.ext", "-out", "leaf3.crt", cwd=w)

    # orphans: two keys of no certificate
    sh("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "orph1.key", cwd=w)
    sh("openssl", "genrsa", "-traditional", "-out", "orph2.key", "1024", cwd=w)

    rd = lambda n: (w / n).read_bytes()  # noqa: E731
    (s / "chain/fullchain.pem").write_bytes(b"subject=" + host.encode() + b"\n" + rd("leaf1.crt")
                                            + b"\n# issuer follows\n" + rd("int.crt") + rd("root.crt"))
    (s / "web/site.crt").write_bytes(rd("leaf1.crt"))
    (s / "keys/site.key").write_bytes(rd("leaf1.key"))
    (s / "backup/site.key.bak").write_bytes(rd("leaf1.key"))
    (s / "legacy/device.cer").write_bytes(rd("leaf2.der"))
    (s / "legacy/device.key").write_bytes(rd("leaf2.key"))
    (s / "hosts/printer.pem").write_bytes(rd("leaf3.key") + rd("leaf3.crt"))
    (s / "keys/old-vpn.key").write_bytes(rd("orph1.key"))
    (s / "backup/old.pem").write_bytes(rd("orph2.key"))
    (s / "NOTES.txt").write_text("exported from lb01, do not delete\n")
    (s / "legacy/blob.bin").write_bytes(bytes(R.randrange(256) for _ in range(700)))
    os.symlink("web/site.crt", s / "current.crt")  # a link, not a regular file

    fp = {n: fingerprint_and_dates(w / n, "DER" if n.endswith(".der") else "PEM")
          for n in ("root.crt", "int.crt", "leaf1.crt", "leaf2.der", "leaf3.crt")}
    c = {
        "root.crt": dict(subject_cn=root_cn, issuer_cn=root_cn, serial=format(root_ser, "x"), key="rsa-2048",
                         self_signed=True, is_ca=True, dns_names=[], findings=[], private_keys=["ca/root.key"]),
        "int.crt": dict(subject_cn=int_cn, issuer_cn=root_cn, serial=format(int_ser, "x"), key="ec-secp384r1",
                        self_signed=False, is_ca=True, dns_names=[], findings=[], private_keys=[]),
        "leaf1.crt": dict(subject_cn=host, issuer_cn=int_cn, serial=format(leaf1_ser, "x"), key="ec-prime256v1",
                          self_signed=False, is_ca=False, dns_names=dns1, findings=[],
                          private_keys=["backup/site.key.bak", "keys/site.key"]),
        "leaf2.der": dict(subject_cn=dev, issuer_cn=root_cn, serial=format(leaf2_ser, "x"), key="rsa-1024",
                          self_signed=False, is_ca=False, dns_names=[],
                          findings=["no-san", "sha1-signature", "weak-key"], private_keys=["legacy/device.key"]),
        "leaf3.crt": dict(subject_cn=None, issuer_cn=int_cn, serial=format(leaf3_ser, "x"), key="rsa-2048",
                          self_signed=False, is_ca=False, dns_names=dns3, findings=["expired"],
                          private_keys=["hosts/printer.pem"]),
    }
    for n, v in c.items():
        v["sha256"], v["not_before"], v["not_after"] = fp[n]
    layout = [("ca/root.crt", 0, "pem", "root.crt"), ("chain/fullchain.pem", 0, "pem", "leaf1.crt"),
              ("chain/fullchain.pem", 1, "pem", "int.crt"), ("chain/fullchain.pem", 2, "pem", "root.crt"),
              ("hosts/printer.pem", 0, "pem", "leaf3.crt"), ("legacy/device.cer", 0, "der", "leaf2.der"),
              ("web/site.crt", 0, "pem", "leaf1.crt")]
    expected = [dict(file=f, index=i, format=fm, **c[n]) for f, i, fm, n in layout]
    at = (datetime.now(timezone.utc) + timedelta(days=60)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return s, at, expected, ["backup/old.pem", "keys/old-vpn.key"]


def run(store_dir, at):
    r = subprocess.run([TOOL, str(store_dir), at], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def report(store):
    s, at, _, _ = store
    return run(s, at)


def pick(rows, *keys):
    return [tuple(json.dumps(r.get(k)) for k in keys) for r in rows]


def test_every_certificate_found_in_order(report, store):
    assert set(report) == {"certificates", "orphan_keys"}
    assert pick(report["certificates"], "file", "index", "format") == pick(store[2], "file", "index", "format")


def test_names_serials_and_self_signed(report, store):
    keys = ("file", "index", "subject_cn", "issuer_cn", "serial", "self_signed")
    assert pick(report["certificates"], *keys) == pick(store[2], *keys)


def test_dates_and_fingerprints(report, store):
    keys = ("file", "index", "not_before", "not_after", "sha256")
    assert pick(report["certificates"], *keys) == pick(store[2], *keys)


def test_keys_ca_flag_and_dns_names(report, store):
    keys = ("file", "index", "key", "is_ca", "dns_names")
    assert pick(report["certificates"], *keys) == pick(store[2], *keys)


def test_findings(report, store):
    assert pick(report["certificates"], "file", "index", "findings") == pick(store[2], "file", "index", "findings")


def test_private_key_pairing_and_orphans(report, store):
    keys = ("file", "index", "private_keys")
    assert pick(report["certificates"], *keys) == pick(store[2], *keys)
    assert report["orphan_keys"] == store[3]


def test_exact_key_set(report):
    want = {"file", "index", "format", "subject_cn", "issuer_cn", "serial", "not_before", "not_after", "key",
            "sha256", "self_signed", "is_ca", "dns_names", "findings", "private_keys"}
    for row in report["certificates"]:
        assert set(row) == want


def test_expiry_follows_at(store):
    s = store[0]
    late = run(s, "2090-06-30T12:00:00Z")
    assert all("expired" in r["findings"] for r in late["certificates"])
    assert [r["findings"] for r in late["certificates"]] == \
        [sorted(set(r["findings"]) | {"expired"}) for r in store[2]]
    # exactly at not_after is not yet "after" it
    row = next(r for r in store[2] if r["file"] == "hosts/printer.pem")
    edge = run(s, row["not_after"])
    assert [r["findings"] for r in edge["certificates"]] == \
        [[f for f in r["findings"] if f != "expired"] for r in store[2]]
