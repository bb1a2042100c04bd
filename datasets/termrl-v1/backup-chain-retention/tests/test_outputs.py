"""/app/prune-backups on backup directories generated here; the expected verdicts follow the
instruction's chain and retention rules, computed independently here."""
import os
import random
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/prune-backups"


def run(d, *args):
    return subprocess.run([TOOL, str(d), *map(str, args)], capture_output=True, text=True, timeout=60)


def model(backups, keep_last, keep_full, keep_days=0, now=None):
    """backups: list of (host, time, type, failed). Returns {name: keep?}."""
    out = {}
    for host in {b[0] for b in backups}:
        bs = sorted((b for b in backups if b[0] == host), key=lambda b: b[1])

        def name(b):
            return f"{b[0]}_{b[1]:%Y-%m-%d_%H%M%S}_{b[2]}.tar.gz"

        def chain(i):
            b = bs[i]
            if b[3]:
                return None
            if b[2] == "full":
                return [i]
            cands = [j for j in range(i) if not bs[j][3] and (b[2] == "incr" or bs[j][2] == "full")]
            if not cands:
                return None
            rest = chain(max(cands))
            return None if rest is None else [i] + rest

        chains = {i: chain(i) for i in range(len(bs))}
        ok = [i for i in range(len(bs)) if chains[i] is not None]
        pts = set(ok[max(0, len(ok) - keep_last):])
        fulls = [i for i in ok if bs[i][2] == "full"]
        pts |= set(fulls[max(0, len(fulls) - keep_full):])
        if keep_days:
            pts |= {i for i in ok if bs[i][1] >= now - timedelta(hours=24 * keep_days)}
        keep = {j for i in pts for j in chains[i]}
        for i, b in enumerate(bs):
            out[name(b)] = i in keep
    return out


def random_backups():
    backups = []
    for host in RNG.sample(["web1", "db-2", "mail", "cache-eu-1", "x9"], RNG.randint(1, 3)):
        t = datetime(2026, RNG.randint(1, 10), RNG.randint(1, 28), RNG.randint(0, 23), RNG.randint(0, 59), RNG.randint(0, 59))
        for _ in range(RNG.randint(4, 14)):
            typ = RNG.choices(["full", "diff", "incr"], [2, 3, 5])[0]
            backups.append((host, t, typ, RNG.random() < 0.12))
            t += timedelta(hours=RNG.choice([1, 6, 24, 24, 24, 48]), seconds=RNG.randint(0, 100))
    return backups


def materialise(d, backups):
    d.mkdir()
    for h, t, typ, failed in backups:
        (d / f"{h}_{t:%Y-%m-%d_%H%M%S}_{typ}.tar.gz").write_bytes(b"" if failed else b"\x1f\x8b" + os.urandom(30))


def expected_output(verdict):
    return "".join(f"{'keep' if verdict[n] else 'delete'} {n}\n" for n in sorted(verdict))


@pytest.mark.parametrize("round_", range(4))
def test_random_directories(tmp_path, round_):
    backups = random_backups()
    d = tmp_path / "b"
    materialise(d, backups)
    kl, kf = RNG.randint(0, 5), RNG.randint(0, 2)
    args = ["--keep-last", kl, "--keep-full", kf]
    kd, now = 0, None
    if RNG.random() < 0.6:
        kd = RNG.randint(1, 6)
        now = max(b[1] for b in backups) - timedelta(hours=RNG.randint(0, 72), seconds=RNG.choice([0, 1]))
        args += ["--keep-days", kd, "--now", f"{now:%Y-%m-%dT%H:%M:%S}"]
    RNG.shuffle(pairs := [args[i:i + 2] for i in range(0, len(args), 2)])
    r = run(d, *[x for p in pairs for x in p])
    assert r.returncode == 0, r.stderr
    verdict = model(backups, kl, kf, kd, now)
    assert r.stdout == expected_output(verdict)
    assert sorted(os.listdir(d)) == sorted(n for n, k in verdict.items() if k)


def test_defaults_and_dry_run(tmp_path):
    backups = random_backups()
    d = tmp_path / "b"
    materialise(d, backups)
    before = sorted(os.listdir(d))
    r = run(d, "--dry-run")
    assert r.returncode == 0, r.stderr
    assert r.stdout == expected_output(model(backups, 7, 2))
    assert sorted(os.listdir(d)) == before


