"""log-report: aggregate generated web-server request logs into a JSON report.

A seed picks the structure, not only the values:

- the log **format** (space-separated fields, JSON lines with UTC offsets and latency in seconds, Apache
  combined with a trailing response time, key=value pairs in any order with epoch timestamps, or CSV
  whose column order differs per seed), each with its own kinds of malformed line;
- the **report fields**, drawn from a pool (status breakdowns, error counts, percentiles, per-hour and
  per-day buckets in UTC, busiest client, bytes per method, ...);
- at the hardest level, often a **time window** the report is restricted to.

Harder levels add rotated files (the oldest gzipped), malformed lines and more fields. The reference
solution is composed from the format's parser and the chosen fields, so different seeds need
different programs (``termrl tasks generator-stats`` counts them).
"""

from __future__ import annotations

import gzip
import hashlib
import math
import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Callable

from termrl.tasks.generators._common import WORDS, Family, Instance, python_script, render

STATUSES = [200] * 12 + [201, 204, 301, 304, 400, 401, 403, 404, 404, 500, 502, 503]
METHODS = ["GET"] * 5 + ["POST", "PUT", "DELETE"]
AGENTS = ["curl/8.5.0", "Mozilla/5.0", "python-requests/2.31", "Go-http-client/1.1"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


@dataclass(frozen=True)
class Request:
    ts: datetime  # UTC
    ip: str
    method: str
    path: str
    status: int
    latency_ms: int
    size: int


# --- formats -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Format:
    key: str
    file: str
    describe: Callable[[dict], str]
    """Instruction text for the line format (gets the per-instance settings)."""
    validity: str
    """Instruction text: when is a line valid (levels 2 and 3)."""
    render: Callable[[Request, dict, random.Random], str]
    malformed: Callable[[Request, dict, random.Random], str]
    parser: Callable[[dict], str]
    """Solution code: reads ``text`` (one file's content) and appends (ts, ip, method, path, status,
    latency_ms, size) tuples to ``records`` or counts ``malformed``."""
    header: Callable[[dict], str] | None = None


def _offset(rng: random.Random, settings: dict) -> timezone:
    return timezone(timedelta(minutes=rng.choice(settings["offsets"])))


# space-separated ---------------------------------------------------------------------------------------------

def _plain_render(r: Request, s: dict, rng: random.Random) -> str:
    return f"{r.ts:%Y-%m-%dT%H:%M:%SZ} {r.ip} {r.method} {r.path} {r.status} {r.latency_ms}ms {r.size}"


def _plain_bad(r: Request, s: dict, rng: random.Random) -> str:
    stamp = f"{r.ts:%Y-%m-%dT%H:%M:%SZ}"
    return rng.choice([f"{stamp} {r.ip} {r.method}", "--- log rotated ---",
                       f"{stamp} {r.ip} {r.method} {r.path} ok {r.latency_ms}ms {r.size}",
                       f"{stamp} {r.ip} {r.method} {r.path} {r.status} fast {r.size}",
                       f"{stamp} {r.ip} {r.method} {r.path} {r.status} {r.latency_ms}ms -"])


PLAIN_PARSER = """
for raw in text.splitlines():
    parts = raw.split()
    if not parts:
        continue
    if (len(parts) == 7 and len(parts[4]) == 3 and parts[4].isdigit() and parts[5].endswith("ms")
            and parts[5][:-2].isdigit() and parts[6].isdigit()):
        ts = datetime.strptime(parts[0], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
        records.append((ts, parts[1], parts[2], parts[3], int(parts[4]), int(parts[5][:-2]), int(parts[6])))
    else:
        malformed += 1
"""

PLAIN = Format(
    "plain", "access.log",
    lambda s: ("Each line is `TIMESTAMP CLIENT_IP METHOD PATH STATUS LATENCY BYTES` separated by single spaces, "
               "e.g. `2026-03-14T08:15:02Z 10.0.3.7 GET /api/items 200 123ms 512`: the timestamp is UTC, the "
               "latency is in milliseconds, BYTES is the response size."),
    "A line is valid when it has exactly 7 whitespace-separated fields, the fifth is a three-digit status code, "
    "the sixth is an integer followed by `ms` and the seventh is an integer.",
    _plain_render, _plain_bad, lambda s: PLAIN_PARSER)


# JSON lines ------------------------------------------------------------------------------------------------

def _jsonl_render(r: Request, s: dict, rng: random.Random) -> str:
    local = r.ts.astimezone(_offset(rng, s)).isoformat()
    import json
    return json.dumps({"time": local, "client": r.ip, "request": f"{r.method} {r.path}", "code": r.status,
                       "duration_s": f"{r.latency_ms / 1000:.3f}", "size": r.size})


def _jsonl_bad(r: Request, s: dict, rng: random.Random) -> str:
    import json
    good = json.loads(_jsonl_render(r, s, rng))
    kind = rng.randrange(4)
    if kind == 0:
        return json.dumps(good)[:-9]  # cut off
    if kind == 1:
        good.pop(rng.choice(["client", "code", "size"]))
        return json.dumps(good)
    if kind == 2:
        good["code"] = str(good["code"])
        return json.dumps(good)
    return "# collector restarted"


JSONL_PARSER = """
for raw in text.splitlines():
    if not raw.strip():
        continue
    try:
        item = json.loads(raw)
        method, path = item["request"].split(" ")
        code, size = item["code"], item["size"]
        if type(code) is not int or type(size) is not int:
            raise ValueError(raw)
        ts = datetime.fromisoformat(item["time"]).astimezone(timezone.utc)
        records.append((ts, item["client"], method, path, code, round(float(item["duration_s"]) * 1000), size))
    except (ValueError, KeyError, TypeError, AttributeError):
        malformed += 1
"""

JSONL = Format(
    "jsonl", "access.jsonl",
    lambda s: ("Each line is one JSON object, e.g. `{\"time\": \"2026-03-14T10:15:02+02:00\", \"client\": "
               "\"10.0.3.7\", \"request\": \"GET /api/items\", \"code\": 200, \"duration_s\": \"0.123\", "
               "\"size\": 512}`. `time` is ISO 8601 with the UTC offset of the collector that wrote it (offsets "
               "differ between lines: convert to UTC), `request` is the method and the path, `duration_s` is "
               "the latency in seconds as a string with three decimals, `size` the response size in bytes."),
    "A line is valid when it is a JSON object with all six keys, `code` and `size` are JSON integers and "
    "`request` is a method and a path separated by one space. Other non-empty lines are malformed.",
    _jsonl_render, _jsonl_bad, lambda s: JSONL_PARSER)


# Apache combined + response time ---------------------------------------------------------------------------

def _combined_stamp(ts: datetime) -> str:
    return f"{ts:%d}/{MONTHS[ts.month - 1]}/{ts:%Y:%H:%M:%S %z}"


def _combined_render(r: Request, s: dict, rng: random.Random) -> str:
    local = r.ts.astimezone(_offset(rng, s))
    return (f'{r.ip} - - [{_combined_stamp(local)}] "{r.method} {r.path} HTTP/1.1" {r.status} {r.size} "-" '
            f'"{rng.choice(AGENTS)}" {r.latency_ms / 1000:.3f}')


def _combined_bad(r: Request, s: dict, rng: random.Random) -> str:
    good = _combined_render(r, s, rng)
    return rng.choice([good.rsplit(" ", 1)[0], good.replace(f" {r.status} ", " - ", 1),
                       f'{r.ip} - - "{r.method} {r.path} HTTP/1.1" {r.status}', "[notice] graceful restart"])


COMBINED_PARSER = """
LINE = re.compile(r'(\\S+) \\S+ \\S+ \\[([^\\]]+)\\] "(\\S+) (\\S+) [^"]*" (\\d{3}) (\\d+) "[^"]*" "[^"]*" (\\d+\\.\\d+)')
for raw in text.splitlines():
    if not raw.strip():
        continue
    m = LINE.fullmatch(raw.strip())
    if not m:
        malformed += 1
        continue
    ts = datetime.strptime(m.group(2), "%d/%b/%Y:%H:%M:%S %z").astimezone(timezone.utc)
    records.append((ts, m.group(1), m.group(3), m.group(4), int(m.group(5)), round(float(m.group(7)) * 1000),
                    int(m.group(6))))
"""

COMBINED = Format(
    "combined", "access.log",
    lambda s: ("Lines are in the Apache *combined* format followed by the response time in seconds: "
               "`10.0.3.7 - - [14/Mar/2026:10:15:02 +0200] \"GET /api/items HTTP/1.1\" 200 512 \"-\" "
               "\"curl/8.5.0\" 0.123` (client, two unused fields, local time with its UTC offset, request line, "
               "status, response bytes, referer, user agent, latency). Offsets differ between lines: convert "
               "every time to UTC."),
    "A line is valid when it has exactly that shape (a three-digit status, an integer size and a decimal "
    "response time at the end). Other non-empty lines are malformed.",
    _combined_render, _combined_bad, lambda s: COMBINED_PARSER)


# key=value ---------------------------------------------------------------------------------------------------

KV_KEYS = ["ts", "ip", "method", "path", "status", "dur", "bytes"]


def _kv_pairs(r: Request) -> dict[str, str]:
    return {"ts": str(int(r.ts.timestamp())), "ip": r.ip, "method": r.method, "path": r.path,
            "status": str(r.status), "dur": f"{r.latency_ms}ms", "bytes": str(r.size)}


def _kv_render(r: Request, s: dict, rng: random.Random) -> str:
    pairs = list(_kv_pairs(r).items())
    rng.shuffle(pairs)
    return " ".join(f"{k}={v}" for k, v in pairs)


def _kv_bad(r: Request, s: dict, rng: random.Random) -> str:
    pairs = _kv_pairs(r)
    kind = rng.randrange(3)
    if kind == 0:
        pairs.pop(rng.choice(["ip", "status", "dur"]))
    elif kind == 1:
        pairs["dur"] = f"{r.latency_ms / 1000:.2f}s"
    else:
        pairs["status"] = "n/a"
    return " ".join(f"{k}={v}" for k, v in pairs.items())


KV_PARSER = """
for raw in text.splitlines():
    if not raw.strip():
        continue
    try:
        item = dict(pair.split("=", 1) for pair in raw.split())
        if sorted(item) != sorted(KEYS) or not item["dur"].endswith("ms"):
            raise ValueError(raw)
        status, latency, size = int(item["status"]), int(item["dur"][:-2]), int(item["bytes"])
        if not 100 <= status <= 599:
            raise ValueError(raw)
        ts = datetime.fromtimestamp(int(item["ts"]), timezone.utc)
        records.append((ts, item["ip"], item["method"], item["path"], status, latency, size))
    except ValueError:
        malformed += 1
""".replace("KEYS", repr(KV_KEYS))

KV = Format(
    "kv", "requests.log",
    lambda s: ("Each line is a set of `key=value` pairs separated by spaces, **in any order**: `ts` (Unix time, "
               "seconds, UTC), `ip`, `method`, `path`, `status`, `dur` (latency, an integer followed by `ms`) and "
               "`bytes` (response size), e.g. `status=200 ts=1773476102 path=/api/items ip=10.0.3.7 dur=123ms "
               "method=GET bytes=512`."),
    "A line is valid when it has exactly those seven keys, `status` is an integer from 100 to 599, `dur` is an "
    "integer followed by `ms` and `ts` and `bytes` are integers. Other non-empty lines are malformed.",
    _kv_render, _kv_bad, lambda s: KV_PARSER)


# CSV with a seed-chosen column order --------------------------------------------------------------------------

CSV_COLUMNS = ["timestamp", "client", "method", "path", "status", "latency_ms", "bytes"]


def _csv_row(r: Request) -> dict[str, str]:
    return {"timestamp": f"{r.ts:%Y-%m-%d %H:%M:%S}", "client": r.ip, "method": r.method, "path": r.path,
            "status": str(r.status), "latency_ms": str(r.latency_ms), "bytes": str(r.size)}


def _csv_render(r: Request, s: dict, rng: random.Random) -> str:
    row = _csv_row(r)
    return ",".join(row[c] for c in s["columns"])


def _csv_bad(r: Request, s: dict, rng: random.Random) -> str:
    row = _csv_row(r)
    kind = rng.randrange(3)
    if kind == 0:
        return ",".join(row[c] for c in s["columns"][:-1])
    if kind == 1:
        row["status"] = "ERR"
    else:
        row["latency_ms"] = f"{r.latency_ms}.5"
    return ",".join(row[c] for c in s["columns"])


CSV_PARSER = """
rows = csv.reader(io.StringIO(text))
header = next(rows, None)
for row in rows:
    if not row or not "".join(row).strip():
        continue
    if len(row) != len(header):
        malformed += 1
        continue
    item = dict(zip(header, row))
    try:
        status, latency, size = int(item["status"]), int(item["latency_ms"]), int(item["bytes"])
        ts = datetime.strptime(item["timestamp"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc)
    except ValueError:
        malformed += 1
        continue
    records.append((ts, item["client"], item["method"], item["path"], status, latency, size))
"""

CSV = Format(
    "csv", "requests.csv",
    lambda s: ("Each file is CSV with a header row; the columns are `timestamp` (UTC, `YYYY-MM-DD HH:MM:SS`), "
               "`client`, `method`, `path`, `status`, `latency_ms` and `bytes`, in the order the header gives "
               f"(here `{','.join(s['columns'])}`; every file has its own header)."),
    "A data row is valid when it has as many fields as the header and `status`, `latency_ms` and `bytes` are "
    "integers. Other non-empty rows are malformed.",
    _csv_render, _csv_bad, lambda s: CSV_PARSER,
    header=lambda s: ",".join(s["columns"]))

FORMATS = [PLAIN, JSONL, COMBINED, KV, CSV]


# --- report fields ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Metric:
    key: str
    text: str
    compute: Callable[[list[Request]], object]
    code: str
    """Solution code: reads ``records`` (tuples as the parsers make them), sets ``report[key]``."""


def _top(counts: dict[str, float]) -> str:
    return min(counts, key=lambda k: (-counts[k], k))


def _p95(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[math.ceil(0.95 * len(ordered)) - 1]


def _hist(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return dict(sorted(out.items()))


def _mean_by(rs: list[Request], key, value) -> dict[str, float]:
    sums: dict[str, list[int]] = {}
    for r in rs:
        sums.setdefault(key(r), []).append(value(r))
    return {k: sum(v) / len(v) for k, v in sums.items()}


METRICS = [
    Metric("by_status", "an object mapping each status code, as a string, to its number of requests",
           lambda rs: _hist(str(r.status) for r in rs),
           'report["by_status"] = dict(collections.Counter(str(r[4]) for r in records))'),
    Metric("client_errors", "the number of client errors (status 400-499)",
           lambda rs: sum(400 <= r.status <= 499 for r in rs),
           'report["client_errors"] = sum(400 <= r[4] <= 499 for r in records)'),
    Metric("top_path", "the path with the most requests (on a tie, the alphabetically first)",
           lambda rs: _top(_hist(r.path for r in rs)),
           'counts = collections.Counter(r[3] for r in records)\n'
           'report["top_path"] = min(counts, key=lambda k: (-counts[k], k))'),
    Metric("slowest_path", "the path with the highest mean latency (on a tie, the alphabetically first)",
           lambda rs: _top(_mean_by(rs, lambda r: r.path, lambda r: r.latency_ms)),
           'lat = collections.defaultdict(list)\nfor r in records:\n    lat[r[3]].append(r[5])\n'
           'report["slowest_path"] = min(lat, key=lambda k: (-sum(lat[k]) / len(lat[k]), k))'),
    Metric("p95_latency_ms", "the 95th percentile of the latency in milliseconds, nearest-rank method (sort the "
           "latencies ascending and take the value at 1-based rank ceil(0.95 * n)), a JSON integer",
           lambda rs: _p95([r.latency_ms for r in rs]),
           'ordered = sorted(r[5] for r in records)\n'
           'report["p95_latency_ms"] = ordered[math.ceil(0.95 * len(ordered)) - 1]'),
    Metric("errors_by_hour", "an object mapping each two-digit UTC hour (`\"08\"`) that has server errors to their "
           "number, summed over all days (hours without errors are left out)",
           lambda rs: _hist(f"{r.ts:%H}" for r in rs if r.status >= 500),
           'report["errors_by_hour"] = dict(collections.Counter(r[0].strftime("%H") for r in records if r[4] >= 500))'),
    Metric("requests_per_day", "an object mapping each UTC date (`YYYY-MM-DD`) to its number of requests",
           lambda rs: _hist(f"{r.ts:%Y-%m-%d}" for r in rs),
           'report["requests_per_day"] = dict(collections.Counter(r[0].strftime("%Y-%m-%d") for r in records))'),
    Metric("unique_ips", "the number of distinct client IPs",
           lambda rs: len({r.ip for r in rs}), 'report["unique_ips"] = len({r[1] for r in records})'),
    Metric("busiest_ip", "the client IP with the most requests (on a tie, the smallest as a string)",
           lambda rs: _top(_hist(r.ip for r in rs)),
           'ips = collections.Counter(r[1] for r in records)\n'
           'report["busiest_ip"] = min(ips, key=lambda k: (-ips[k], k))'),
    Metric("bytes_by_method", "an object mapping each HTTP method to the total response bytes of its requests",
           lambda rs: {m: sum(r.size for r in rs if r.method == m) for m in sorted({r.method for r in rs})},
           'report["bytes_by_method"] = {}\nfor r in records:\n'
           '    report["bytes_by_method"][r[2]] = report["bytes_by_method"].get(r[2], 0) + r[6]'),
    Metric("slow_requests", "the number of requests with a latency of at least 500 ms",
           lambda rs: sum(r.latency_ms >= 500 for r in rs),
           'report["slow_requests"] = sum(r[5] >= 500 for r in records)'),
    Metric("error_rate", "server errors divided by requests, rounded to 4 decimals (a JSON number)",
           lambda rs: round(sum(r.status >= 500 for r in rs) / len(rs), 4),
           'report["error_rate"] = round(sum(r[4] >= 500 for r in records) / len(records), 4)'),
]


# --- the reference solution ----------------------------------------------------------------------------------------

HEAD = """
import collections, csv, glob, gzip, io, json, math, re
from datetime import datetime, timezone
records, malformed = [], 0
for name in sorted(glob.glob(PATTERN)):
    raw_bytes = open(name, "rb").read()
    text = (gzip.decompress(raw_bytes) if name.endswith(".gz") else raw_bytes).decode()
"""


def _indent(code: str, n: int) -> str:
    return "\n".join((" " * n + line) if line else line for line in code.strip("\n").splitlines())


def _solution(fmt: Format, settings: dict, metrics: list[Metric], window: tuple[datetime, datetime] | None,
              difficulty: int, *, error_floor: int = 500, only_current: bool = False) -> str:
    pattern = f"/app/logs/{fmt.file}" if only_current else f"/app/logs/{fmt.file}*"
    body = HEAD.replace("PATTERN", repr(pattern)).rstrip("\n") + "\n" + _indent(fmt.parser(settings), 4) + "\n"
    if window:
        body += (f"low = datetime.fromisoformat({window[0].isoformat()!r})\n"
                 f"high = datetime.fromisoformat({window[1].isoformat()!r})\n"
                 "records = [r for r in records if low <= r[0] < high]\n")
    body += ('report = {"total": len(records), '
             f'"errors": sum(r[4] >= {error_floor} for r in records)}}\n')
    if difficulty >= 2:
        body += 'report["malformed"] = malformed\n'
    for metric in metrics:
        body += metric.code + "\n"
    body += 'json.dump(report, open("/app/report.json", "w"), indent=2, sort_keys=True)\n'
    return python_script(body)


TESTS = """
import hashlib
import json
from pathlib import Path

import pytest

EXPECTED = @@EXPECTED@@
LOG_SHA256 = @@LOG_SHA256@@


@pytest.fixture(scope="module")
def report():
    path = Path("/app/report.json")
    assert path.is_file(), "/app/report.json was not written"
    data = json.loads(path.read_text())
    assert isinstance(data, dict), "the report must be a JSON object"
    return data


def test_exact_keys(report):
    assert sorted(report) == sorted(EXPECTED)


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_field(report, key):
    assert report.get(key) == EXPECTED[key], key


def test_counts_are_integers(report):
    for key, value in EXPECTED.items():
        if type(value) is int:
            assert type(report[key]) is int, key


def test_logs_untouched():
    for name, digest in LOG_SHA256.items():
        assert hashlib.sha256(Path("/app/logs", name).read_bytes()).hexdigest() == digest, name
"""


def _paths(rng: random.Random) -> list[str]:
    words = rng.sample(WORDS, 6)
    return ["/health", "/login", f"/api/{words[0]}", f"/api/{words[1]}", f"/api/{words[2]}/items",
            f"/static/{words[3]}.css", f"/static/{words[4]}.js", f"/docs/{words[5]}"]


def make(rng: random.Random, difficulty: int) -> Instance:
    fmt = rng.choice(FORMATS)
    settings = {"offsets": rng.sample([0, 60, 120, -300, -240, 330, 540, -180], 3),
                "columns": rng.sample(CSV_COLUMNS, len(CSV_COLUMNS))}
    metrics = sorted(rng.sample(METRICS, {1: 1, 2: 3, 3: 5}[difficulty]), key=lambda m: m.key)
    paths = _paths(rng)
    weights = [rng.randint(1, 8) for _ in paths]
    ips = [f"10.{rng.randint(0, 9)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}" for _ in range(rng.randint(6, 14))]
    n_files = {1: 1, 2: rng.randint(2, 3), 3: rng.randint(3, 4)}[difficulty]
    names = [fmt.file] + [f"{fmt.file}.{i}" for i in range(1, n_files)]
    clock = datetime(2026, rng.randint(1, 12), rng.randint(1, 26), rng.randint(0, 20), tzinfo=timezone.utc)
    files: dict[str, str | bytes] = {}
    requests: list[Request] = []
    malformed = 0
    for name in reversed(names):  # the highest number is the oldest rotation
        lines = [fmt.header(settings)] if fmt.header else []
        for i in range(rng.randint(30, 60)):
            clock += timedelta(seconds=rng.randint(20, 900))
            status = rng.choice(STATUSES)
            if i == 0:
                status = rng.choice([404, 403])  # a client error in every file
            elif i == 1:
                status = rng.choice([500, 503])
            r = Request(clock, rng.choice(ips), rng.choice(METHODS), rng.choices(paths, weights)[0], status,
                        rng.randint(2, 900), rng.randint(0, 40000))
            if difficulty >= 2 and i > 1 and rng.random() < 0.07:
                lines.append(fmt.malformed(r, settings, rng))
                malformed += 1
                continue
            lines.append(fmt.render(r, settings, rng))
            requests.append(r)
        text = "\n".join(lines) + "\n"
        if difficulty == 3 and name == names[-1]:
            files[f"logs/{name}.gz"] = gzip.compress(text.encode(), mtime=0)
        else:
            files[f"logs/{name}"] = text

    window = None
    if difficulty == 3 and rng.random() < 0.6:
        first, last = requests[0].ts, requests[-1].ts
        span = (last - first).total_seconds()
        low = first + timedelta(seconds=int(span * rng.uniform(0.1, 0.3)))
        high = first + timedelta(seconds=int(span * rng.uniform(0.7, 0.9)))
        window = (low.replace(second=0), high.replace(second=0))
    kept = [r for r in requests if window is None or window[0] <= r.ts < window[1]]
    answer: dict[str, object] = {"total": len(kept), "errors": sum(r.status >= 500 for r in kept)}
    if difficulty >= 2:
        answer["malformed"] = malformed
    for metric in metrics:
        answer[metric.key] = metric.compute(kept)

    where = f"`/app/logs/{fmt.file}`"
    lines = ["The request logs of a web service are in `/app/logs/`"
             + (f": {where} is the current file, older ones were rotated to `{fmt.file}.1`, `{fmt.file}.2`, ..."
                + (" (the oldest is gzip-compressed, `.gz`)" if difficulty == 3 else "") + ". Count every file."
                if difficulty >= 2 else f" (one file, {where})."),
             "", fmt.describe(settings)]
    if difficulty >= 2:
        lines += ["", fmt.validity + " Count malformed lines, but leave them out of every other number."]
    if window:
        lines += ["", f"Report only on the requests whose UTC time is at or after {window[0]:%Y-%m-%d %H:%M} and "
                      f"before {window[1]:%Y-%m-%d %H:%M} (UTC); every field below except `malformed` counts only "
                      "those requests."]
    lines += ["", "Write `/app/report.json`, a JSON object with exactly these keys:", "",
              "- `total`: the number of (valid) requests,",
              "- `errors`: the number of server errors (status 500-599),"]
    if difficulty >= 2:
        lines.append("- `malformed`: the number of malformed lines,")
    lines += [f"- `{m.key}`: {m.text}," for m in metrics]
    lines += ["", "Counts are JSON integers. Do not modify the logs."]

    digests = {name.removeprefix("logs/"): hashlib.sha256(c if isinstance(c, bytes) else c.encode()).hexdigest()
               for name, c in files.items()}
    wrong = {"wrong_4xx_as_errors.sh": _solution(fmt, settings, metrics, window, difficulty, error_floor=400)}
    if difficulty >= 2:
        wrong["wrong_only_current_file.sh"] = _solution(fmt, settings, metrics, window, difficulty,
                                                        only_current=True)
    return Instance(
        instruction="\n".join(lines),
        files=files,
        solve=_solution(fmt, settings, metrics, window, difficulty),
        wrong=wrong,
        tests=render(TESTS, expected=answer, log_sha256=digests),
        answer=answer,
    )


FAMILY = Family(
    name="log-report",
    category="data-processing",
    tags=("logs", "json", "aggregation"),
    summary="Aggregate request logs in one of five formats (rotated, gzipped, malformed lines, a time window) "
            "into a JSON report whose fields differ per seed.",
    make=make,
)
