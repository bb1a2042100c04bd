import hashlib
import os
import subprocess
from pathlib import Path

SCRIPT = "/app/reverse_lines.sh"
POEM_SHA256 = "49a635e02627e209d0907b384f79e1590de508d5dec8a614da696d5c91b5535e"


def reverse(data: str) -> subprocess.CompletedProcess:
    return subprocess.run([SCRIPT], input=data, capture_output=True, text=True, timeout=30)


def test_script_is_executable():
    assert os.path.isfile(SCRIPT) and os.access(SCRIPT, os.X_OK)


def test_simple_input():
    proc = reverse("one\ntwo\nthree\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "three\ntwo\none\n"


def test_missing_final_newline():
    proc = reverse("alpha\nbeta\ngamma")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "gamma\nbeta\nalpha\n"


def test_blank_lines_and_spaces_kept():
    proc = reverse("  indented\n\n\ttabbed  \nlast\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "last\n\ttabbed  \n\n  indented\n"


def test_empty_input():
    proc = reverse("")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""


def test_poem_reversed():
    assert Path("/app/poem_reversed.txt").read_text() == (
        "last boat home\n"
        "the tide turns at noon\n"
        "  gulls argue over scraps\n"
        "\n"
        "nets hung out to dry\n"
        "first light on the harbour\n"
    )


def test_poem_untouched():
    assert hashlib.sha256(Path("/app/poem.txt").read_bytes()).hexdigest() == POEM_SHA256
