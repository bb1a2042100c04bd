import os
import subprocess
import zipfile

import pytest

TEXT = "The cat and the dog. The cat sat in it, and the dog ran to a cat!\nzebra zebra"


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    d = tmp_path_factory.mktemp("v")
    v = d / "venv"
    subprocess.run(["python3", "-m", "venv", "--system-site-packages", str(v)], check=True)
    r = subprocess.run([str(v / "bin/pip"), "install", "--no-build-isolation", "--no-index", "/app/textstats"],
                       capture_output=True, text=True, cwd=str(d), timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return v


def run(cmd, cwd="/", inp=TEXT):
    return subprocess.run(cmd, input=inp, capture_output=True, text=True, cwd=cwd, timeout=60)


def test_command_filters_stopwords(venv):
    r = run([str(venv / "bin/textstats"), "-n", "3"])
    assert r.returncode == 0, r.stderr
    assert r.stdout == "3 cat\n2 dog\n2 zebra\n"


def test_keep_stopwords(venv):
    r = run([str(venv / "bin/textstats"), "-n", "2", "--keep-stopwords"])
    assert r.stdout == "4 the\n3 cat\n"


def test_version_single_source(venv):
    r = run([str(venv / "bin/textstats"), "--version"])
    assert r.stdout.strip() == "textstats 0.4.1"
    r = run([str(venv / "bin/python"), "-c", "import importlib.metadata as m; print(m.version('textstats'))"])
    assert r.stdout.strip() == "0.4.1"


def test_python_m(venv):
    r = run([str(venv / "bin/python"), "-m", "textstats", "-n", "1"])
    assert r.returncode == 0, r.stderr
    assert r.stdout == "3 cat\n"


def test_installed_not_from_source_tree(venv):
    r = run([str(venv / "bin/python"), "-c", "import textstats; print(textstats.__file__)"])
    assert "site-packages" in r.stdout, r.stdout


def test_wheel_contents(tmp_path):
    r = subprocess.run(["pip", "wheel", "--no-build-isolation", "--no-index", "--no-deps", "-w", str(tmp_path),
                        "/app/textstats"], capture_output=True, text=True, cwd=str(tmp_path), timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    wheels = [f for f in os.listdir(tmp_path) if f.endswith(".whl")]
    assert len(wheels) == 1 and wheels[0].startswith("textstats-0.4.1-")
    names = zipfile.ZipFile(tmp_path / wheels[0]).namelist()
    assert "textstats/data/stopwords.txt" in names
    assert not any(n.startswith("tests/") for n in names)
    assert "textstats/cli.py" in names
