import json
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import log_gen  # noqa: E402
import log_ref  # noqa: E402


def run(tmp_path, text):
    p, o = tmp_path / "x.log", tmp_path / "o.json"
    p.write_text(text, encoding="utf-8")
    r = subprocess.run(["python3", "/app/logdigest.py", str(p), str(o)], capture_output=True, timeout=30)
    assert r.returncode == 0, r.stderr
    return json.loads(o.read_text())


def compare(got, exp):
    assert got["entries"] == exp["entries"]
    assert got["by_level"] == exp["by_level"]
    assert got["exceptions"] == exp["exceptions"]
    assert sorted(got["error_rate_per_logger"]) == sorted(exp["error_rate_per_logger"])
    for k, v in exp["error_rate_per_logger"].items():
        assert got["error_rate_per_logger"][k] == pytest.approx(v, abs=1e-9), k


def test_example(tmp_path):
    text = open("/app/app.log", encoding="utf-8").read()
    compare(run(tmp_path, text), log_ref.digest(text))


@pytest.mark.parametrize("seed", [5, 6, 7, 8])
def test_generated(tmp_path, seed):
    text = log_gen.gen(seed)
    compare(run(tmp_path, text), log_ref.digest(text))


def test_handpicked(tmp_path):
    text = ("2024-01-01 00:00:00,001 [ERROR] a.b - failed\n"
            "Traceback (most recent call last):\n"
            "ValueError: first\n"
            "  pkg.mod.CustomError: second\n"
            "2024-01-01 00:00:01,002 [WARN] a.b - \n"
            "  Error: just a word\n"
            "NotAnErrorReally\n"
            "2024-01-01 00:00:02,003 [INFO] c - ok\n"
            "2024-01-01 00:00:03 [ERROR] c - no millis, so this is a continuation\n"
            "Caused by: x.y.ZException\n"
            "2024-01-01 00:00:04,004 [ERROR] c-d - hyphen logger is not a header\n")
    got = run(tmp_path, text)
    assert got["entries"] == 3
    assert got["by_level"] == {"ERROR": 1, "WARNING": 1, "INFO": 1}
    assert got["exceptions"] == [
        {"type": "pkg.mod.CustomError", "count": 1, "first_seen": "2024-01-01 00:00:00,001", "loggers": ["a.b"]},
        {"type": "x.y.ZException", "count": 1, "first_seen": "2024-01-01 00:00:02,003", "loggers": ["c"]}]
    assert got["error_rate_per_logger"] == {"a.b": 0.5, "c": 0.0}
