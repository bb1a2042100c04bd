import os
import random
import statistics
import subprocess

import pytest

APP = "/app"
BIN = "/app/bin/stats-tool"


@pytest.fixture(scope="module")
def built():
    r = subprocess.run("make clean && make", shell=True, cwd=APP, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def run(data):
    return subprocess.run([BIN], input=data, capture_output=True, text=True, timeout=20)


def parse(out):
    return {k: float(v) for k, v in (line.split() for line in out.strip().splitlines())}


def test_clean_build_succeeds(built):
    assert os.access(BIN, os.X_OK)
    assert any(f.endswith(".o") for f in os.listdir("/app/obj"))


def test_simple_values(built):
    r = run("1 2 3 4\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "count 4"
    d = parse(r.stdout)
    assert d["mean"] == pytest.approx(2.5)
    assert d["median"] == pytest.approx(2.5)
    assert d["stddev"] == pytest.approx(statistics.stdev([1, 2, 3, 4]), abs=1e-6)


def test_random_values(built):
    rng = random.Random(3)
    for _ in range(20):
        vals = [round(rng.uniform(-1000, 1000), 3) for _ in range(rng.randint(2, 200))]
        r = run(" ".join(map(str, vals)))
        d = parse(r.stdout)
        assert d["count"] == len(vals)
        assert d["mean"] == pytest.approx(statistics.mean(vals), abs=1e-5)
        assert d["median"] == pytest.approx(statistics.median(vals), abs=1e-5)
        assert d["stddev"] == pytest.approx(statistics.stdev(vals), abs=1e-5)


def test_empty_input_fails(built):
    r = run("")
    assert r.returncode == 1


def test_clean_removes_outputs(built):
    r = subprocess.run(["make", "clean"], cwd=APP, capture_output=True, text=True)
    assert r.returncode == 0
    assert not os.path.exists("/app/bin") and not os.path.exists("/app/obj")
    r = subprocess.run(["make"], cwd=APP, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert run("5 1 9").stdout.splitlines()[-1] == "median 5.000000"
