import argparse
import datetime
import os
import re
import sys

NAME = re.compile(r"^db-(\d{8})-(\d{6})\.sql\.gz$")


def month_index(d):
    return d.year * 12 + d.month - 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--now", required=True)
    ap.add_argument("--daily", type=int, default=7)
    ap.add_argument("--weekly", type=int, default=4)
    ap.add_argument("--monthly", type=int, default=6)
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    now = datetime.datetime.fromisoformat(a.now)
    snaps = {}
    for n in os.listdir(a.dir):
        m = NAME.match(n)
        if not m or not os.path.isfile(os.path.join(a.dir, n)):
            continue
        try:
            snaps[n] = datetime.datetime.strptime(m.group(1) + m.group(2), "%Y%m%d%H%M%S")
        except ValueError:
            continue
    keep = {n for n, t in snaps.items() if t > now}
    past = {n: t for n, t in snaps.items() if t <= now}

    def newest_per(keyf, allowed):
        best = {}
        for n, t in past.items():
            k = keyf(t)
            if k in allowed and (k not in best or t > past[best[k]]):
                best[k] = n
        return set(best.values())

    days = {(now.date() - datetime.timedelta(days=i)) for i in range(a.daily)}
    keep |= newest_per(lambda t: t.date(), days)
    monday = now.date() - datetime.timedelta(days=now.weekday())
    weeks = {monday - datetime.timedelta(weeks=i) for i in range(a.weekly)}
    keep |= newest_per(lambda t: t.date() - datetime.timedelta(days=t.weekday()), weeks)
    months = {month_index(now) - i for i in range(a.monthly)}
    keep |= newest_per(month_index, months)
    if past:
        keep.add(max(past, key=lambda n: past[n]))
    for n in sorted(snaps):
        if n in keep:
            print(f"keep {n}")
        else:
            print(f"delete {n}")
            if not a.dry_run:
                os.remove(os.path.join(a.dir, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
