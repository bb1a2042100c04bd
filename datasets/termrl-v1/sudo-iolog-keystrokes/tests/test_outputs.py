"""Behavioural tests for /app/sudokeys on sudo I/O logs generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import iogen  # noqa: E402

TOOL = "/app/sudokeys"
SEEDS = [4401, 4402, 4403]


@pytest.fixture(scope="module", params=SEEDS)
def case(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"io{request.param}")
    exp = iogen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d / "sudo-io")], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def test_sessions_and_metadata(case):
    got, exp = case
    ks = ("session", "user", "runas", "tty", "start")
    assert [tuple(s.get(k) for k in ks) for s in got] == [tuple(s[k] for k in ks) for s in exp]


def test_commands_recovered(case):
    got, exp = case
    assert [[c.get("line") for c in s.get("commands", [])] for s in got] == \
        [[c["line"] for c in s["commands"]] for s in exp]


def test_command_offsets(case):
    got, exp = case
    for g, e in zip(got, exp):
        assert len(g["commands"]) == len(e["commands"])
        for a, b in zip(g["commands"], e["commands"]):
            assert abs(a["offset"] - b["offset"]) <= 0.002, (e["session"], a, b)


def test_end_of_session(case):
    got, exp = case
    assert [s.get("ended_by_eof") for s in got] == [s["ended_by_eof"] for s in exp]
