"""Behavioural tests for /app/l4decode on access logs generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import l4gen  # noqa: E402

TOOL = "/app/l4decode"


@pytest.fixture(scope="module", params=[4301, 4302, 4303])
def decoded(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"l4{request.param}")
    exp = l4gen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d / "access.log")], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def test_attempt_lines(decoded):
    got, exp = decoded
    assert [(x.get("line"), x.get("client")) for x in got] == [(x["line"], x["client"]) for x in exp]


def test_urls(decoded):
    got, exp = decoded
    assert [x.get("url") for x in got] == [x["url"] for x in exp]


def test_url_parts(decoded):
    got, exp = decoded
    ks = ("scheme", "host", "port")
    assert [tuple(x.get(k) for k in ks) for x in got] == [tuple(x[k] for k in ks) for x in exp]
