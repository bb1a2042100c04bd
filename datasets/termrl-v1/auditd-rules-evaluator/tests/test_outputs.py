"""Behavioural tests for /app/auditsim on rule files and events generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import argen  # noqa: E402

TOOL = "/app/auditsim"


@pytest.fixture(scope="module", params=[2701, 2702, 2703])
def sim(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"audit{request.param}")
    exp = argen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d / "audit.rules"), str(d / "syscalls.tsv"), str(d / "events.jsonl")],
                       capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def test_one_result_per_event(sim):
    got, exp = sim
    assert [x.get("id") for x in got] == [x["id"] for x in exp]


def test_logged_decisions(sim):
    got, exp = sim
    assert [(x.get("id"), x.get("logged")) for x in got] == [(x["id"], x["logged"]) for x in exp]


def test_deciding_rule(sim):
    got, exp = sim
    assert [(x.get("id"), x.get("rule")) for x in got] == [(x["id"], x["rule"]) for x in exp]


def test_keys(sim):
    got, exp = sim
    assert [(x.get("id"), x.get("keys")) for x in got] == [(x["id"], x["keys"]) for x in exp]
