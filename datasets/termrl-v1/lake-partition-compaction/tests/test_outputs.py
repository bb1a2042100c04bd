"""/app/compact.py on data lakes generated here: compacted partitions, untouched ones, tombstones, rejects,
manifest, and a second run that changes nothing."""
import json
import os
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import lakegen  # noqa: E402

TOOL = "/app/compact.py"
RNG = random.Random(random.getrandbits(64))
OLD = 1_600_000_000


def run(lake):
    r = subprocess.run(["python3", TOOL, str(lake)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]


def snapshot(lake):
    return {p.relative_to(lake).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in lake.rglob("*") if p.is_file() and not p.name.startswith(("_", "."))}


def make(tmp_path, **kw):
    lake = tmp_path / "lake"
    lake.mkdir()
    expected, untouched, rejected = lakegen.build(RNG, lake, **kw)
    for part in untouched:
        os.utime(lake / part / "data.jsonl", (OLD, OLD))
    return lake, expected, untouched, rejected


def check_partitions(lake, expected):
    for part, text in expected.items():
        d = lake / part
        if text is None:
            assert not d.exists(), f"{part}: every event was deleted, the partition directory must be gone"
            continue
        files = sorted(p.name for p in d.iterdir())
        assert files == ["data.jsonl"], f"{part}: files left {files}"
        got = (d / "data.jsonl").read_text(encoding="utf-8")
        if got != text:
            g, w = got.splitlines(), text.splitlines()
            diff = [(a, b) for a, b in zip(g, w) if a != b][:2]
            raise AssertionError(f"{part}: data.jsonl differs ({len(g)} lines, expected {len(w)}); first: {diff}")


def test_partitions_are_compacted(tmp_path):
    lake, expected, _, _ = make(tmp_path, n_parts=8, compacted=0)
    run(lake)
    check_partitions(lake, expected)


def test_compacted_partitions_are_left_alone(tmp_path):
    lake, expected, untouched, _ = make(tmp_path, n_parts=4, compacted=4)
    run(lake)
    check_partitions(lake, expected)
    for part, data in untouched.items():
        p = lake / part / "data.jsonl"
        assert p.read_bytes() == data, f"{part} was rewritten"
        assert p.stat().st_mtime_ns == OLD * 10**9, f"{part}/data.jsonl was touched (mtime changed)"


def test_second_run_changes_nothing(tmp_path):
    lake, expected, _, _ = make(tmp_path, n_parts=6, compacted=2)
    run(lake)
    first = snapshot(lake)
    manifest = json.loads((lake / "_manifest.json").read_text())
    rejects = (lake / "_rejected.jsonl").read_bytes() if (lake / "_rejected.jsonl").exists() else b""
    run(lake)
    assert snapshot(lake) == first, "a second run changed data files"
    assert json.loads((lake / "_manifest.json").read_text()) == manifest
    assert ((lake / "_rejected.jsonl").read_bytes() if (lake / "_rejected.jsonl").exists() else b"") == rejects


def test_new_parts_merge_into_existing_data(tmp_path):
    lake, expected, _, _ = make(tmp_path, n_parts=5, compacted=0)
    run(lake)
    # a later ingestion adds part files to compacted partitions: newer versions, new events, tombstones
    for part, text in expected.items():
        if text is None:
            continue
        recs = [json.loads(l) for l in text.splitlines()]
        new = []
        for r in RNG.sample(recs, max(1, len(recs) // 2)):
            choice = RNG.random()
            if choice < 0.4:
                new.append({**r, "value": "updated", "_ingested_at": "2026-01-01T00:00:00Z"})
            elif choice < 0.6:
                new.append({"event_id": r["event_id"], "_ingested_at": "2026-01-02T00:00:00Z", "_deleted": True})
            elif choice < 0.8:
                new.append({**r, "value": "stale", "_ingested_at": "2000-01-01T00:00:00Z"})
            else:
                new.append({**r, "value": "same time, later file"})
        new.append({"event_id": "z-new", "_ingested_at": "2026-01-03T00:00:00Z", "value": 1})
        (lake / part / "part-99999-9.jsonl").write_text("".join(json.dumps(r) + "\n" for r in new), encoding="utf-8")
        best = {r["event_id"]: r for r in recs}
        for r in new:
            if r["event_id"] not in best or r["_ingested_at"] >= best[r["event_id"]]["_ingested_at"]:
                best[r["event_id"]] = r
        live = [best[e] for e in sorted(best) if not best[e].get("_deleted")]
        expected[part] = "".join(lakegen.dumps(r) + "\n" for r in live) or None
    run(lake)
    check_partitions(lake, expected)


def test_rejected_lines_and_manifest(tmp_path):
    lake, expected, untouched, rejected = make(tmp_path, n_parts=8, compacted=2)
    run(lake)
    p = lake / "_rejected.jsonl"
    got = sorted((r["file"], r["line"], r["text"]) for r in map(json.loads, p.read_text(encoding="utf-8").splitlines())) \
        if p.exists() else []
    assert got == rejected
    manifest = json.loads((lake / "_manifest.json").read_text(encoding="utf-8"))
    live = {part for part, text in expected.items() if text is not None} | set(untouched)
    assert set(manifest) == live, f"manifest partitions {sorted(manifest)}, expected {sorted(live)}"
    for part in live:
        data = (lake / part / "data.jsonl").read_bytes()
        assert manifest[part] == {"rows": data.count(b"\n"), "sha256": lakegen.sha(data)}, part
