"""Behavioural tests for /app/kmodcheck on modules signed here with fresh keys (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import kogen  # noqa: E402

TOOL = "/app/kmodcheck"


@pytest.fixture(scope="module", params=[5501, 5502])
def audit(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"ko{request.param}")
    exp = kogen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d / "modules"), str(d / "trusted")], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def cols(rows, *ks):
    return [tuple(json.dumps(x.get(k)) for k in ks) for x in rows]


def test_modules_listed(audit):
    got, exp = audit
    assert [x.get("module") for x in got] == [x["module"] for x in exp]


def test_unsigned_and_malformed(audit):
    got, exp = audit
    pick = lambda rows: [(x.get("module"), x.get("status")) for x in rows  # noqa: E731
                         if x.get("status") in ("unsigned", "malformed")]
    assert pick(got) == pick(exp)


def test_status(audit):
    got, exp = audit
    assert cols(got, "module", "status") == cols(exp, "module", "status")


def test_signer_and_hash(audit):
    got, exp = audit
    assert cols(got, "module", "signer", "hash", "findings") == cols(exp, "module", "signer", "hash", "findings")


def test_whole_report(audit):
    got, exp = audit
    assert got == exp
