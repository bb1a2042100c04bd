"""log-report: aggregate generated web-server access logs into a JSON report.

Harder levels add rotated files (one gzipped), malformed lines and more report fields.
"""

from __future__ import annotations

import gzip
import hashlib
import random
from datetime import datetime, timedelta, timezone

from termrl.tasks.generators._common import WORDS, Family, Instance, python_script, render

STATUSES = [200] * 12 + [201, 204, 301, 304, 400, 401, 403, 404, 404, 500, 502, 503]
METHODS = ["GET"] * 5 + ["POST", "PUT", "DELETE"]


def _paths(rng: random.Random) -> list[str]:
    words = rng.sample(WORDS, 6)
    return ["/health", "/login", f"/api/{words[0]}", f"/api/{words[1]}", f"/api/{words[2]}/items",
            f"/static/{words[3]}.css", f"/static/{words[4]}.js", f"/docs/{words[5]}"]


def _malformed(rng: random.Random, stamp: str) -> str:
    return rng.choice([f"{stamp} 10.0.0.1 GET", "--- log rotated ---", f"{stamp} 10.0.0.9 GET /login ok 12ms",
                       f"{stamp} 10.0.0.4 POST /login 200 fast", f"{stamp} 10.0.0.2 GET /a b 200 5ms"])


def _report(lines: list[list[str]], malformed: int, difficulty: int) -> dict:
    by_status: dict[str, int] = {}
    per_path: dict[str, list[int]] = {}
    errors_by_hour: dict[str, int] = {}
    for stamp, _ip, _method, path, status, latency in lines:
        by_status[status] = by_status.get(status, 0) + 1
        per_path.setdefault(path, []).append(int(latency[:-2]))
        if int(status) >= 500:
            hour = stamp[11:13]
            errors_by_hour[hour] = errors_by_hour.get(hour, 0) + 1
    report = {
        "total": len(lines),
        "by_status": dict(sorted(by_status.items())),
        "errors": sum(n for s, n in by_status.items() if int(s) >= 500),
        "top_path": min(per_path, key=lambda p: (-len(per_path[p]), p)),
    }
    if difficulty >= 2:
        report["malformed"] = malformed
        report["slowest_path"] = min(per_path, key=lambda p: (-sum(per_path[p]) / len(per_path[p]), p))
    if difficulty >= 3:
        report["errors_by_hour"] = dict(sorted(errors_by_hour.items()))
        report["unique_ips"] = len({line[1] for line in lines})
    return report


SOLVE = """
import glob, gzip, json
lines, malformed = [], 0
for name in sorted(glob.glob("/app/logs/access.log*")):
    opener = gzip.open if name.endswith(".gz") else open
    with opener(name, "rt") as fh:
        for raw in fh:
            parts = raw.split()
            if not parts:
                continue
            if (len(parts) == 6 and len(parts[4]) == 3 and parts[4].isdigit()
                    and parts[5].endswith("ms") and parts[5][:-2].isdigit()):
                lines.append(parts)
            else:
                malformed += 1
by_status, per_path, by_hour = {}, {}, {}
for stamp, ip, method, path, status, latency in lines:
    by_status[status] = by_status.get(status, 0) + 1
    per_path.setdefault(path, []).append(int(latency[:-2]))
    if int(status) >= ERROR_FLOOR:
        by_hour[stamp[11:13]] = by_hour.get(stamp[11:13], 0) + 1
report = {
    "total": len(lines),
    "by_status": by_status,
    "errors": sum(n for s, n in by_status.items() if int(s) >= ERROR_FLOOR),
    "top_path": min(per_path, key=lambda p: (-len(per_path[p]), p)),
}
if DIFFICULTY >= 2:
    report["malformed"] = malformed
    report["slowest_path"] = min(per_path, key=lambda p: (-sum(per_path[p]) / len(per_path[p]), p))
if DIFFICULTY >= 3:
    report["errors_by_hour"] = by_hour
    report["unique_ips"] = len({l[1] for l in lines})
json.dump(report, open("/app/report.json", "w"), indent=2, sort_keys=True)
"""


def _solution(difficulty: int, error_floor: int = 500) -> str:
    return python_script(SOLVE.replace("ERROR_FLOOR", str(error_floor)).replace("DIFFICULTY", str(difficulty)))


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
    for key in ("total", "errors", "malformed", "unique_ips"):
        if key in EXPECTED:
            assert type(report[key]) is int, key


def test_logs_untouched():
    for name, digest in LOG_SHA256.items():
        assert hashlib.sha256(Path("/app/logs", name).read_bytes()).hexdigest() == digest, name
