"""/app/mkwheel on source trees generated here; the wheels are installed with pip (offline) into a
fresh virtual environment and used, their RECORD is checked, and rebuilds must be byte-identical."""
import base64
import hashlib
import os
import random
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement

RNG = random.Random(os.urandom(8))
TOOL = "/app/mkwheel"


def word(n=3):
    return "".join(RNG.choice("bdfgklmnprstvz") + RNG.choice("aeiou") for _ in range(n))


def make_project(root: Path, dynamic=True):
    pkg = word() + "_" + word(2)
    name = RNG.choice([f"{pkg.replace('_', '-').title()}", f"{pkg.replace('_', '.')}", f"{pkg.upper()}"])
    version = f"{RNG.randint(0, 9)}.{RNG.randint(0, 20)}.{RNG.randint(0, 9)}" + RNG.choice(["", "rc1", ".post2", ".dev3"])
    token = word(4)
    script = word(2) + "-" + word(2)
    extra = RNG.choice(["Fast", "yaml_support", "PDF.export"])
    deps = [f"{word()}>=1.{RNG.randint(0, 9)}", f"{word()}-mini; sys_platform == \"win32\"", f"{word()}[x,y]~=2.1"]
    opt = [f"{word()}>=3", f"{word()}; python_version < \"3.10\""]
    src = root / "src" / pkg
    (src / "data").mkdir(parents=True)
    (src / "sub").mkdir()
    (src / "tests").mkdir()
    (src / "__pycache__").mkdir()
    vline = f'__version__ = "{version}"\n'
    (src / "__init__.py").write_text(f'"""{pkg}"""\n' + (vline if dynamic else "") + "TOKEN = %r\n" % token)
    (src / "cli.py").write_text(
        "import sys\nfrom importlib import resources\nfrom . import TOKEN\nfrom .sub.calc import twice\n\n\n"
        "def main():\n    note = resources.files(__package__).joinpath('data/note.txt').read_text().strip()\n"
        "    print(TOKEN, note, twice(int(sys.argv[1])))\n    return 0\n")
    (src / "sub" / "__init__.py").write_text("")
    (src / "sub" / "calc.py").write_text("def twice(x):\n    return 2 * x\n")
    note = word(5)
    (src / "data" / "note.txt").write_text(note + "\n")
    (src / "data" / "table.bin").write_bytes(bytes(RNG.randrange(256) for _ in range(300)))
    tool = src / "data" / "helper.sh"
    tool.write_text("#!/bin/sh\necho helper\n")
    tool.chmod(0o755)
    (src / "tests" / "test_it.py").write_text("def test(): pass\n")
    (src / "cli.py.orig").write_text("old\n")
    (src / "__pycache__" / "cli.cpython-311.pyc").write_bytes(b"\0" * 16)
    (src / "sub" / "calc.pyc").write_bytes(b"\0" * 8)
    dl = ", ".join('"' + d.replace('"', '\\"') + '"' for d in deps)
    ol = ", ".join('"' + d.replace('"', '\\"') + '"' for d in opt)
    (root / "pyproject.toml").write_text(f"""[project]
name = "{name}"
{'dynamic = ["version"]' if dynamic else f'version = "{version}"'}
description = "generated {token}"
requires-python = ">=3.8"
dependencies = [{dl}]

[project.optional-dependencies]
"{extra}" = [{ol}]

[project.scripts]
{script} = "{pkg}.cli:main"

[project.gui-scripts]
{script}-gui = "{pkg}.cli:main"

[project.entry-points."{word()}.plugins"]
first = "{pkg}.sub.calc:twice"

[tool.mkwheel]
packages = ["src/{pkg}"]
exclude = ["{pkg}/tests/*", "*.orig"]
""")
    (root / "README.md").write_text("not packaged\n")
    expected_files = {f"{pkg}/__init__.py", f"{pkg}/cli.py", f"{pkg}/sub/__init__.py", f"{pkg}/sub/calc.py",
                      f"{pkg}/data/note.txt", f"{pkg}/data/table.bin", f"{pkg}/data/helper.sh"}
    return dict(pkg=pkg, name=name, version=version, token=token, script=script, extra=extra, deps=deps, opt=opt,
                note=note, files=expected_files)


def norm(n, sep="-"):
    import re
    return re.sub(r"[-_.]+", sep, n).lower()


def build(src, out, env=None, umask=None):
    out.mkdir(exist_ok=True)
    pre = (lambda: os.umask(umask)) if umask is not None else None
    r = subprocess.run([TOOL, str(src), str(out)], capture_output=True, text=True, timeout=120,
                       env={**os.environ, **(env or {})}, preexec_fn=pre, cwd="/")
    assert r.returncode == 0, f"mkwheel failed: {r.stderr}"
    whls = list(out.glob("*.whl"))
    assert len(whls) == 1, f"expected one wheel in {out}: {whls}"
    return whls[0]


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """an install target: pip installs into it offline; its bin/ holds the scripts"""
    return tmp_path_factory.mktemp("target") / "t"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("proj")
    info = make_project(root)
    info["root"] = root
    info["wheel"] = build(root, tmp_path_factory.mktemp("out"), env={"SOURCE_DATE_EPOCH": "1700000000"})
    return info


def test_wheel_name_and_contents(project):
    dist = norm(project["name"], "_")
    assert project["wheel"].name == f"{dist}-{project['version']}-py3-none-any.whl"
    names = zipfile.ZipFile(project["wheel"]).namelist()
    di = f"{dist}-{project['version']}.dist-info"
    meta = {n for n in names if n.startswith(di + "/")}
    assert {f"{di}/METADATA", f"{di}/WHEEL", f"{di}/RECORD", f"{di}/entry_points.txt"} == meta, names
    assert set(names) - meta == project["files"], f"package files: {sorted(set(names) - meta)}"
    body = [n for n in names if n not in meta]
    assert names == body + sorted(meta - {f"{di}/RECORD"}) + [f"{di}/RECORD"], names
    assert body == sorted(body), names
    wheel = zipfile.ZipFile(project["wheel"]).read(f"{di}/WHEEL").decode()
    for line in ("Wheel-Version: 1.0", "Root-Is-Purelib: true", "Tag: py3-none-any"):
        assert line in wheel.splitlines(), wheel


