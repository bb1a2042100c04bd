"""Behavioural tests for /app/ldresolve on root filesystems and programs generated here."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import ldgen  # noqa: E402

TOOL = "/app/ldresolve"


@pytest.fixture(scope="module", params=[1601, 1602, 1603])
def resolved(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"ld{request.param}")
    exp = ldgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d / "root"), str(d / "programs.jsonl")], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def test_programs(resolved):
    got, exp = resolved
    assert [x.get("id") for x in got] == [x["id"] for x in exp]


def test_preload(resolved):
    got, exp = resolved
    assert [x.get("preload") for x in got] == [x["preload"] for x in exp]


def test_resolved_files(resolved):
    got, exp = resolved
    assert [[(l.get("name"), l.get("file")) for l in x.get("libraries", [])] for x in got] == \
        [[(l["name"], l["file"]) for l in x["libraries"]] for x in exp]


def test_search_step(resolved):
    got, exp = resolved
    assert [[l.get("via") for l in x.get("libraries", [])] for x in got] == \
        [[l["via"] for l in x["libraries"]] for x in exp]
