import re
import sys
from collections import Counter
from pathlib import Path


def test_runs_on_python_313():
    assert sys.version_info[:2] == (3, 13)


def test_status_counts():
    log = Path("/app/access.log").read_text().splitlines()
    counts = Counter(re.search(r'" (\d{3}) ', line).group(1) for line in log)
    expected = "".join(f"{code} {counts[code]}\n" for code in sorted(counts, key=int))
    assert Path("/app/status_counts.txt").read_text() == expected
