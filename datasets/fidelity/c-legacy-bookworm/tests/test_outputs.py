import subprocess
from pathlib import Path

import pytest

SRC = Path("/app/src")


@pytest.fixture(scope="module")
def tool():
    # rebuild from the sources the agent left, with the image's own compiler and the Makefile
    subprocess.run(["make", "-C", str(SRC), "clean"], check=True, capture_output=True, timeout=60)
    build = subprocess.run(["make", "-C", str(SRC), "sum16"], capture_output=True, text=True, timeout=120)
    assert build.returncode == 0, build.stderr
    return str(SRC / "sum16")


@pytest.mark.parametrize("data", [b"", b"A", b"hello, world\n", bytes(range(256)) * 300, b"\xff" * 70000],
                         ids=["empty", "one-byte", "text", "all-bytes", "wraps-around"])
def test_checksum(tool, tmp_path, data):
    path = tmp_path / "input.bin"
    path.write_bytes(data)
    out = subprocess.run([tool, str(path)], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0
    assert out.stdout == f"{sum(data) & 0xffff:04x}\n"


def test_makefile_unchanged():
    assert "CFLAGS = -O2 -std=gnu11" in (SRC / "Makefile").read_text()
