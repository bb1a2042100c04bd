"""Behavioural tests for /app/sshfpcheck on zones and host keys generated here."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import fpgen  # noqa: E402

TOOL = "/app/sshfpcheck"


@pytest.fixture(scope="module", params=[7401, 7402, 7403])
def report(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"fp{request.param}")
    _, exp = fpgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d)], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def test_hosts(report):
    got, exp = report
    assert [x.get("host") for x in got] == [x["host"] for x in exp]


def test_key_status(report):
    got, exp = report
    assert [(x.get("host"), x.get("keys")) for x in got] == [(x["host"], x["keys"]) for x in exp]


def test_stale_records(report):
    got, exp = report
    assert [(x.get("host"), x.get("stale_algorithms")) for x in got] == \
        [(x["host"], x["stale_algorithms"]) for x in exp]
