import gzip
from pathlib import Path

import pytest

REPORT = Path("/app/error_report.txt")
LOGS = Path("/app/logs")

EXPECTED = [
    ("db", 13),
    ("auth", 12),
    ("billing", 8),
    ("cache", 8),
    ("api", 6),
    ("scheduler", 3),
]


@pytest.fixture(scope="module")
def lines():
    assert REPORT.is_file(), "/app/error_report.txt was not written"
    return [line for line in REPORT.read_text().splitlines() if line.strip()]


def test_line_format(lines):
    assert lines, "the report is empty"
    for line in lines:
        parts = line.split(" ")
        assert len(parts) == 2 and parts[1].isdigit(), f"bad line: {line!r}"


def test_components(lines):
    components = [line.split(" ")[0] for line in lines]
    assert sorted(components) == sorted(name for name, _ in EXPECTED)


def test_counts(lines):
    got = {line.split(" ")[0]: int(line.split(" ")[1]) for line in lines}
    assert got == dict(EXPECTED)


def test_order(lines):
    assert lines == [f"{name} {count}" for name, count in EXPECTED]


def test_logs_untouched():
    assert sorted(p.name for p in LOGS.iterdir()) == ["app.log", "app.log.1", "app.log.2.gz"]
    with gzip.open(LOGS / "app.log.2.gz", "rt") as fh:
        assert sum(1 for _ in fh) == 208
    assert len((LOGS / "app.log.1").read_text().splitlines()) == 228
    assert len((LOGS / "app.log").read_text().splitlines()) == 172
