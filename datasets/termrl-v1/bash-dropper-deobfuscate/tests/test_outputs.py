"""Behavioural tests for /app/deobf on droppers generated here (never seen by the agent)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import obgen  # noqa: E402

TOOL = "/app/deobf"


@pytest.fixture(scope="module", params=[5801, 5802, 5803])
def result(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(f"ob{request.param}")
    exp = obgen.build(request.param, str(d))
    r = subprocess.run([TOOL, str(d)], capture_output=True, timeout=600)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return json.loads(r.stdout), exp


def test_files(result):
    got, exp = result
    assert [x.get("file") for x in got] == [x["file"] for x in exp]


def test_commands(result):
    got, exp = result
    assert [(x.get("file"), x.get("command")) for x in got] == [(x["file"], x["command"]) for x in exp]


def test_layers(result):
    got, exp = result
    assert [(x.get("file"), x.get("layers")) for x in got] == [(x["file"], x["layers"]) for x in exp]


def test_never_executes_a_dropper(tmp_path):
    """Droppers whose real command would leave a marker file: the tool must report them, not run them."""
    r = obgen.random.Random(5804)
    d = tmp_path / "armed"
    d.mkdir()
    exp = []
    quoted = ["b64-eval", "b64-pipe", "printf-hex", "gz-b64"]  # forms whose text has quotes: outer only
    for i, kind in enumerate(quoted + ["rev", "split"]):
        marker = tmp_path / f"ran-{i}-{r.randrange(10**6)}"
        cmd = f"touch {marker}"
        inner, outer = ([r.choice(quoted)], [kind]) if kind in quoted else ([kind], quoted)
        k1, s = obgen.wrap(r, cmd, inner)
        k2, s = obgen.wrap(r, s, outer)
        name = f"{i:02d}-armed.sh"
        (d / name).write_text(s + "\n")
        exp.append({"file": name, "command": cmd, "layers": [k2, k1], "marker": marker})
    proc = subprocess.run([TOOL, str(d)], capture_output=True, timeout=600)
    ran = [x["file"] for x in exp if x["marker"].exists()]
    assert not ran, f"the tool executed droppers {ran}"
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    got = json.loads(proc.stdout)
    assert [(x.get("file"), x.get("command"), x.get("layers")) for x in got] == \
        [(x["file"], x["command"], x["layers"]) for x in exp]
