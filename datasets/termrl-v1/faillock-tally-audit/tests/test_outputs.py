"""Behavioural tests for /app/faillockaudit on tally files generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import flgen  # noqa: E402

TOOL = "/app/faillockaudit"


@pytest.fixture(scope="module", params=[8105, 8114, 8119])
def audit(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"fl{request.param}")
    at, exp = flgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d), at], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def cols(rows, *ks):
    return [tuple(json.dumps(x.get(k)) for k in ks) for x in rows]


def test_users(audit):
    got, exp = audit
    assert [x.get("user") for x in got] == [x["user"] for x in exp]


def test_failure_counts(audit):
    got, exp = audit
    assert cols(got, "user", "failures", "latest") == cols(exp, "user", "failures", "latest")


def test_lock_state(audit):
    got, exp = audit
    assert cols(got, "user", "locked", "unlock_at") == cols(exp, "user", "locked", "unlock_at")


def test_sources(audit):
    got, exp = audit
    assert cols(got, "user", "sources") == cols(exp, "user", "sources")
