#!/usr/bin/env python3
"""Chain-aware pruning of full/diff/incr backups, per host."""
import argparse
import os
import re
import sys
from datetime import datetime, timedelta

NAME = re.compile(r"([a-z0-9-]+)_(\d{4}-\d{2}-\d{2}_\d{6})_(full|diff|incr)\.tar\.gz")


def main():
    ap = argparse.ArgumentParser(prog="prune-backups")
    ap.add_argument("dir")
    ap.add_argument("--keep-last", type=int, default=7)
    ap.add_argument("--keep-full", type=int, default=2)
    ap.add_argument("--keep-days", type=int, default=0)
    ap.add_argument("--now")
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    if min(a.keep_last, a.keep_full, a.keep_days) < 0:
        ap.error("negative count")
    now = None
    if a.keep_days > 0:
        if not a.now:
            ap.error("--keep-days needs --now")
        try:
            now = datetime.strptime(a.now, "%Y-%m-%dT%H:%M:%S")
        except ValueError:
            ap.error("bad --now")
    hosts = {}
    for n in os.listdir(a.dir):
        m = NAME.fullmatch(n)
        p = os.path.join(a.dir, n)
        if not m or os.path.islink(p) or not os.path.isfile(p):
            continue
        try:
            t = datetime.strptime(m.group(2), "%Y-%m-%d_%H%M%S")
        except ValueError:
            continue
        hosts.setdefault(m.group(1), []).append({"name": n, "t": t, "type": m.group(3),
                                                 "failed": os.path.getsize(p) == 0})
    verdict = {}
    for backups in hosts.values():
        backups.sort(key=lambda b: b["t"])
        chain = {}
        for i, b in enumerate(backups):
            if b["failed"]:
                chain[b["name"]] = None
                continue
            if b["type"] == "full":
                chain[b["name"]] = [b["name"]]
                continue
            dep = None
            for prev in reversed(backups[:i]):
                if prev["failed"]:
                    continue
                if b["type"] == "incr" or prev["type"] == "full":
                    dep = prev
                    break
            if dep is None or chain[dep["name"]] is None:
                chain[b["name"]] = None
            else:
                chain[b["name"]] = [b["name"]] + chain[dep["name"]]
        good = [b for b in backups if chain[b["name"]] is not None]
        points = good[-a.keep_last:] if a.keep_last else []
        fulls = [b for b in good if b["type"] == "full"]
        points += fulls[-a.keep_full:] if a.keep_full else []
        if now is not None:
            points += [b for b in good if b["t"] >= now - timedelta(days=a.keep_days)]
        keep = {n for b in points for n in chain[b["name"]]}
        for b in backups:
            verdict[b["name"]] = b["name"] in keep
    for n in sorted(verdict):
        print(("keep " if verdict[n] else "delete ") + n)
        if not verdict[n] and not a.dry_run:
            os.unlink(os.path.join(a.dir, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
