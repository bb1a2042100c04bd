import hashlib
import os
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import vaultgen  # noqa: E402  (the vault writer, only available to the tests)


def scan(root):
    return {k: (v[:4] if v[0] == "F" else v) for k, v in vaultgen.scan(root).items()}


def restore(vault, n, dest):
    return subprocess.run([sys.executable, "/app/vault_restore.py", str(vault), str(n), str(dest)],
                          capture_output=True, text=True, timeout=300)


def expected(states):
    return [{k: (v[:4] if v[0] == "F" else v) for k, v in s.items()} for s in states]


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    d = tmp_path_factory.mktemp("shipped")
    return expected(vaultgen.generate(str(d / "live"), str(d / "vault"), 2024, 5, {1, 4}))


def vault_digest(vault):
    h = hashlib.sha256()
    for dp, dns, fns in sorted(os.walk(vault)):
        for n in sorted(fns):
            p = os.path.join(dp, n)
            h.update(p.encode() + open(p, "rb").read())
    return h.hexdigest()


def test_restore3_written(shipped):
    assert scan("/srv/restore3") == shipped[2]


def test_latest_equals_live(tmp_path):
    before = vault_digest("/srv/vault")
    r = restore("/srv/vault", 5, tmp_path / "r5")
    assert r.returncode == 0, r.stderr
    assert scan(tmp_path / "r5") == scan("/srv/data")
    assert vault_digest("/srv/vault") == before, "the vault was modified"


def test_every_shipped_snapshot(shipped, tmp_path):
    for n in range(1, 6):
        r = restore("/srv/vault", n, tmp_path / f"r{n}")
        assert r.returncode == 0, r.stderr
        assert scan(tmp_path / f"r{n}") == shipped[n - 1], f"snapshot {n}"


@pytest.mark.parametrize("seed,count,fulls", [(77, 7, {1, 5}), (5150, 6, {1, 3, 6})])
def test_hidden_vault(tmp_path, seed, count, fulls):
    states = expected(vaultgen.generate(str(tmp_path / "live"), str(tmp_path / "vault"), seed, count, fulls))
    for n in range(1, count + 1):
        r = restore(tmp_path / "vault", n, tmp_path / f"r{n}")
        assert r.returncode == 0, r.stderr
        got = scan(tmp_path / f"r{n}")
        assert got == states[n - 1], f"seed {seed} snapshot {n}: " + repr(
            sorted(set(got.items()) ^ set(states[n - 1].items()))[:6])


def test_missing_snapshot_exits_2(tmp_path):
    ok = restore("/srv/vault", 2, tmp_path / "r2")
    assert ok.returncode == 0, ok.stderr
    r = restore("/srv/vault", 9, tmp_path / "r9")
    assert r.returncode == 2
    assert r.stderr.strip()
