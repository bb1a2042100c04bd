import statistics
import subprocess
import sys
from pathlib import Path


def expected(values):
    mean = statistics.fmean(values)
    std = statistics.pstdev(values)
    return [f"{round((v - mean) / std, 3):.3f}" for v in values]


def test_interpreter_is_the_images():
    # pip installed pytest 8.4.1 into the image's Python 3.13 at /usr/local
    import pytest

    assert sys.version_info[:2] == (3, 13) and sys.prefix == "/usr/local"
    assert pytest.__version__ == "8.4.1"


def test_zscores_file():
    values = [float(x) for x in Path("/app/readings.txt").read_text().split()]
    assert Path("/app/zscores.txt").read_text().split() == expected(values)


def test_script_on_new_data(tmp_path):
    values = [1.0, 2.0, 2.0, 3.0, 10.5]
    src, dst = tmp_path / "in.txt", tmp_path / "out.txt"
    src.write_text("\n".join(map(str, values)) + "\n")
    subprocess.run(["python", "/app/zscore.py", str(src), str(dst)], check=True, timeout=60)
    assert dst.read_text().split() == expected(values)


def test_uses_the_pinned_numpy():
    out = subprocess.run(["python", "-c", "import numpy; print(numpy.__version__)"], capture_output=True,
                         text=True, timeout=60)
    assert out.stdout.strip() == "2.2.6"
    assert "numpy" in Path("/app/zscore.py").read_text()
