"""Behavioural tests for /app/certaudit on certificates and KRLs generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import certgen  # noqa: E402

TOOL = "/app/certaudit"


@pytest.fixture(scope="module", params=[8801, 8802])
def audit(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"ssh{request.param}")
    at, exp = certgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d), at], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def cols(rows, *ks):
    return [tuple(json.dumps(x.get(k)) for k in ks) for x in rows]


def test_certificates_found(audit):
    got, exp = audit
    assert [x.get("file") for x in got] == [x["file"] for x in exp]


def test_certificate_fields(audit):
    got, exp = audit
    ks = ("file", "type", "key_type", "key_id", "serial", "principals", "ca")
    assert cols(got, *ks) == cols(exp, *ks)


def test_validity_and_options(audit):
    got, exp = audit
    ks = ("file", "valid_after", "valid_before", "force_command", "source_address")
    assert cols(got, *ks) == cols(exp, *ks)


def test_status(audit):
    got, exp = audit
    assert cols(got, "file", "status") == cols(exp, "file", "status")


def test_revocation_reason(audit):
    got, exp = audit
    assert cols(got, "file", "status", "revoked_by") == cols(exp, "file", "status", "revoked_by")


def test_whole_report(audit):
    got, exp = audit
    assert got == exp
