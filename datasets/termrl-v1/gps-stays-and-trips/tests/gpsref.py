"""Reference model of stay-point / trip extraction and a generator of messy GPS logs (test side only)."""
import csv
import io
import math
import random
from datetime import datetime, timezone

R = 6371000.0
MAX_ACC, MAX_SPEED, STAY_D, STAY_T = 50.0, 70.0, 100.0, 300000   # m, m/s, m, ms


def hav(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * R * math.asin(math.sqrt(h))


def parse_ts(s):
    s = s.strip()
    if s.isdigit():
        return int(s)
    dt = datetime.strptime(s.replace("Z", ""), "%Y-%m-%dT%H:%M:%S.%f" if "." in s else "%Y-%m-%dT%H:%M:%S")
    return int(round(dt.replace(tzinfo=timezone.utc).timestamp() * 1000))


def iso(ms):
    dt = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def clean(rows):
    """rows: dicts from the CSV -> {device: [(t, lat, lon)]} after all filters, sorted by time."""
    per, seen = {}, set()
    for r in rows:
        try:
            dev = r["device"].strip()
            t = parse_ts(r["ts"])
            lat, lon, acc = float(r["lat"]), float(r["lon"]), float(r["accuracy_m"])
        except (ValueError, KeyError, AttributeError):
            continue
        if not dev or not (-90 <= lat <= 90 and -180 <= lon <= 180) or acc > MAX_ACC or (dev, t) in seen:
            continue
        seen.add((dev, t))
        per.setdefault(dev, []).append((t, lat, lon))
    out = {}
    for dev, pts in per.items():
        pts.sort()
        kept = []
        for p in pts:
            if kept and hav(kept[-1][1:], p[1:]) / ((p[0] - kept[-1][0]) / 1000) > MAX_SPEED:
                continue
            kept.append(p)
        out[dev] = kept
    return out


def stays(pts):
    res, i, n = [], 0, len(pts)
    while i < n:
        j = i
        while j + 1 < n and hav(pts[i][1:], pts[j + 1][1:]) <= STAY_D:
            j += 1
        if pts[j][0] - pts[i][0] >= STAY_T:
            res.append((i, j))
            i = j + 1
        else:
            i += 1
    return res


def trips(rows):
    out = []
    for dev, pts in sorted(clean(rows).items()):
        st = stays(pts)
        for k, ((a0, a1), (b0, b1)) in enumerate(zip(st, st[1:]), start=1):
            ca = (sum(p[1] for p in pts[a0:a1 + 1]) / (a1 - a0 + 1), sum(p[2] for p in pts[a0:a1 + 1]) / (a1 - a0 + 1))
            cb = (sum(p[1] for p in pts[b0:b1 + 1]) / (b1 - b0 + 1), sum(p[2] for p in pts[b0:b1 + 1]) / (b1 - b0 + 1))
            dist = sum(hav(pts[m][1:], pts[m + 1][1:]) for m in range(a1, b0))
            dur = (pts[b0][0] - pts[a1][0]) / 1000
            out.append({"device": dev, "trip": k, "start": iso(pts[a1][0]), "end": iso(pts[b0][0]),
                        "from_lat": ca[0], "from_lon": ca[1], "to_lat": cb[0], "to_lon": cb[1],
                        "distance_m": dist, "duration_s": dur, "avg_kmh": dist / dur * 3.6 if dur else 0.0})
    return out


def offset(p, dn, de):
    lat, lon = p
    return lat + dn / 111195.0, lon + de / (111195.0 * math.cos(math.radians(lat)))


def generate(rng, devices=3):
    """-> CSV text of a messy ping log."""
    rows = []
    for d in range(devices):
        dev = rng.choice(["van-", "bike-", "truck-"]) + str(rng.randint(1, 999))
        t = rng.randint(1_700_000_000_000, 1_760_000_000_000)
        pos = (rng.uniform(-60, 60), rng.uniform(-170, 170))
        for leg in range(rng.randint(2, 5)):
            # a stay: jitter around a point for 5..40 minutes (sometimes too short to count)
            dur = rng.choice([rng.randint(6, 40) * 60000, rng.randint(1, 4) * 60000])
            end = t + dur
            while t < end:
                rows.append([dev, t, *offset(pos, rng.gauss(0, 12), rng.gauss(0, 12)), rng.choice([5, 8, 12, 20, 35])])
                t += rng.randint(20000, 90000)
            # a trip: move for 3..25 minutes at 3..30 m/s in a wandering direction
            heading, speed = rng.uniform(0, 2 * math.pi), rng.uniform(3, 30)
            tend = t + rng.randint(3, 25) * 60000
            while t < tend:
                step = rng.randint(5000, 30000)
                heading += rng.gauss(0, 0.3)
                dist = speed * step / 1000
                pos = offset(pos, dist * math.cos(heading), dist * math.sin(heading))
                t += step
                rows.append([dev, t, *offset(pos, rng.gauss(0, 5), rng.gauss(0, 5)), rng.choice([5, 10, 15])])
        dur = rng.randint(6, 20) * 60000
        end = t + dur
        while t < end:
            t += rng.randint(20000, 90000)
            rows.append([dev, t, *offset(pos, rng.gauss(0, 12), rng.gauss(0, 12)), 10])
    # noise: glitches (teleports), inaccurate fixes, duplicates, junk
    noisy = []
    for r in rows:
        noisy.append(r)
        x = rng.random()
        if x < 0.03:
            noisy.append([r[0], r[1] + rng.randint(1000, 9000), r[2] + rng.uniform(0.05, 0.5), r[3] - rng.uniform(0.05, 0.5), 8])
        elif x < 0.06:
            noisy.append([r[0], r[1] + rng.randint(1000, 9000), r[2] + rng.uniform(-0.01, 0.01), r[3], rng.choice([60, 150, 999])])
        elif x < 0.09:
            noisy.append([r[0], r[1], r[2] + 0.001, r[3], 5])   # same device and time: the later line is a duplicate
    rng.shuffle(noisy)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["device", "ts", "lat", "lon", "accuracy_m"])
    for dev, t, lat, lon, acc in noisy:
        ts = str(t) if rng.random() < 0.5 else iso(t) if t % 1000 or rng.random() < 0.5 else iso(t)[:-5] + "Z"
        w.writerow([dev, ts, f"{lat:.6f}", f"{lon:.6f}", acc])
    if rng.random() < 0.5:
        w.writerow(["", "1700000000000", "1", "1", "5"])
        w.writerow(["van-x", "not-a-time", "1", "1", "5"])
        w.writerow(["van-x", "1700000000000", "91.5", "1", "5"])
    return buf.getvalue()


def rows_of(text):
    return list(csv.DictReader(io.StringIO(text)))
