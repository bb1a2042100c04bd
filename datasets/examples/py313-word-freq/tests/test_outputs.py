import subprocess
from pathlib import Path

import pytest

TOOL = "/app/wordfreq.py"


def run(*args):
    return subprocess.run(["python3", TOOL, *args], capture_output=True, text=True, timeout=30)


@pytest.fixture
def textfile(tmp_path):
    def write(text, name="input.txt"):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write


def test_top5_file():
    assert Path("/app/top5.txt").read_text() == "cat\t4\nkeeper's\t3\nlamp\t3\nrain\t3\nboat\t2\n"


def test_default_limit_and_ordering(textfile):
    text = ("zeta alpha Beta gamma solo omega\n"
            "ALPHA beta zeta delta kappa iota eta\n"
            "beta alpha Zeta gamma delta xi nu mu\n")
    proc = run(textfile(text))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "alpha\t3", "beta\t3", "zeta\t3", "delta\t2", "gamma\t2",
        "eta\t1", "iota\t1", "kappa\t1", "mu\t1", "nu\t1",
    ]


def test_word_definition(textfile):
    text = "Don't stop: don't! The keeper's lamp-room; lamp ROOM room. 42 x2y rock'n'roll ''quoted'' end'"
    proc = run(textfile(text), "-n", "50")
    assert proc.returncode == 0, proc.stderr
    got = dict(line.split("\t") for line in proc.stdout.splitlines())
    assert got == {
        "don't": "2", "room": "3", "lamp": "2", "stop": "1", "the": "1", "keeper's": "1",
        "x": "1", "y": "1", "rock'n'roll": "1", "quoted": "1", "end": "1",
    }


def test_fewer_words_than_n(textfile):
    proc = run(textfile("one two two\n"), "-n", "7")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "two\t2\none\t1\n"


def test_stopwords(textfile, tmp_path):
    stop = tmp_path / "stop.txt"
    stop.write_text("# comment line\n\nThe\nAND\n#and\n")
    proc = run(textfile("the cat and the hat and THE bat #and\n"), "--stopwords", str(stop), "-n", "3")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "bat\t1\ncat\t1\nhat\t1\n"


def test_missing_file():
    assert Path(TOOL).is_file(), f"{TOOL} does not exist"
    proc = run("/app/does-not-exist.txt")
    assert proc.returncode != 0
    assert proc.stdout == ""
    assert proc.stderr.strip()
