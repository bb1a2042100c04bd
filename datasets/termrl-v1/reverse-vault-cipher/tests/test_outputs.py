import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXPECTED = {
    "access-codes.txt": "79dc15bd6e57ac437e2f9cc446c50c8a0278c33f513190a28298c2bbb914a86c",
    "board-minutes.txt": "21992a253059c27b030da413285442eea1a4d38a862e6b9a8ee0ac0803926026",
    "notes.md": "ae2817a0cfc1e42a5268e7b394de952c937716534a4f631d8e44c0a752b4d95f",
    "payroll.csv": "542930b055958ecc5bd0ad27479edd00e9df37c464421ec456172ef6d1584fd6",
}


def internal_key(pw):
    h = 2166136261
    for c in pw.encode():
        h ^= c
        h = (h * 16777619) & 0xFFFFFFFF
    return (h ^ (h >> 24)) & 0xFFFFFF


def test_documents_decrypted():
    got = sorted(os.listdir("/app/decrypted"))
    assert got == sorted(EXPECTED)
    for name, digest in EXPECTED.items():
        assert hashlib.sha256(Path("/app/decrypted", name).read_bytes()).hexdigest() == digest, name


def test_secret_content_readable():
    assert "server room: 55-19-03" in Path("/app/decrypted/access-codes.txt").read_text()


def test_vault_key():
    assert Path("/app/vault_key.txt").read_text() == "%06x\n" % internal_key("Tr0ub4dor&3-vault")


def run_tool(tmp_path, pw, data, tag):
    src, enc, dec = tmp_path / f"{tag}.in", tmp_path / f"{tag}.enc", tmp_path / f"{tag}.out"
    src.write_bytes(data)
    subprocess.run(["/usr/local/bin/vaultcrypt", "-p", pw, str(src), str(enc)], check=True, timeout=30)
    r = subprocess.run([sys.executable, "/app/vault_decrypt.py", "%06x" % internal_key(pw), str(enc), str(dec)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return dec.read_bytes()


@pytest.mark.parametrize("pw,size", [("correct horse", 1000), ("x", 16), ("Ünïcode-pässword", 4097), ("", 1)])
def test_decryptor_on_fresh_binary_files(tmp_path, pw, size):
    data = hashlib.shake_256(f"{pw}/{size}".encode()).digest(size)
    assert run_tool(tmp_path, pw, data, "b") == data


def test_decryptor_empty_file(tmp_path):
    assert run_tool(tmp_path, "empty-one", b"", "e") == b""


def test_same_key_different_passwords(tmp_path):
    # any password mapping to the same internal key decrypts the same way: the tool only needs the key
    data = b"hello vault\n" * 50
    assert run_tool(tmp_path, "another pass", data, "c") == data
