"""Behavioural tests for /app/capaudit on backups generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import capgen  # noqa: E402

TOOL = "/app/capaudit"
ARCHIVES = [(5101, "gnu", "gz", "web01.tar.gz"), (5202, "bsd", "xz", "db02.tar.xz"), (5303, "bsd", "none", "ci03.tar"),
            (5404, "gnu", "none", "mx04.tar")]


@pytest.fixture(scope="module", params=ARCHIVES, ids=lambda a: a[3])
def audit(request, tmp_path_factory):
    seed, style, comp, name = request.param
    data, expected = capgen.build(seed, style, comp)
    p = tmp_path_factory.mktemp("bk") / name
    p.write_bytes(data)
    r = subprocess.run([TOOL, str(p)], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), expected


def table(rows, *keys):
    return [tuple(json.dumps(x.get(k)) for k in keys) for x in rows]


def test_report_shape(audit):
    got, _ = audit
    assert set(got) == {"capabilities", "setid"}
    for x in got["capabilities"]:
        assert set(x) == {"path", "permitted", "inheritable", "effective", "rootid", "findings"}, x


def test_which_paths_have_capabilities(audit):
    got, exp = audit
    assert [x["path"] for x in got["capabilities"]] == [x["path"] for x in exp["capabilities"]]


def test_decoded_capability_sets(audit):
    got, exp = audit
    keys = ("path", "permitted", "inheritable", "effective", "rootid")
    assert table(got["capabilities"], *keys) == table(exp["capabilities"], *keys)


def test_findings(audit):
    got, exp = audit
    assert table(got["capabilities"], "path", "findings") == table(exp["capabilities"], "path", "findings")


def test_setid_files(audit):
    got, exp = audit
    assert got["setid"] == exp["setid"]


def test_whole_report(audit):
    got, exp = audit
    assert got == exp
