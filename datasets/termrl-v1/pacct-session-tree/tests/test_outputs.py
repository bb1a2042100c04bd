"""Behavioural tests for /app/proctree on accounting files generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import acctgen  # noqa: E402

TOOL = "/app/proctree"
CASES = [(9101, False), (9202, True), (9303, False)]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"seed{c[0]}-{'exited' if c[1] else 'running'}")
def case(request, tmp_path_factory):
    seed, exited = request.param
    d = tmp_path_factory.mktemp(f"acct{seed}")
    exp = acctgen.build(seed, str(d), root_exited=exited)
    r = subprocess.run([TOOL, str(d), str(exp["root"]["pid"]), exp["root"]["start"]], capture_output=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def key(rows, *ks):
    return [tuple(json.dumps(x.get(k)) for k in ks) for x in rows]


def test_root(case):
    got, exp = case
    assert got["root"] == exp["root"]


def test_tree_membership_and_order(case):
    got, exp = case
    assert key(got["processes"], "pid", "start") == key(exp["processes"], "pid", "start")


def test_parents_and_depths(case):
    got, exp = case
    assert key(got["processes"], "pid", "ppid", "depth") == key(exp["processes"], "pid", "ppid", "depth")


def test_identity_fields(case):
    got, exp = case
    ks = ("pid", "command", "user", "tty", "flags")
    assert key(got["processes"], *ks) == key(exp["processes"], *ks)


def test_exit_and_signal(case):
    got, exp = case
    ks = ("pid", "exit", "signal")
    assert key(got["processes"], *ks) == key(exp["processes"], *ks)


def test_elapsed_and_cpu(case):
    got, exp = case
    assert len(got["processes"]) == len(exp["processes"])
    for g, e in zip(got["processes"], exp["processes"]):
        assert abs(g["elapsed"] - e["elapsed"]) <= 0.011, (g, e)
        assert abs(g["cpu"] - e["cpu"]) <= 0.011, (g, e)
