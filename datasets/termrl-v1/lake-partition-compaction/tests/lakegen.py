"""Small data lakes of JSON Lines part files and the compacted result they should give (test side only)."""
import hashlib
import json
import random
from pathlib import Path

TABLES = ["clicks", "orders", "page_views"]


def dumps(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def record(rng, eid, t):
    r = {"event_id": eid, "_ingested_at": t, "value": rng.choice([rng.randint(-5, 500), rng.random(), "ü-text", None]),
         "user": rng.choice(["ana", "Bo", "Zoë", "李"])}
    if rng.random() < 0.3:
        r["nested"] = {"b": [1, 2, {"c": "d"}], "a": rng.randint(0, 9)}
    return r


def ts(rng):
    return f"2025-0{rng.randint(1, 9)}-{rng.randint(10, 28)}T{rng.randint(10, 23)}:{rng.randint(10, 59)}:{rng.randint(10, 59)}Z"


def partition_files(rng, with_data=False, junk=True):
    """-> (files {name: text}, rejected [(name, line number, text)], expected data.jsonl text or None)."""
    eids = [f"e{rng.randint(0, 10**6):06d}" for _ in range(rng.randint(3, 25))]
    order = []   # (record, rank) in processing order
    files = {}
    names = []
    if with_data:
        recs = {}
        for e in rng.sample(eids, max(1, len(eids) // 2)):
            recs[e] = record(rng, e, ts(rng))
        files["data.jsonl"] = "".join(dumps(recs[e]) + "\n" for e in sorted(recs))
        order += [recs[e] for e in sorted(recs)]
    rejected = []
    for k in range(rng.randint(1, 4)):
        name = f"part-{rng.randint(0, 99999):05d}-{k}.jsonl"
        lines = []
        for _ in range(rng.randint(1, 12)):
            e = rng.choice(eids)
            r = record(rng, e, ts(rng))
            if rng.random() < 0.15:
                r = {"event_id": e, "_ingested_at": ts(rng), "_deleted": True}
            if order and rng.random() < 0.15:   # same event, same ingestion time as an earlier version: later wins
                prev = rng.choice(order)
                r = dict(record(rng, prev["event_id"], prev["_ingested_at"]))
            lines.append((dumps(r) if rng.random() < 0.5 else json.dumps(r, ensure_ascii=rng.random() < 0.5), r))
        if junk and rng.random() < 0.3:
            bad = rng.choice(['{"event_id": "x"', "[1,2]", '{"value": 3, "_ingested_at": "2025-01-01T00:00:00Z"}',
                              '{"event_id": "e1", "value": 3}', "garbage"])
            lines.insert(rng.randint(0, len(lines)), (bad, None))
        text = ""
        for i, (line, r) in enumerate(lines, start=1):
            text += line + "\n"
            if r is None:
                rejected.append((name, i, line))
        files[name] = text
        names.append((name, [r for _, r in lines if r is not None]))
    for name, recs in sorted(names):
        order += recs
    rejected.sort(key=lambda x: (x[0], x[1]))
    best = {}
    for r in order:
        cur = best.get(r["event_id"])
        if cur is None or r["_ingested_at"] >= cur["_ingested_at"]:
            best[r["event_id"]] = r
    live = [best[e] for e in sorted(best) if not best[e].get("_deleted")]
    expected = "".join(dumps(r) + "\n" for r in live) if live else None
    return files, rejected, expected


def build(rng, root: Path, n_parts=6, compacted=3):
    """Write a lake under root. -> (expected {partition: text or None}, untouched {partition: bytes},
    rejected [(path relative to root, line, text)])."""
    expected, untouched, rejected = {}, {}, []
    used = set()
    for i in range(n_parts + compacted):
        table = rng.choice(TABLES)
        while True:
            part = f"{table}/dt=2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            if part not in used:
                used.add(part)
                break
        d = root / part
        d.mkdir(parents=True)
        if i < n_parts:
            files, rej, exp = partition_files(rng, with_data=rng.random() < 0.4)
            for name, text in files.items():
                (d / name).write_text(text, encoding="utf-8")
            expected[part] = exp
            rejected += [(f"{part}/{n}", ln, t) for n, ln, t in rej]
        else:   # already compacted: only data.jsonl
            recs = [record(rng, f"e{k:06d}", ts(rng)) for k in range(rng.randint(1, 6))]
            text = "".join(dumps(r) + "\n" for r in recs)
            (d / "data.jsonl").write_text(text, encoding="utf-8")
            untouched[part] = text.encode("utf-8")
    rejected.sort()
    return expected, untouched, rejected


def sha(b):
    return hashlib.sha256(b).hexdigest()