def test_chain_rules(tmp_path):
    d = tmp_path / "c"
    T = datetime(2026, 3, 1, 1, 0, 0)
    seq = [("full", False), ("incr", False), ("diff", False), ("incr", True), ("incr", False), ("full", True),
           ("diff", False), ("incr", False)]
    backups = [("h", T + timedelta(days=i), typ, failed) for i, (typ, failed) in enumerate(seq)]
    materialise(d, backups)
    r = run(d, "--keep-last", "1", "--keep-full", "0")
    assert r.returncode == 0, r.stderr
    # last incr -> diff of day 7 (the full of day 6 failed) -> full of day 1; the incr of day 5 is not needed
    assert r.stdout == "".join(f"{v} h_2026-03-{d:02d}_010000_{t}.tar.gz\n" for v, d, t in [
        ("keep", 1, "full"), ("delete", 2, "incr"), ("delete", 3, "diff"), ("delete", 4, "incr"), ("delete", 5, "incr"),
        ("delete", 6, "full"), ("keep", 7, "diff"), ("keep", 8, "incr")])
    d2 = tmp_path / "c2"
    materialise(d2, backups)
    r = run(d2, "--keep-last", "3", "--keep-full", "0")
    # now the incr of day 5 is a kept restore point too: it needs the diff of day 3 (not the failed incr of day 4)
    assert [line.split()[0] for line in r.stdout.splitlines()] == ["keep", "delete", "keep", "delete", "keep", "delete",
                                                                    "keep", "keep"]
    assert r.stdout == expected_output(model(backups, 3, 0))


def test_non_backups_untouched(tmp_path):
    d = tmp_path / "n"
    d.mkdir()
    junk = ["web_2026-02-30_010000_full.tar.gz", "web_2026-02-10_250000_full.tar.gz", "Web_2026-02-10_010000_full.tar.gz",
            "web_2026-02-10_010000_FULL.tar.gz", "web_2026-02-10_010000_full.tar.gz.tmp", "web_2026-2-10_010000_full.tar.gz",
            "web_host_2026-02-10_010000_full.tar.gz", "notes.txt"]
    for j in junk:
        (d / j).write_text("x")
    (d / "web_2026-02-11_010000_full.tar.gz").mkdir()
    (d / "web_2026-02-12_010000_full.tar.gz").write_text("real")
    os.symlink("web_2026-02-12_010000_full.tar.gz", d / "web_2026-02-13_010000_full.tar.gz")
    (d / "web_2026-02-14_010000_incr.tar.gz").write_text("real")
    r = run(d, "--keep-last", "0", "--keep-full", "0")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ("delete web_2026-02-12_010000_full.tar.gz\ndelete web_2026-02-14_010000_incr.tar.gz\n")
    assert sorted(os.listdir(d)) == sorted(junk + ["web_2026-02-11_010000_full.tar.gz", "web_2026-02-13_010000_full.tar.gz"])


def test_bad_options(tmp_path):
    d = tmp_path / "e"
    d.mkdir()
    (d / "a_2026-01-01_000000_full.tar.gz").write_text("x")
    r = run(d, "--keep-days", "3")
    assert r.returncode == 2 and r.stderr.strip()
    r = run(d, "--keep-last", "many")
    assert r.returncode == 2 and r.stderr.strip()
    assert os.listdir(d) == ["a_2026-01-01_000000_full.tar.gz"]


def test_this_machine():
    left = sorted(os.listdir("/srv/backups"))
    assert left == sorted([
        "README", "Web1_2026-09-14_020000_full.tar.gz", "web1_2026-02-30_020000_full.tar.gz",
        "web1_2026-09-13_020000_full.tar.gz.part",
        "db-2_2026-09-03_233000_full.tar.gz", "db-2_2026-09-04_233000_diff.tar.gz", "db-2_2026-09-05_233000_diff.tar.gz",
        "db-2_2026-09-06_233000_incr.tar.gz", "mail_2026-07-01_010000_full.tar.gz", "mail_2026-09-01_010000_incr.tar.gz",
        "web1_2026-09-08_020000_full.tar.gz", "web1_2026-09-09_020000_incr.tar.gz", "web1_2026-09-11_020000_incr.tar.gz",
        "web1_2026-09-12_020000_diff.tar.gz"])
