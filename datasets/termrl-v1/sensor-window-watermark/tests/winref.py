"""Reference model of the windowed aggregator and a generator of awkward event streams (test side only)."""
import csv
import io
import json
import random
from datetime import datetime, timedelta, timezone
from decimal import Decimal

WINDOW = 300          # seconds
LATENESS = 120        # seconds
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def parse_ts(s):
    if not isinstance(s, str) or len(s) < 20 or s[10] != "T":
        return None
    body, off = (s[:-1], "+00:00") if s.endswith("Z") else (s[:-6], s[-6:])
    if off[0] not in "+-" or off[3] != ":" or not (off[1:3] + off[4:]).isdigit():
        return None
    try:
        if "." in body:
            dt = datetime.strptime(body, "%Y-%m-%dT%H:%M:%S.%f")
        else:
            dt = datetime.strptime(body, "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return None
    if len(body) not in (19,) and not (21 <= len(body) <= 26):
        return None
    sign = 1 if off[0] == "+" else -1
    delta = timedelta(hours=int(off[1:3]), minutes=int(off[4:]))
    return dt.replace(tzinfo=timezone.utc) - sign * delta


def parse_line(line):
    if not line.strip():
        return None
    try:
        obj = json.loads(line, parse_float=Decimal)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    eid, sensor, ts, value = obj.get("id"), obj.get("sensor"), obj.get("ts"), obj.get("value")
    if not isinstance(eid, str) or not eid or not isinstance(sensor, str) or not sensor:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        return None
    t = parse_ts(ts)
    if t is None:
        return None
    return eid, sensor, t, Decimal(value)


def fmt_ts(t):
    s = t.strftime("%Y-%m-%dT%H:%M:%S")
    if t.microsecond:
        s += f".{t.microsecond:06d}"
    return s + "Z"


def fmt_num(d):
    return f"{d.quantize(Decimal('0.001')):f}"


class Model:
    def __init__(self):
        self.seen = set()
        self.maxts = None
        self.open = {}     # (start, sensor) -> [count, sum, min, max]
        self.windows = []  # emitted rows
        self.late = []

    def wm(self):
        return None if self.maxts is None else self.maxts - timedelta(seconds=LATENESS)

    def close(self, pred):
        for key in sorted(k for k in self.open if pred(k)):
            c, s, lo, hi = self.open.pop(key)
            self.windows.append([fmt_ts(key[0]), key[1], str(c), fmt_num(s), fmt_num(lo), fmt_num(hi)])

    def batch(self, lines):
        for line in lines:
            ev = parse_line(line)
            if ev is None:
                continue
            eid, sensor, t, v = ev
            if eid in self.seen:
                continue
            self.seen.add(eid)
            secs = (t - EPOCH) // timedelta(seconds=1)
            start = EPOCH + timedelta(seconds=secs - secs % WINDOW)
            end = start + timedelta(seconds=WINDOW)
            w = self.wm()
            if w is not None and end <= w:
                self.late.append([eid, sensor, fmt_ts(t), fmt_num(v)])
                continue
            acc = self.open.setdefault((start, sensor), [0, Decimal(0), v, v])
            acc[0] += 1
            acc[1] += v
            acc[2] = min(acc[2], v)
            acc[3] = max(acc[3], v)
            if self.maxts is None or t > self.maxts:
                self.maxts = t
                w = self.wm()
                self.close(lambda k: k[0] + timedelta(seconds=WINDOW) <= w)

    def flush(self):
        self.close(lambda k: True)


def to_csv(header, rows):
    buf = io.StringIO()
    wr = csv.writer(buf, lineterminator="\n")
    wr.writerow(header)
    wr.writerows(rows)
    return buf.getvalue()


WIN_HEADER = ["window_start", "sensor", "count", "sum", "min", "max"]
LATE_HEADER = ["id", "sensor", "ts", "value"]

SENSORS = ["pump-1/temp", "pump-2/temp", "line 3, inlet", 'tank "B"', "ß-valve", "flow"]


def render_ts(rng, t):
    """t: aware UTC datetime -> ISO string with a random offset and maybe a fraction."""
    off_min = rng.choice([0, 0, 60, 120, -180, 330, -570, 345])
    local = t + timedelta(minutes=off_min)
    s = local.strftime("%Y-%m-%dT%H:%M:%S")
    if local.microsecond:
        s += rng.choice([f".{local.microsecond:06d}", f".{local.microsecond // 1000:03d}"]) if local.microsecond % 1000 == 0 else f".{local.microsecond:06d}"
    if off_min == 0 and rng.random() < 0.6:
        return s + "Z"
    sign = "+" if off_min >= 0 else "-"
    return s + f"{sign}{abs(off_min) // 60:02d}:{abs(off_min) % 60:02d}"


def render_value(rng, v):
    if v == v.to_integral_value() and rng.random() < 0.5:
        return str(int(v))
    return f"{v:f}"


def stream(rng, n=600, garbage=True):
    """Event lines: mostly in order, with jitter, bursts of delayed events, duplicates and garbage."""
    t = datetime(2025, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.choice([0, 3, 58]),
                 tzinfo=timezone.utc)
    lines, sent = [], []
    for i in range(n):
        t += timedelta(seconds=rng.choice([1, 5, 10, 20, 30, 45]), milliseconds=rng.choice([0, 0, 0, 250, 999]))
        r = rng.random()
        if r < 0.10:
            et = t - timedelta(seconds=rng.randint(100, 140))   # right around the allowed lateness
        elif r < 0.16:
            et = t - timedelta(seconds=rng.randint(150, 900))   # clearly late
        elif r < 0.5:
            et = t - timedelta(seconds=rng.randint(0, 60))      # jitter
        else:
            et = t
        if rng.random() < 0.05:  # exactly on a window boundary
            et = et.replace(second=0, microsecond=0) - timedelta(minutes=et.minute % 5)
        v = Decimal(rng.randint(-5000, 50000)) / Decimal(rng.choice([1, 10, 100, 1000]))
        eid = f"ev-{rng.getrandbits(40):010x}"
        obj = {"id": eid, "sensor": rng.choice(SENSORS), "ts": render_ts(rng, et), "value": None}
        keys = list(obj)
        rng.shuffle(keys)
        line = "{" + ", ".join(
            f'"{k}": ' + (render_value(rng, v) if k == "value" else json.dumps(obj[k], ensure_ascii=rng.random() < 0.5))
            for k in keys) + "}"
        lines.append(line)
        sent.append(obj)
        if sent and rng.random() < 0.06:   # redelivery of an earlier event, sometimes with a different value
            old = rng.choice(sent[-80:])
            lines.append(json.dumps({**old, "value": rng.choice([1, 2.5, -3])}))
        if garbage and rng.random() < 0.03:
            lines.append(rng.choice([
                "", "   ", "not json", "[1, 2, 3]", '{"id": "x1", "sensor": "flow", "ts": "2025-01-01T00:00:00", "value": 1}',
                '{"id": "x2", "sensor": "flow", "ts": "2025-01-01T00:00:00Z", "value": true}',
                '{"id": "x3", "sensor": "flow", "ts": "2025-01-01T00:00:00Z", "value": "7"}',
                '{"id": "", "sensor": "flow", "ts": "2025-01-01T00:00:00Z", "value": 7}',
                '{"id": "x4", "sensor": "", "ts": "2025-01-01T00:00:00Z", "value": 7}',
                '{"id": "x5", "ts": "2025-01-01T00:00:00Z", "value": 7}',
                '{"id": "x6", "sensor": "flow", "ts": "2025-13-01T00:00:00Z", "value": 7}',
                '{"id": 17, "sensor": "flow", "ts": "2025-01-01T00:00:00Z", "value": 7}',
                '{"id": "x7", "sensor": "flow", "ts": "yesterday", "value": 7}', '{"id": "x8"',
            ]))
    return lines
