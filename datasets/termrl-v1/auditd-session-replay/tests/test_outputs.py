import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import auditgen  # noqa: E402

TOOL = "/app/audit_sessions.py"


def run(tmp_path, seed, **opts):
    log, expected = auditgen.build(seed, **opts)
    p = tmp_path / f"audit-{seed}.log"
    p.write_bytes(log.encode())
    r = subprocess.run([sys.executable, TOOL, str(p)], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    got = json.loads(r.stdout)
    assert isinstance(got, dict) and set(got) == {"sessions"}, "the report is {\"sessions\": [...]}"
    return got["sessions"], expected["sessions"]


def same_sessions(got, exp):
    assert [(s.get("ses"), s.get("user")) for s in got] == [(s["ses"], s["user"]) for s in exp], \
        "wrong sessions or wrong order"
    for g, e in zip(got, exp):
        assert set(g) == set(e), f"session {e['ses']}: keys must be {sorted(e)}"


def compare(got, exp, keys):
    same_sessions(got, exp)
    for g, e in zip(got, exp):
        for k in keys:
            if k == "commands":
                assert len(g[k]) == len(e[k]), f"session {e['ses']}: {len(g[k])} commands, expected {len(e[k])}"
                for gc, ec in zip(g[k], e[k]):
                    assert gc == ec, f"session {e['ses']}, event {ec['serial']}: {str(gc)[:300]} != {str(ec)[:300]}"
            else:
                assert g[k] == e[k], f"session {e['ses']}: {k} {str(g[k])[:300]} != {str(e[k])[:300]}"


def test_sessions_and_commands_plain_log(tmp_path):
    got, exp = run(tmp_path, 11, interleave=False, long_args=False, many_args=False, odd_cwd=False)
    compare(got, exp, ["ses", "auid", "user", "addr", "commands", "created", "deleted"])


def test_interleaved_records(tmp_path):
    for seed in (21, 22):
        got, exp = run(tmp_path, seed, long_args=False, many_args=False, odd_cwd=False)
        compare(got, exp, ["ses", "auid", "user", "addr", "commands", "created", "deleted"])


def test_enriched_format(tmp_path):
    got, exp = run(tmp_path, 31, enriched=True, nsessions=4)
    compare(got, exp, ["ses", "auid", "user", "addr", "commands", "created", "deleted"])


def test_long_and_many_arguments(tmp_path):
    for seed in (41, 42, 43):
        got, exp = run(tmp_path, seed, long_args=True, many_args=True, odd_cwd=False)
        compare(got, exp, ["commands"])
    assert any(len(c["argv"]) > 150 for s in exp for c in s["commands"])


def test_encoded_names_and_directories(tmp_path):
    got, exp = run(tmp_path, 51, odd_cwd=True, hex_user=True, nsessions=4)
    compare(got, exp, ["user", "commands", "created"])
    assert any(" " in s["user"] for s in got)


def test_file_changes(tmp_path):
    for seed in (61, 62, 63):
        got, exp = run(tmp_path, seed, nsessions=5)
        compare(got, exp, ["created", "deleted"])


def test_full_report_many_sessions(tmp_path):
    got, exp = run(tmp_path, 71, enriched=True, nsessions=5, hex_user=True)
    assert got == exp
