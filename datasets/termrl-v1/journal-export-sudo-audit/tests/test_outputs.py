"""Behavioural tests for /app/sudojournal on journal exports generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import jegen  # noqa: E402

TOOL = "/app/sudojournal"


@pytest.fixture(scope="module", params=[5101, 5102, 5103])
def audit(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"je{request.param}")
    exp = jegen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d / "journal.export")], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def cols(rows, *ks):
    return [tuple(json.dumps(x.get(k)) for k in ks) for x in rows]


def test_decisions_found(audit):
    got, exp = audit
    assert cols(got, "time", "host", "user") == cols(exp, "time", "host", "user")


def test_results(audit):
    got, exp = audit
    assert cols(got, "time", "result", "reason") == cols(exp, "time", "result", "reason")


def test_targets(audit):
    got, exp = audit
    assert cols(got, "time", "runas", "tty", "pwd") == cols(exp, "time", "runas", "tty", "pwd")


def test_commands(audit):
    got, exp = audit
    assert cols(got, "time", "command") == cols(exp, "time", "command")