"""


def make(rng: random.Random, difficulty: int) -> Instance:
    paths = _paths(rng)
    weights = [rng.randint(1, 8) for _ in paths]
    n_files = {1: 1, 2: 3, 3: 4}[difficulty]
    start = datetime(2026, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 6), tzinfo=timezone.utc)
    ips = [f"10.{rng.randint(0, 9)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}" for _ in range(rng.randint(6, 14))]
    names = ["access.log"] + [f"access.log.{i}" for i in range(1, n_files)]
    files: dict[str, str | bytes] = {}
    parsed: list[list[str]] = []
    malformed = 0
    clock = start
    # Oldest file first: access.log.N is the oldest rotation, access.log the newest.
    for name in reversed(names):
        rows = []
        for i in range(rng.randint(40, 80) if difficulty == 1 else rng.randint(30, 60)):
            clock += timedelta(seconds=rng.randint(20, 400))
            stamp = clock.strftime("%Y-%m-%dT%H:%M:%SZ")
            if difficulty >= 2 and rng.random() < 0.06:
                rows.append(_malformed(rng, stamp))
                malformed += 1
                continue
            status = str(rng.choice(STATUSES))
            if i == 0:
                status = rng.choice(["404", "403"])  # guarantees a 4xx (not an error) in every file
            elif i == 1:
                status = rng.choice(["500", "503"])
            parts = [stamp, rng.choice(ips), rng.choice(METHODS), rng.choices(paths, weights)[0], status,
                     f"{rng.randint(2, 900)}ms"]
            rows.append(" ".join(parts))
            parsed.append(parts)
        text = "\n".join(rows) + "\n"
        if difficulty == 3 and name == names[-1]:
            files[f"logs/{name}.gz"] = gzip.compress(text.encode(), mtime=0)
        else:
            files[f"logs/{name}"] = text
    answer = _report(parsed, malformed, difficulty)

    lines = [
        "The web server's access logs are in `/app/logs/`"
        + (": `access.log` is the current file, older ones were rotated to `access.log.1`, `access.log.2`, ..."
           + (" (the oldest is gzip-compressed, `.gz`)" if difficulty == 3 else "") + ". Count every file."
           if difficulty >= 2 else " (one file, `access.log`)."),
        "",
        "Each line is `TIMESTAMP CLIENT_IP METHOD PATH STATUS LATENCY`, e.g. "
        "`2026-03-14T08:15:02Z 10.0.3.7 GET /api/items 200 123ms`.",
    ]
    if difficulty >= 2:
        lines += ["A line is valid when it has exactly 6 whitespace-separated fields, the fifth is a three-digit "
                  "status code and the sixth is an integer followed by `ms`. Any other non-empty line is "
                  "malformed: count it, but leave it out of every other number."]
    lines += ["", "Write `/app/report.json`, a JSON object with exactly these keys:", "",
              "- `total`: the number of (valid) requests,",
              "- `by_status`: an object mapping each status code, as a string, to its number of requests,",
              "- `errors`: the number of server errors (status 500-599),",
              "- `top_path`: the path with the most requests (on a tie, the alphabetically first),"]
    if difficulty >= 2:
        lines += ["- `malformed`: the number of malformed lines,",
                  "- `slowest_path`: the path with the highest mean latency (on a tie, the alphabetically first),"]
    if difficulty >= 3:
        lines += ["- `errors_by_hour`: an object mapping each two-digit UTC hour (`\"08\"`) that has server errors "
                  "to their number, summed over all days (hours without errors are left out),",
                  "- `unique_ips`: the number of distinct client IPs."]
    lines += ["", "Counts are JSON integers. Do not modify the logs."]
    digests = {name.removeprefix("logs/"): hashlib.sha256(c if isinstance(c, bytes) else c.encode()).hexdigest()
               for name, c in files.items()}
    if difficulty == 1:
        wrong = {"wrong_4xx_as_errors.sh": _solution(difficulty, error_floor=400)}
    else:
        wrong = {"wrong_only_current_file.sh": _solution(difficulty).replace(
            'glob.glob("/app/logs/access.log*")', '["/app/logs/access.log"]')}
    return Instance(
        instruction="\n".join(lines),
        files=files,
        solve=_solution(difficulty),
        wrong=wrong,
        tests=render(TESTS, expected=answer, log_sha256=digests),
        answer=answer,
    )


FAMILY = Family(
    name="log-report",
    category="data-processing",
    tags=("logs", "json", "aggregation"),
    summary="Aggregate generated access logs (rotated, gzipped, malformed lines) into a JSON report.",
    make=make,
)
