"""Behavioural tests for /app/credread on stores written here by the vendor writer."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import csgen  # noqa: E402

TOOL = "/app/credread"


@pytest.fixture(scope="module", params=[9901, 9902])
def decoded(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"cs{request.param}")
    exp = csgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d)], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def test_stores_listed(decoded):
    got, exp = decoded
    assert sorted(got) == sorted(exp)


def test_names(decoded):
    got, exp = decoded
    for k in exp:
        assert [e.get("name") for e in got[k]] == [e["name"] for e in exp[k]], k


def test_secrets(decoded):
    got, exp = decoded
    for k in exp:
        assert [e.get("secret") for e in got[k]] == [e["secret"] for e in exp[k]], k


def test_checksums(decoded):
    got, exp = decoded
    for k in exp:
        assert [e.get("checksum_ok") for e in got[k]] == [e["checksum_ok"] for e in exp[k]], k
