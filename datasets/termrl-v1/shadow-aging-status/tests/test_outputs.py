"""Behavioural tests for /app/agingstatus on shadow files generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import shgen  # noqa: E402

TOOL = "/app/agingstatus"


@pytest.fixture(scope="module", params=[6201, 6202, 6203, 6204])
def status(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"sh{request.param}")
    at, exp = shgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d / "shadow"), at], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def cols(rows, *ks):
    return [tuple(json.dumps(x.get(k)) for k in ks) for x in rows]


def test_users(status):
    got, exp = status
    assert [x.get("user") for x in got] == [x["user"] for x in exp]


def test_password_state(status):
    got, exp = status
    assert cols(got, "user", "password", "days_left") == cols(exp, "user", "password", "days_left")


def test_account_expiry_and_lock(status):
    got, exp = status
    assert cols(got, "user", "account_expired", "locked") == cols(exp, "user", "account_expired", "locked")


def test_can_change(status):
    got, exp = status
    assert cols(got, "user", "can_change") == cols(exp, "user", "can_change")
