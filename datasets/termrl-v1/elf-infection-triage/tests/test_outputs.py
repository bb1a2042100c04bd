"""Behavioural tests for /app/elftriage on binaries compiled and patched here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import elfgen  # noqa: E402

TOOL = "/app/elftriage"


@pytest.fixture(scope="module", params=[3901, 3902, 3903])
def triage(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"elf{request.param}")
    exp = elfgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d / "bin")], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def only(rows, finding):
    return sorted(x.get("file") for x in rows if finding in x.get("findings", []))


def test_elf_files_listed(triage):
    got, exp = triage
    assert [x.get("file") for x in got] == [x["file"] for x in exp]


def test_clean_binaries_have_no_findings(triage):
    got, exp = triage
    clean = {x["file"] for x in exp if not x["findings"]}
    assert {x["file"] for x in got if not x.get("findings")} == clean


def test_entry_and_segments(triage):
    got, exp = triage
    for k in ("entry-outside-text", "rwx-segment", "load-without-sections"):
        assert only(got, k) == only(exp, k), k


def test_interpreter_and_runpath(triage):
    got, exp = triage
    for k in ("unusual-interpreter", "suspicious-runpath"):
        assert only(got, k) == only(exp, k), k


def test_whole_report(triage):
    got, exp = triage
    assert got == exp
