"""Behavioural tests for /app/credaudit on configurations generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import cfggen  # noqa: E402

TOOL = "/app/credaudit"
SEEDS = [7301, 7302]


@pytest.fixture(scope="module", params=SEEDS)
def audit(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"net{request.param}")
    expected = cfggen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d / "configs"), str(d / "wordlist.txt")], capture_output=True, timeout=900)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), expected


def cols(rows, *keys):
    return [tuple(json.dumps(x.get(k)) for k in keys) for x in rows]


def test_credential_lines_found(audit):
    got, exp = audit
    assert isinstance(got, list)
    assert cols(got, "device", "line") == cols(exp, "device", "line")


def test_contexts_and_types(audit):
    got, exp = audit
    assert cols(got, "device", "line", "context", "type") == cols(exp, "device", "line", "context", "type")


def test_reversible_secrets_decoded(audit):
    got, exp = audit
    want = [(e["device"], e["line"], e["secret"]) for e in exp if e["type"] in ("0", "7")]
    have = [(e.get("device"), e.get("line"), e.get("secret")) for e in got if e.get("type") in ("0", "7")]
    assert have == want


def test_hashes_cracked(audit):
    got, exp = audit
    want = [(e["device"], e["line"], e["type"], e["secret"]) for e in exp if e["type"] in ("5", "8", "9")]
    have = [(e.get("device"), e.get("line"), e.get("type"), e.get("secret")) for e in got
            if e.get("type") in ("5", "8", "9")]
    assert have == want
    assert any(e["secret"] is None for e in exp) and any(e["type"] == "9" and e["secret"] for e in exp)


def test_findings(audit):
    got, exp = audit
    assert cols(got, "device", "line", "findings") == cols(exp, "device", "line", "findings")


def test_whole_report(audit):
    got, exp = audit
    assert got == exp
