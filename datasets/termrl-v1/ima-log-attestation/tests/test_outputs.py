"""Behavioural tests for /app/imacheck on IMA logs generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import imagen  # noqa: E402

TOOL = "/app/imacheck"
CASES = [(6101, True), (6202, True), (6303, False)]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"seed{c[0]}-{'tampered' if c[1] else 'clean'}")
def case(request, tmp_path_factory):
    seed, tamper = request.param
    d = tmp_path_factory.mktemp(f"ima{seed}")
    exp = imagen.build(seed, str(d), tamper=tamper)
    r = subprocess.run([TOOL, str(d)], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def cols(rows, *ks):
    return [tuple(json.dumps(x.get(k)) for k in ks) for x in rows]


def test_entries_parsed(case):
    got, exp = case
    ks = ("index", "template", "path", "algo", "digest")
    assert cols(got["entries"], *ks) == cols(exp["entries"], *ks)


def test_entry_status(case):
    got, exp = case
    assert cols(got["entries"], "index", "status") == cols(exp["entries"], "index", "status")


def test_template_hash_errors(case):
    got, exp = case
    assert got["template_hash_errors"] == exp["template_hash_errors"]


def test_quotes_replayed(case):
    got, exp = case
    assert got["quotes"] == exp["quotes"]


def test_trusted_prefix(case):
    got, exp = case
    assert got["trusted_entries"] == exp["trusted_entries"]
    assert cols(got["entries"], "index", "trusted") == cols(exp["entries"], "index", "trusted")


def test_whole_report(case):
    got, exp = case
    assert got == exp
