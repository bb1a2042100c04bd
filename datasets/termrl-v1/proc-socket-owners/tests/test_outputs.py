"""Behavioural tests for /app/sockowners on /proc snapshots generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import pngen  # noqa: E402

TOOL = "/app/sockowners"


@pytest.fixture(scope="module", params=[2201, 2202, 2203])
def report(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"pn{request.param}")
    exp = pngen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d / "proc")], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def cols(rows, *ks):
    return [tuple(json.dumps(x.get(k)) for k in ks) for x in rows]


def test_listening_sockets(report):
    got, exp = report
    assert cols(got["listening"], "proto", "local", "uid", "inode") == \
        cols(exp["listening"], "proto", "local", "uid", "inode")


def test_established_connections(report):
    got, exp = report
    assert cols(got["established"], "proto", "local", "remote", "inode") == \
        cols(exp["established"], "proto", "local", "remote", "inode")


def test_owners(report):
    got, exp = report
    for k in ("listening", "established"):
        assert cols(got[k], "inode", "pids", "commands") == cols(exp[k], "inode", "pids", "commands"), k
