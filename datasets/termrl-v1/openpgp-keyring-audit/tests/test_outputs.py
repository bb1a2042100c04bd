"""Behavioural tests for /app/pgpaudit on keyrings written here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import pgpgen  # noqa: E402

TOOL = "/app/pgpaudit"


@pytest.fixture(scope="module", params=[1901, 1902])
def audit(request, tmp_path_factory):
    p = tmp_path_factory.mktemp(f"pgp{request.param}") / "pubring.pgp"
    at, exp = pgpgen.build(request.param, str(p))
    r = subprocess.run([TOOL, str(p), at], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def cols(rows, *ks):
    return [tuple(json.dumps(x.get(k)) for k in ks) for x in rows]


def test_primary_keys(audit):
    got, exp = audit
    assert cols(got, "fingerprint", "algo", "created") == cols(exp, "fingerprint", "algo", "created")


def test_user_ids(audit):
    got, exp = audit
    assert cols(got, "fingerprint", "uids") == cols(exp, "fingerprint", "uids")


def test_expiry_and_status(audit):
    got, exp = audit
    assert cols(got, "fingerprint", "expires", "status") == cols(exp, "fingerprint", "expires", "status")


def test_subkeys(audit):
    got, exp = audit
    assert cols(got, "fingerprint", "subkeys") == cols(exp, "fingerprint", "subkeys")


def test_findings(audit):
    got, exp = audit
    assert cols(got, "fingerprint", "findings") == cols(exp, "fingerprint", "findings")
