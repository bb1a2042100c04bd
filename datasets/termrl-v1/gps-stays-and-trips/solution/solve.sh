#!/bin/bash
# Reference: clean (parse, filter, dedup, sort, speed filter), stay points, trips between consecutive stays.
set -euo pipefail
cat > /app/trips.py <<'PY'
#!/usr/bin/env python3
"""trips.py PINGS.csv OUT.csv: GPS pings -> trips between stay points."""
import csv
import math
import sys
from datetime import datetime, timezone

R = 6371000.0


def dist(a, b):
    p1, p2 = math.radians(a[1]), math.radians(b[1])
    dp, dl = p2 - p1, math.radians(b[2] - a[2])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * R * math.atan2(math.sqrt(h), math.sqrt(1 - h))


def ms(s):
    s = s.strip()
    if s.isdigit():
        return int(s)
    if not s.endswith("Z"):
        raise ValueError(s)
    dt = datetime.fromisoformat(s[:-1]).replace(tzinfo=timezone.utc)
    return (dt - datetime(1970, 1, 1, tzinfo=timezone.utc)) // __import__("datetime").timedelta(milliseconds=1)


def iso(t):
    return datetime.fromtimestamp(t // 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + f".{t % 1000:03d}Z"


def load(path):
    per, seen = {}, set()
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            try:
                dev = (r["device"] or "").strip()
                t = ms(r["ts"])
                lat, lon, acc = float(r["lat"]), float(r["lon"]), float(r["accuracy_m"])
            except (ValueError, TypeError, KeyError):
                continue
            if not dev or not -90 <= lat <= 90 or not -180 <= lon <= 180 or acc > 50 or (dev, t) in seen:
                continue
            seen.add((dev, t))
            per.setdefault(dev, []).append((t, lat, lon))
    for dev, pts in per.items():
        pts.sort()
        kept = []
        for p in pts:
            if not kept or dist(kept[-1], p) <= 70 * (p[0] - kept[-1][0]) / 1000:
                kept.append(p)
        per[dev] = kept
    return per


def stay_points(pts):
    out, i = [], 0
    while i < len(pts):
        j = i
        while j + 1 < len(pts) and dist(pts[i], pts[j + 1]) <= 100:
            j += 1
        if pts[j][0] - pts[i][0] >= 300000:
            out.append((i, j))
            i = j + 1
        else:
            i += 1
    return out


def centroid(seg):
    return sum(p[1] for p in seg) / len(seg), sum(p[2] for p in seg) / len(seg)


def main(src, dst):
    rows = []
    for dev, pts in sorted(load(src).items()):
        st = stay_points(pts)
        for k in range(1, len(st)):
            (a0, a1), (b0, b1) = st[k - 1], st[k]
            fa, fb = centroid(pts[a0:a1 + 1]), centroid(pts[b0:b1 + 1])
            d = sum(dist(pts[m], pts[m + 1]) for m in range(a1, b0))
            dur = (pts[b0][0] - pts[a1][0]) / 1000
            rows.append([dev, k, iso(pts[a1][0]), iso(pts[b0][0]), f"{fa[0]:.6f}", f"{fa[1]:.6f}", f"{fb[0]:.6f}",
                         f"{fb[1]:.6f}", f"{d:.1f}", f"{dur:.3f}", f"{d / dur * 3.6:.2f}"])
    with open(dst, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["device", "trip", "start", "end", "from_lat", "from_lon", "to_lat", "to_lon", "distance_m",
                    "duration_s", "avg_kmh"])
        w.writerows(rows)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/trips.py
