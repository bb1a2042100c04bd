"""Behavioural tests for /app/pkgverify on copied root filesystems generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import casegen  # noqa: E402

TOOL = "/app/pkgverify"
SEEDS = [41017, 52229]


@pytest.fixture(scope="module", params=SEEDS)
def case(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"case{request.param}") / "rootfs"
    root.mkdir()
    expected = casegen.build(request.param, str(root))
    r = subprocess.run([TOOL, str(root)], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    got = json.loads(r.stdout)
    return got, expected


def rows(entries, *keys):
    return sorted(tuple(e.get(k) for k in keys) for e in entries)


def test_report_shape(case):
    got, _ = case
    assert isinstance(got, dict) and set(got) == {"files", "conffiles", "tampered_md5sums", "unverified"}
    for e in got["files"]:
        assert set(e) == {"path", "package", "problem", "basis"}, e
    for e in got["conffiles"]:
        assert set(e) == {"path", "package", "problem"}, e
    key = lambda e: (e["path"], e["package"])  # noqa: E731
    assert got["files"] == sorted(got["files"], key=key)
    assert got["conffiles"] == sorted(got["conffiles"], key=key)
    assert got["tampered_md5sums"] == sorted(got["tampered_md5sums"])
    assert got["unverified"] == sorted(got["unverified"])


def test_changed_files_found(case):
    """Every modified or missing packaged file, and nothing else (no false alarms)."""
    got, exp = case
    assert rows(got["files"], "path", "package", "problem") == rows(exp["files"], "path", "package", "problem")


def test_basis_of_each_check(case):
    got, exp = case
    assert rows(got["files"], "path", "basis") == rows(exp["files"], "path", "basis")


def test_forged_md5sums_detected(case):
    got, exp = case
    assert got["tampered_md5sums"] == exp["tampered_md5sums"]
    # the forged daemon must still be reported, from the deb
    forged = {e["package"] for e in exp["files"] if e["package"] in exp["tampered_md5sums"]}
    assert forged <= {e["package"] for e in got["files"] if e["basis"] == "deb"}


def test_conffiles(case):
    got, exp = case
    assert rows(got["conffiles"], "path", "package", "problem") == rows(exp["conffiles"], "path", "package",
                                                                         "problem")


def test_unverified_packages(case):
    got, exp = case
    assert got["unverified"] == exp["unverified"]


def test_whole_report(case):
    got, exp = case
    assert got == exp
