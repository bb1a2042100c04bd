"""Behavioural tests for /app/deobf on droppers generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import obgen  # noqa: E402

TOOL = "/app/deobf"


@pytest.fixture(scope="module", params=[5801, 5802, 5803])
def result(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"ob{request.param}")
    exp = obgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d)], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def test_files(result):
    got, exp = result
    assert [x.get("file") for x in got] == [x["file"] for x in exp]


def test_commands(result):
    got, exp = result
    assert [(x.get("file"), x.get("command")) for x in got] == [(x["file"], x["command"]) for x in exp]


def test_layers(result):
    got, exp = result
    assert [(x.get("file"), x.get("layers")) for x in got] == [(x["file"], x["layers"]) for x in exp]
