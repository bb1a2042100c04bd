"""Behavioural tests for /app/khverdict on known_hosts files and attempts generated here."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import khgen  # noqa: E402

TOOL = "/app/khverdict"


@pytest.fixture(scope="module", params=[4701, 4702, 4703])
def verdicts(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"kh{request.param}")
    exp = khgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d), str(d / "attempts.jsonl")], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def test_one_verdict_per_attempt(verdicts):
    got, exp = verdicts
    assert [x.get("id") for x in got] == [x["id"] for x in exp]


def test_results(verdicts):
    got, exp = verdicts
    assert [(x.get("id"), x.get("result")) for x in got] == [(x["id"], x["result"]) for x in exp]


def test_deciding_lines(verdicts):
    got, exp = verdicts
    assert [(x.get("id"), x.get("line")) for x in got] == [(x["id"], x["line"]) for x in exp]


def test_revoked_and_unknown(verdicts):
    got, exp = verdicts
    for k in ("revoked", "unknown"):
        assert [x.get("id") for x in got if x.get("result") == k] == [x["id"] for x in exp if x["result"] == k]
