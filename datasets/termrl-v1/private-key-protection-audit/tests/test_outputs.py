"""Behavioural tests for /app/keyprotect on keys generated here with openssl (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import pkgen  # noqa: E402

TOOL = "/app/keyprotect"


@pytest.fixture(scope="module", params=[1101, 1102])
def audit(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"pk{request.param}")
    exp = pkgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d / "keys")], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def cols(rows, *ks):
    return [tuple(json.dumps(x.get(k)) for k in ks) for x in rows]


def test_keys_found(audit):
    got, exp = audit
    assert cols(got, "file", "format", "encrypted") == cols(exp, "file", "format", "encrypted")


def test_protection_parameters(audit):
    got, exp = audit
    ks = ("file", "cipher", "kdf", "iterations", "prf")
    assert cols(got, *ks) == cols(exp, *ks)


def test_findings(audit):
    got, exp = audit
    assert cols(got, "file", "findings") == cols(exp, "file", "findings")
