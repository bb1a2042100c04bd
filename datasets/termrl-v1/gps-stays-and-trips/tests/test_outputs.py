"""/app/trips.py on GPS logs generated here and on hand-made ones, compared with the reference model
(numbers with tolerances)."""
import csv
import io
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import gpsref  # noqa: E402

TOOL = "/app/trips.py"
RNG = random.Random(random.getrandbits(64))
HEADER = ["device", "trip", "start", "end", "from_lat", "from_lon", "to_lat", "to_lon", "distance_m", "duration_s", "avg_kmh"]
TOL = {"from_lat": 2e-6, "from_lon": 2e-6, "to_lat": 2e-6, "to_lon": 2e-6, "distance_m": 0.11, "duration_s": 0.0011,
       "avg_kmh": 0.011}


def run(tmp_path, text):
    src, out = tmp_path / "pings.csv", tmp_path / "trips.csv"
    src.write_text(text, encoding="utf-8")
    r = subprocess.run(["python3", TOOL, str(src), str(out)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows and rows[0] == HEADER, rows[:1]
    return [dict(zip(HEADER, r)) for r in rows[1:]]


def check(tmp_path, text):
    got, want = run(tmp_path, text), gpsref.trips(gpsref.rows_of(text))
    for i, (g, w) in enumerate(zip(got, want)):
        assert [g["device"], g["trip"], g["start"], g["end"]] == [w["device"], str(w["trip"]), w["start"], w["end"]], \
            f"trip {i}: got {g}, expected {w}"
        for k, tol in TOL.items():
            assert abs(float(g[k]) - w[k]) <= tol, f"trip {i} ({w['device']} #{w['trip']}): {k} = {g[k]}, expected {w[k]:.6f}"
    assert len(got) == len(want), f"{len(got)} trips, expected {len(want)}"
    return got


def test_generated_logs(tmp_path):
    for k in range(3):
        d = tmp_path / str(k)
        d.mkdir()
        check(d, gpsref.generate(RNG, devices=RNG.randint(1, 4)))


def test_large_log(tmp_path):
    check(tmp_path, gpsref.generate(RNG, devices=12))


def pings(rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["device", "ts", "lat", "lon", "accuracy_m"])
    w.writerows(rows)
    return buf.getvalue()


def stay(dev, t0, pos, minutes, step=30000, acc=5):
    return [[dev, t0 + k * step, f"{pos[0]:.6f}", f"{pos[1]:.6f}", acc] for k in range(minutes * 60000 // step + 1)]


def test_glitch_is_dropped_but_not_the_fix_after_it(tmp_path):
    a, b = (48.137154, 11.576124), (48.150000, 11.576124)   # b is ~1.43 km north of a
    t0 = 1_735_000_000_000
    rows = stay("car-1", t0, a, 6)
    t1 = rows[-1][1]
    rows.append(["car-1", t1 + 2000, "48.600000", "11.900000", 8])          # a glitch 55 km away
    rows.append(["car-1", t1 + 30000, "48.141000", "11.580000", 8])         # the car moves on
    rows.append(["car-1", t1 + 60000, "48.145500", "11.576124", 8])
    rows += stay("car-1", t1 + 90000, b, 7)
    RNG.shuffle(rows)
    got = check(tmp_path, pings(rows))
    assert len(got) == 1 and 1560 < float(got[0]["distance_m"]) < 1630, got


def test_stay_duration_and_radius_thresholds(tmp_path):
    a = (10.0, 20.0)
    mid = gpsref.offset(a, 2000, 0)
    far = gpsref.offset(mid, 500, 0)
    near = gpsref.offset(far, 99, 0)
    t0 = 1_700_000_000_000
    rows = stay("d1", t0, a, 5)                                                   # exactly 300 s: a stay
    t = rows[-1][1] + 60000
    rows += stay("d1", t, mid, 5)[:-1] + [["d1", t + 299999, f"{mid[0]:.6f}", f"{mid[1]:.6f}", 5]]   # 299.999 s: not
    t += 400000
    rows += [["d1", t, f"{far[0]:.6f}", f"{far[1]:.6f}", 5],                     # two fixes 99 m and 400 s apart: a stay
             ["d1", t + 400000, f"{near[0]:.6f}", f"{near[1]:.6f}", 5]]
    rows += stay("d1", t + 500000, gpsref.offset(a, 0, 3000), 6)
    got = check(tmp_path, pings(rows))
    assert len(got) == 2, got
    assert got[0]["end"] == gpsref.iso(t), got


def test_duplicates_filters_and_timestamp_formats(tmp_path):
    a, b = (-33.8688, 151.2093), (-33.8788, 151.2093)
    t0 = 1_720_000_000_000
    rows = stay("bus 7", t0, a, 8) + stay("bus 7", t0 + 900000, b, 8)
    out = []
    for dev, t, lat, lon, acc in rows:
        ts = str(t) if t % 3 else gpsref.iso(t) if t % 1000 else gpsref.iso(t)[:-5] + "Z"
        out.append([dev, ts, lat, lon, acc])
    out.insert(3, ["bus 7", out[2][1], "-33.9000", "151.3000", 5])       # same time as an earlier line: ignored
    out.insert(5, ["bus 7", str(t0 + 45000), "-33.8688", "151.2093", "50.1"])   # too inaccurate
    out.insert(6, ["bus 7", str(t0 + 46000), "-33.8689", "151.2093", "50"])     # just accurate enough
    out += [["", str(t0), "1", "1", "5"], ["bus 7", "yesterday", "1", "1", "5"], ["bus 7", str(t0 + 1), "-91", "1", "5"],
            ["bus 7", str(t0 + 2), "1", "181", "5"], ["bus 7", str(t0 + 3), "x", "1", "5"]]
    got = check(tmp_path, pings(out))
    assert len(got) == 1, got