def test_record_hashes(project):
    z = zipfile.ZipFile(project["wheel"])
    di = [n for n in z.namelist() if n.endswith(".dist-info/RECORD")][0]
    rows = [line.split(",") for line in z.read(di).decode().splitlines() if line]
    listed = {r[0] for r in rows}
    assert listed == set(z.namelist()), f"RECORD lists {sorted(listed)}"
    for path, h, size in rows:
        if path == di:
            assert h == "" and size == "", f"RECORD's own line: {path},{h},{size}"
            continue
        data = z.read(path)
        want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert h == want and int(size) == len(data), f"bad RECORD row for {path}: {h},{size}"


def test_installs_and_runs(project, venv):
    r = subprocess.run(["python3", "-m", "pip", "install", "--no-index", "--no-deps", "--no-compile", "--target", str(venv),
                        str(project["wheel"])], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    n = RNG.randint(1, 999)
    env = {**os.environ, "PYTHONPATH": str(venv)}
    r = subprocess.run([str(venv / "bin" / project["script"]), str(n)], capture_output=True, text=True, timeout=60, cwd="/", env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [project["token"], project["note"], str(2 * n)], r.stdout
    assert (venv / "bin" / (project["script"] + "-gui")).exists(), "gui script not installed"
    code = ("import importlib.metadata as m, json, sys\n"
            f"d = m.distribution({project['name']!r})\n"
            "eps = [[e.group, e.name, e.value] for e in d.entry_points]\n"
            "print(json.dumps({'name': d.metadata['Name'], 'version': d.version, 'rp': d.metadata['Requires-Python'],"
            " 'summary': d.metadata['Summary'], 'req': d.requires, 'extras': d.metadata.get_all('Provides-Extra'), 'eps': eps}))\n")
    r = subprocess.run(["python3", "-c", code], capture_output=True, text=True, timeout=60, cwd="/", env=env)
    assert r.returncode == 0, r.stderr
    import json
    got = json.loads(r.stdout)
    assert got["name"] == project["name"] and got["version"] == project["version"], got
    assert got["rp"] == ">=3.8" and got["summary"] == f"generated {project['token']}", got
    extra = norm(project["extra"])
    assert got["extras"] == [extra], got
    groups = sorted(e[0] for e in got["eps"])
    assert groups.count("console_scripts") == 1 and groups.count("gui_scripts") == 1 and len(groups) == 3, got["eps"]
    reqs = [Requirement(x) for x in got["req"]]
    # each requirement is active exactly where the source says
    for envx in [{"sys_platform": "linux", "python_version": "3.11"}, {"sys_platform": "win32", "python_version": "3.9"}]:
        for ex in ("", extra):
            want = sorted(str(Requirement(d.split(";")[0]).name) for d in project["deps"]
                          if ";" not in d or Marker(d.split(";", 1)[1]).evaluate(envx))
            if ex:
                want += sorted(Requirement(d.split(";")[0]).name for d in project["opt"]
                               if ";" not in d or Marker(d.split(";", 1)[1]).evaluate(envx))
            have = sorted(q.name for q in reqs if q.marker is None or q.marker.evaluate({**envx, "extra": ex}))
            assert sorted(have) == sorted(want), (envx, ex, got["req"])
    for d in project["deps"] + project["opt"]:
        q = Requirement(d.split(";")[0])
        match = [x for x in reqs if x.name == q.name]
        assert match and str(match[0].specifier) == str(q.specifier) and match[0].extras == q.extras, (d, got["req"])


def test_modes_and_timestamps(project):
    z = zipfile.ZipFile(project["wheel"])
    for zi in z.infolist():
        assert zi.date_time == (2023, 11, 14, 22, 13, 20), (zi.filename, zi.date_time)
        mode = (zi.external_attr >> 16) & 0o777
        want = 0o755 if zi.filename.endswith("helper.sh") else 0o644
        assert mode == want, (zi.filename, oct(mode))


def test_reproducible(tmp_path):
    a = tmp_path / "a" / "proj"
    a.parent.mkdir()
    info = make_project(a, dynamic=RNG.random() < 0.5)
    b = tmp_path / "b" / "elsewhere" / "x"
    shutil.copytree(a, b)
    for p in b.rglob("*"):
        os.utime(p, (RNG.randint(10**9, 2 * 10**9),) * 2)
        if p.is_file() and p.name != "helper.sh":
            p.chmod(0o600)
    w1 = build(a, tmp_path / "o1", umask=0o022)
    w2 = build(b, tmp_path / "o2", umask=0o077)
    assert w1.name == w2.name
    assert w1.read_bytes() == w2.read_bytes(), "two builds of the same sources differ"
    for zi in zipfile.ZipFile(w1).infolist():
        assert zi.date_time == (1980, 1, 1, 0, 0, 0), (zi.filename, zi.date_time)
    w3 = build(a, tmp_path / "o3", env={"SOURCE_DATE_EPOCH": str(1600000000 + RNG.randint(0, 10**7))})
    w4 = build(b, tmp_path / "o4", env={"SOURCE_DATE_EPOCH": "0"})
    assert zipfile.ZipFile(w4).infolist()[0].date_time == (1980, 1, 1, 0, 0, 0)
    assert w3.read_bytes() != w1.read_bytes()
