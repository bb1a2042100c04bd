"""Behavioural tests for /app/mlog on logs and checks generated here (never seen by the agent)."""
import json
import os
import random
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import mlgen  # noqa: E402

TOOL = "/app/mlog"


def run(*args):
    r = subprocess.run([TOOL, *map(str, args)], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout)


@pytest.fixture(scope="module", params=[3301, 3302])
def log(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"log{request.param}")
    leaves, expected = mlgen.build(request.param, str(d))
    return d, leaves, expected, random.Random(request.param)


def test_roots(log):
    d, D, _, r = log
    sizes = [1, 2, 3, 5, 8, 13, 16, 17, 31, 32, 33, 63, 64, len(D)] + [r.randint(1, len(D)) for _ in range(6)]
    for n in sizes:
        assert run("root", d / "leaves.txt", n) == mlgen.b64(mlgen.mth(D[:n])), n


def test_audit_paths(log):
    d, D, _, r = log
    cases = [(0, 1), (0, 2), (1, 2), (2, 3), (4, 5), (7, 8), (31, 33), (32, 33)]
    cases += [(lambda n: (r.randrange(n), n))(r.randint(1, len(D))) for _ in range(10)]
    for i, n in cases:
        assert run("path", d / "leaves.txt", i, n) == [mlgen.b64(x) for x in mlgen.path(i, D[:n])], (i, n)


def test_consistency_proofs(log):
    d, D, _, r = log
    cases = [(1, 2), (1, 8), (2, 8), (4, 8), (3, 7), (5, 8), (6, 8), (8, 9), (16, 33), (7, 7), (31, 64)]
    cases += [(lambda n: (r.randint(1, n), n))(r.randint(1, len(D))) for _ in range(10)]
    for m, n in cases:
        assert run("prove", d / "leaves.txt", m, n) == [mlgen.b64(x) for x in mlgen.proof(m, D[:n])], (m, n)


def test_inclusion_checks(log):
    d, _, exp, _ = log
    got = run("verify", d / "checks.json")
    assert got["inclusion"] == exp["inclusion"]


def test_consistency_checks_valid_ones_accepted(log):
    d, _, exp, _ = log
    got = run("verify", d / "checks.json")
    assert {k for k, v in got["consistency"].items() if v} >= {k for k, v in exp["consistency"].items() if v}


def test_consistency_checks(log):
    d, _, exp, _ = log
    got = run("verify", d / "checks.json")
    assert got["consistency"] == exp["consistency"]
