"""Behavioural tests for /app/mirrorcheck on mirror snapshots generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import aptgen  # noqa: E402

TOOL = "/app/mirrorcheck"


@pytest.fixture(scope="module", params=[7701, 7702, 7703])
def check(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"mirror{request.param}") / "mirror"
    at, exp = aptgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d), at], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def kind(rows, k):
    return [x.get("path") for x in rows if x.get("kind") == k]


def test_release_expiry(check):
    got, exp = check
    assert kind(got, "expired-release") == kind(exp, "expired-release")


def test_index_findings(check):
    got, exp = check
    for k in ("index-mismatch", "missing-index", "untrusted-index"):
        assert kind(got, k) == kind(exp, k), k


def test_deb_findings(check):
    got, exp = check
    for k in ("missing-deb", "deb-mismatch"):
        assert kind(got, k) == kind(exp, k), k


def test_unreferenced_debs(check):
    got, exp = check
    assert kind(got, "unreferenced-deb") == kind(exp, "unreferenced-deb")


def test_whole_report(check):
    got, exp = check
    assert got == exp
