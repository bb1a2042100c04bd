#!/bin/bash
# Reference: compact every partition that has part files; leave compacted ones alone; manifest and rejects.
set -euo pipefail
cat > /app/compact.py <<'PY'
#!/usr/bin/env python3
"""compact.py LAKE_DIR: merge each partition's part files (and its data.jsonl) into one data.jsonl."""
import hashlib
import json
import os
import sys
from pathlib import Path


def dumps(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def valid(obj):
    return (isinstance(obj, dict) and isinstance(obj.get("event_id"), str) and obj["event_id"]
            and isinstance(obj.get("_ingested_at"), str))


def compact(lake, part_dir, rejected):
    parts = sorted(p for p in part_dir.iterdir() if p.is_file() and p.name.startswith("part-") and p.name.endswith(".jsonl"))
    if not parts:
        return
    data = part_dir / "data.jsonl"
    best = {}
    sources = ([data] if data.exists() else []) + parts
    for src in sources:
        with open(src, encoding="utf-8") as f:
            for n, line in enumerate(f, start=1):
                raw = line.rstrip("\n")
                if not raw.strip():
                    continue
                try:
                    obj = json.loads(raw)
                except ValueError:
                    obj = None
                if not valid(obj):
                    rejected.append({"file": src.relative_to(lake).as_posix(), "line": n, "text": raw})
                    continue
                cur = best.get(obj["event_id"])
                if cur is None or obj["_ingested_at"] >= cur["_ingested_at"]:
                    best[obj["event_id"]] = obj
    live = [best[e] for e in sorted(best) if best[e].get("_deleted") is not True]
    if live:
        tmp = part_dir / ".data.jsonl.tmp"
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.writelines(dumps(r) + "\n" for r in live)
        os.replace(tmp, data)
    elif data.exists():
        data.unlink()
    for p in parts:
        p.unlink()
    if not live and not any(part_dir.iterdir()):
        part_dir.rmdir()


def main(lake):
    lake = Path(lake)
    rejected = []
    for part_dir in sorted(lake.glob("*/dt=*")):
        if part_dir.is_dir():
            compact(lake, part_dir, rejected)
    if rejected:
        with open(lake / "_rejected.jsonl", "a", encoding="utf-8") as f:
            for r in rejected:
                f.write(dumps(r) + "\n")
    manifest = {}
    for data in sorted(lake.glob("*/dt=*/data.jsonl")):
        b = data.read_bytes()
        manifest[data.parent.relative_to(lake).as_posix()] = {"rows": b.count(b"\n"), "sha256": hashlib.sha256(b).hexdigest()}
    tmp = lake / "._manifest.tmp"
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, lake / "_manifest.json")


if __name__ == "__main__":
    main(sys.argv[1])
PY
chmod +x /app/compact.py
