"""Behavioural tests for /app/twcheck on wrapper files and queries generated here."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import twgen  # noqa: E402

TOOL = "/app/twcheck"


@pytest.fixture(scope="module", params=[3101, 3102, 3103, 3104])
def checked(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"tw{request.param}")
    exp = twgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d), str(d / "queries.jsonl")], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def test_decisions(checked):
    got, exp = checked
    assert [(x.get("id"), x.get("decision")) for x in got] == [(x["id"], x["decision"]) for x in exp]


def test_deciding_rules(checked):
    got, exp = checked
    assert [(x.get("id"), x.get("file"), x.get("line")) for x in got] == \
        [(x["id"], x["file"], x["line"]) for x in exp]
