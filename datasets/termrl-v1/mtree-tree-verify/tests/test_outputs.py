"""Behavioural tests for /app/mtverify on trees and specifications generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import mtgen  # noqa: E402

TOOL = "/app/mtverify"


@pytest.fixture(scope="module", params=[6601, 6602, 6603])
def report(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"mt{request.param}")
    spec, exp = mtgen.build(request.param, str(d / "root"))
    (d / "spec.mtree").write_text(spec)
    r = subprocess.run([TOOL, str(d / "spec.mtree"), str(d / "root")], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def test_report_shape(report):
    got, _ = report
    assert set(got) == {"missing", "extra", "changed"}


def test_missing(report):
    got, exp = report
    assert got["missing"] == exp["missing"]


def test_extra(report):
    got, exp = report
    assert got["extra"] == exp["extra"]


def test_changed_paths(report):
    got, exp = report
    assert [c.get("path") for c in got["changed"]] == [c["path"] for c in exp["changed"]]


def test_changed_keys(report):
    got, exp = report
    assert got["changed"] == exp["changed"]
