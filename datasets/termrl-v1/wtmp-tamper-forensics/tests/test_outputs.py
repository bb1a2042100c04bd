"""Behavioural tests for /app/wtmpcheck on cases generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import wtmpgen  # noqa: E402

TOOL = "/app/wtmpcheck"
CASES = [(73211, True), (88117, True), (90403, False)]
KEYS = {"sessions", "zeroed_records", "out_of_order", "orphan_logouts", "missing_logins", "lastlog_mismatch",
        "truncated"}


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"seed{c[0]}-{'tampered' if c[1] else 'clean'}")
def case(request, tmp_path_factory):
    seed, tamper = request.param
    d = tmp_path_factory.mktemp(f"case{seed}")
    expected = wtmpgen.build(seed, str(d), tamper=tamper)
    r = subprocess.run([TOOL, str(d)], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), expected


def test_report_keys(case):
    got, _ = case
    assert isinstance(got, dict) and set(got) == KEYS


def test_sessions_reconstructed(case):
    got, exp = case
    g = [(s.get("user"), s.get("line"), s.get("host"), s.get("login")) for s in got["sessions"]]
    assert g == [(s["user"], s["line"], s["host"], s["login"]) for s in exp["sessions"]]


def test_session_ends(case):
    got, exp = case
    g = [(s.get("login"), s.get("line"), s.get("logout"), s.get("end")) for s in got["sessions"]]
    assert g == [(s["login"], s["line"], s["logout"], s["end"]) for s in exp["sessions"]]


def test_wiped_and_truncated_records(case):
    got, exp = case
    assert got["zeroed_records"] == exp["zeroed_records"]
    assert got["truncated"] == exp["truncated"]


def test_out_of_order_records(case):
    got, exp = case
    assert got["out_of_order"] == exp["out_of_order"]


def test_orphan_logouts(case):
    got, exp = case
    assert got["orphan_logouts"] == exp["orphan_logouts"]


def test_missing_logins(case):
    got, exp = case
    assert got["missing_logins"] == exp["missing_logins"]


def test_lastlog_mismatch(case):
    got, exp = case
    assert got["lastlog_mismatch"] == exp["lastlog_mismatch"]


def test_whole_report(case):
    got, exp = case
    assert got == exp
