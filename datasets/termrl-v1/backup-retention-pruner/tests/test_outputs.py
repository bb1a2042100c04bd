import datetime
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = os.path.dirname(__file__)
NAME = re.compile(r"^db-(\d{8})-(\d{6})\.sql\.gz$")


def parse(n):
    m = NAME.match(n)
    if not m:
        return None
    try:
        return datetime.datetime.strptime(m.group(1) + m.group(2), "%Y%m%d%H%M%S")
    except ValueError:
        return None


def expected_keep(names, now, D=7, W=4, M=6):
    snaps = {n: parse(n) for n in names if parse(n)}
    keep = {n for n, t in snaps.items() if t > now}
    past = sorted(((t, n) for n, t in snaps.items() if t <= now), reverse=True)
    seen_day, seen_week, seen_month = set(), set(), set()
    for t, n in past:  # newest first: the first hit of each period is its newest
        dd = (now.date() - t.date()).days
        if dd < D and t.date() not in seen_day:
            seen_day.add(t.date())
            keep.add(n)
        wk = t.isocalendar()[:2]
        now_monday = now.date() - datetime.timedelta(days=now.isoweekday() - 1)
        t_monday = t.date() - datetime.timedelta(days=t.isoweekday() - 1)
        if (now_monday - t_monday).days // 7 < W and wk not in seen_week:
            seen_week.add(wk)
            keep.add(n)
        mi = (now.year - t.year) * 12 + now.month - t.month
        if mi < M and (t.year, t.month) not in seen_month:
            seen_month.add((t.year, t.month))
            keep.add(n)
    if past:
        keep.add(past[0][1])
    return keep


def run(d, *args):
    r = subprocess.run([sys.executable, "/app/prune.py", str(d), *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    d = tmp_path_factory.mktemp("orig")
    subprocess.run([sys.executable, os.path.join(HERE, "gen_snapshots.py"), str(d)], check=True)
    return sorted(os.listdir(d))


def test_backups_pruned(original):
    now = datetime.datetime(2025, 3, 15, 12, 0, 0)
    want = expected_keep(original, now)
    left = set(os.listdir("/backups/db"))
    snaps_left = {n for n in left if parse(n)}
    assert snaps_left == want
    assert 12 <= len(want) <= 20


def test_other_files_untouched():
    left = set(os.listdir("/backups/db"))
    assert {"README.txt", "db-latest.sql.gz", "db-20250315-235959.sql.gz.partial"} <= left


def make(d, names):
    d.mkdir(parents=True, exist_ok=True)
    for n in names:
        (d / n).write_text("x")


def test_dry_run_output_and_future(tmp_path):
    names = ["db-20250101-010101.sql.gz", "db-20250101-230000.sql.gz", "db-20250105-120000.sql.gz",
             "db-20250106-000001.sql.gz", "db-20250110-080000.sql.gz", "db-20250112-235959.sql.gz",
             "db-20250113-000000.sql.gz", "db-20250301-000000.sql.gz", "db-20250230-120000.sql.gz", "notes.txt"]
    make(tmp_path / "a", names)
    now = datetime.datetime(2025, 1, 12, 18, 0, 0)
    out = run(tmp_path / "a", "--now", now.isoformat(), "--daily", "3", "--weekly", "2", "--monthly", "1", "--dry-run")
    snaps = sorted(n for n in names if parse(n))
    keep = expected_keep(names, now, 3, 2, 1)
    assert out == [("keep " if n in keep else "delete ") + n for n in snaps]
    assert sorted(os.listdir(tmp_path / "a")) == sorted(names)
    assert "keep db-20250301-000000.sql.gz" in out and "keep db-20250113-000000.sql.gz" in out
    assert "keep db-20250105-120000.sql.gz" in out  # newest of the previous ISO week (Mon 30 Dec - Sun 5 Jan)
    assert "delete db-20250106-000001.sql.gz" in out


@pytest.mark.parametrize("now,D,W,M", [("2025-03-02T06:00:00", 7, 4, 6), ("2024-12-31T23:59:59", 2, 3, 12),
                                      ("2025-01-05T00:30:00", 1, 1, 1)])
def test_random_sets(tmp_path, now, D, W, M):
    import random
    rng = random.Random(now)
    base = datetime.datetime(2024, 8, 1)
    names = sorted({(base + datetime.timedelta(seconds=rng.randint(0, 230 * 86400))).strftime("db-%Y%m%d-%H%M%S.sql.gz")
                    for _ in range(300)})
    make(tmp_path / "r", names)
    nowdt = datetime.datetime.fromisoformat(now)
    out = run(tmp_path / "r", "--now", now, "--daily", str(D), "--weekly", str(W), "--monthly", str(M))
    keep = expected_keep(names, nowdt, D, W, M)
    assert set(os.listdir(tmp_path / "r")) == keep
    assert out == [("keep " if n in keep else "delete ") + n for n in names]
