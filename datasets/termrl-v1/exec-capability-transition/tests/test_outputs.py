"""Behavioural tests for /app/capexec on execve situations generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import capxgen  # noqa: E402

TOOL = "/app/capexec"


@pytest.fixture(scope="module", params=[9401, 9402])
def calc(request, tmp_path_factory):
    p = tmp_path_factory.mktemp(f"cx{request.param}") / "cases.jsonl"
    exp = capxgen.build(request.param, str(p))
    r = subprocess.run([TOOL, str(p)], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def cols(rows, *ks):
    return [tuple(json.dumps(x.get(k)) for k in ks) for x in rows]


def test_ids(calc):
    got, exp = calc
    assert [x.get("id") for x in got] == [x["id"] for x in exp]


def test_effective_uid(calc):
    got, exp = calc
    assert cols(got, "id", "euid") == cols(exp, "id", "euid")


def test_permitted_and_effective(calc):
    got, exp = calc
    assert cols(got, "id", "permitted", "effective") == cols(exp, "id", "permitted", "effective")


def test_inheritable_and_ambient(calc):
    got, exp = calc
    assert cols(got, "id", "inheritable", "ambient") == cols(exp, "id", "inheritable", "ambient")
