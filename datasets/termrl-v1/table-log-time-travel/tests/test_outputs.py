import json
import os
import random


def vname(v):
    return f"{v:020d}"


class Table:
    """Writes a table history and remembers the true state of every version."""

    def __init__(self, root, seed):
        self.root = root
        self.rnd = random.Random(seed)
        os.makedirs(os.path.join(root, "_log"), exist_ok=True)
        self.version = -1
        self.schema = None
        self.parts = None
        self.active = {}  # path -> (partitionValues, rows as dicts of data columns)
        self.states = {}  # version -> (schema, sorted rows)
        self.raw_ts = {}
        self.adj_ts = {}
        self.clock = 1767225600000  # 2026-01-01T00:00:00Z in ms
        self.nfile = 0
        self.removed = {}

    # ------------------------------------------------------------ helpers
    def value(self, col_type):
        r = self.rnd
        if col_type == "long":
            return r.choice([None] + [r.randint(-50, 10**6) for _ in range(9)])
        if col_type == "double":
            return r.choice([None, round(r.uniform(-100, 100), 3), float(r.randint(0, 9))])
        return r.choice([None, "", "a,b", "x" * r.randint(1, 5), "Zürich", "null", "0"])

    def new_file(self, pv):
        self.nfile += 1
        sub = "/".join(f"{k}={'__NULL__' if v is None else v}" for k, v in pv.items())
        path = (sub + "/" if sub else "") + f"part-{self.nfile:05d}-{self.rnd.randint(0, 16**6):06x}.jsonl"
        data_cols = [c for c in self.schema if c["name"] not in self.parts]
        rows = []
        for _ in range(self.rnd.randint(0, 6)):
            row = {c["name"]: self.value(c["type"]) for c in data_cols}
            if self.rnd.random() < 0.2 and row:
                row.pop(self.rnd.choice(list(row)))  # a writer that leaves out null columns
            rows.append(row)
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")
        return path, rows

    def part_values(self):
        pv = {}
        for p in self.parts:
            t = next(c["type"] for c in self.schema if c["name"] == p)
            if t == "long":
                pv[p] = self.rnd.choice([None, "7", "-3", "2026", "0"])
            else:
                pv[p] = self.rnd.choice([None, "2026-01-01", "2026-01-02", "eu west", ""])
        return pv

    def snapshot(self):
        rows = []
        for path, (pv, data) in self.active.items():
            for d in data:
                row = {}
                for c in self.schema:
                    n, t = c["name"], c["type"]
                    if n in self.parts:
                        s = pv.get(n)
                        v = None if s is None else (int(s) if t == "long" else float(s) if t == "double" else s)
                    else:
                        v = d.get(n)
                    row[n] = v
                rows.append(row)
        return [dict(c) for c in self.schema], sorted(rows, key=lambda r: json.dumps(r, sort_keys=True))

    # ------------------------------------------------------------ commits
    def commit(self, actions, skew=0):
        self.version += 1
        v = self.version
        self.clock += self.rnd.randint(1000, 3_600_000)
        raw = self.clock + skew
        self.raw_ts[v] = raw
        self.adj_ts[v] = raw if v == 0 else max(raw, self.adj_ts[v - 1] + 1)
        lines = [{"commitInfo": {"timestamp": raw, "operation": "WRITE"}}] + actions
        with open(os.path.join(self.root, "_log", vname(v) + ".json"), "w") as f:
            for a in lines:
                f.write(json.dumps(a) + "\n")
        self.states[v] = self.snapshot()

    def create(self, schema, parts):
        self.schema, self.parts = schema, parts
        acts = [{"metaData": {"schema": schema, "partitionColumns": parts}}]
        for _ in range(self.rnd.randint(1, 3)):
            pv = self.part_values()
            path, rows = self.new_file(pv)
            self.active[path] = (pv, rows)
            acts.append({"add": {"path": path, "partitionValues": pv, "dataChange": True}})
        self.commit(acts)

    def append(self, skew=0):
        acts = []
        for _ in range(self.rnd.randint(1, 3)):
            pv = self.part_values()
            path, rows = self.new_file(pv)
            self.active[path] = (pv, rows)
            acts.append({"add": {"path": path, "partitionValues": pv, "dataChange": True}})
        self.commit(acts, skew)

    def delete_some(self, skew=0):
        acts = []
        for path in sorted(self.active):
            if self.rnd.random() < 0.35:
                self.removed[path] = self.active.pop(path)
                acts.append({"remove": {"path": path, "deletionTimestamp": self.clock}})
        self.commit(acts, skew)

    def compact(self):
        """Rewrite: remove some files and add one file with their rows (same partition values)."""
        groups = {}
        for path, (pv, rows) in self.active.items():
            groups.setdefault(json.dumps(pv, sort_keys=True), []).append(path)
        acts = []
        for key, paths in sorted(groups.items()):
            if len(paths) < 2:
                continue
            pv = json.loads(key)
            pv = {p: pv[p] for p in self.parts}
            rows = [r for p in sorted(paths) for r in self.active[p][1]]
            for p in sorted(paths):
                self.removed[p] = self.active.pop(p)
                acts.append({"remove": {"path": p, "deletionTimestamp": self.clock}})
            self.nfile += 1
            sub = "/".join(f"{k}={'__NULL__' if v is None else v}" for k, v in pv.items())
            path = (sub + "/" if sub else "") + f"part-{self.nfile:05d}-c.jsonl"
            full = os.path.join(self.root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                for r in rows:
                    f.write(json.dumps(r) + "\n")
            self.active[path] = (pv, rows)
            acts.append({"add": {"path": path, "partitionValues": pv, "dataChange": False}})
        self.rnd.shuffle(acts)
        self.commit(acts)

    def re_add(self):
        """Re-add files that earlier commits removed (a restore)."""
        acts = []
        for path in sorted(self.removed)[: 2]:
            pv, rows = self.removed.pop(path)
            self.active[path] = (pv, rows)
            acts.append({"add": {"path": path, "partitionValues": pv, "dataChange": True}})
        self.commit(acts)

    def add_column(self, name, typ):
        self.schema = self.schema + [{"name": name, "type": typ}]
        self.commit([{"metaData": {"schema": self.schema, "partitionColumns": self.parts}}])

    def orphan(self):
        pv = self.part_values()
        self.nfile += 1
        path = f"part-{self.nfile:05d}-orphan.jsonl"
        with open(os.path.join(self.root, path), "w") as f:
            f.write(json.dumps({c["name"]: 1 for c in self.schema}) + "\n")

    def checkpoint(self, truncated=False):
        v = self.version
        lines = [{"metaData": {"schema": self.schema, "partitionColumns": self.parts}}]
        for path in sorted(self.active):
            lines.append({"add": {"path": path, "partitionValues": self.active[path][0], "dataChange": False}})
        head = {"checkpoint": {"version": v, "actions": len(lines), "timestamp": self.adj_ts[v]}}
        body = [json.dumps(head)] + [json.dumps(a) for a in lines]
        if truncated:
            body = body[: max(1, len(body) - 2)]
        with open(os.path.join(self.root, "_log", vname(v) + ".checkpoint.json"), "w") as f:
            f.write("\n".join(body) + ("\n" if not truncated else ""))

    def pointer(self, v):
        with open(os.path.join(self.root, "_log", "_last_checkpoint"), "w") as f:
            json.dump({"version": v}, f)

    def cleanup(self, upto):
        for v in range(upto + 1):
            p = os.path.join(self.root, "_log", vname(v) + ".json")
            if os.path.exists(p):
                os.remove(p)
            p = os.path.join(self.root, "_log", vname(v) + ".checkpoint.json")
            if os.path.exists(p) and v < upto:
                os.remove(p)


SCHEMA = [{"name": "id", "type": "long"}, {"name": "amount", "type": "double"}, {"name": "note", "type": "string"},
          {"name": "dt", "type": "string"}, {"name": "bucket", "type": "long"}]


def history(root, seed, n=34, ckpts=(10, 20), trunc_at=30, pointer=10, cleanup=10, new_cols=((12, "score", "double"), (25, "tag", "string"))):
    t = Table(root, seed)
    t.create(SCHEMA, ["dt", "bucket"])
    cols = dict((v, (name, typ)) for v, name, typ in new_cols)
    while t.version < n:
        v = t.version + 1
        if v in cols:
            t.add_column(*cols[v])
        else:
            op = t.rnd.random()
            if op < 0.45:
                t.append()
            elif op < 0.6:
                t.append(skew=-t.rnd.randint(4_000_000, 9_000_000))  # a writer with a slow clock
            elif op < 0.75:
                t.delete_some()
            elif op < 0.87:
                t.compact()
            else:
                t.re_add()
        if t.version in ckpts:
            t.checkpoint()
        if t.version == trunc_at:
            t.checkpoint(truncated=True)
        if t.rnd.random() < 0.2:
            t.orphan()
    if pointer is not None:
        t.pointer(pointer)
    if cleanup is not None:
        t.cleanup(cleanup)
    return t


# ---------------------------------------------------------------- tests
import shutil
import subprocess
from datetime import datetime, timedelta, timezone

import pytest

READER = "/app/lakeread.py"


def read(root, *args):
    r = subprocess.run(["python3", READER, str(root), *args], capture_output=True, text=True, timeout=600)
    rows = None
    if r.returncode == 0:
        rows = sorted((json.loads(l) for l in r.stdout.splitlines() if l.strip()),
                      key=lambda x: json.dumps(x, sort_keys=True))
    return r.returncode, rows, r.stdout


def expect(t, v, got, stdout):
    schema, rows = t.states[v]
    assert got == rows, f"version {v}: {len(got)} rows, expected {len(rows)}"
    names = [c["name"] for c in schema]
    for line in stdout.splitlines():
        if line.strip():
            assert list(json.loads(line)) == names, "keys must be the schema's columns in schema order"


def iso(ms, offset_min=0, frac=True):
    d = datetime.fromtimestamp(ms / 1000, tz=timezone(timedelta(minutes=offset_min)))
    s = d.isoformat(timespec="milliseconds" if frac else "seconds")
    return s.replace("+00:00", "Z")


@pytest.fixture(scope="module")
def main_table(tmp_path_factory):
    root = tmp_path_factory.mktemp("lake") / "orders"
    return root, history(str(root), 101)


def test_latest_snapshot(main_table):
    root, t = main_table
    rc, rows, out = read(root)
    assert rc == 0
    expect(t, t.version, rows, out)


def test_every_version(main_table):
    root, t = main_table
    for v in range(10, t.version + 1):
        rc, rows, out = read(root, "--version", str(v))
        assert rc == 0, v
        expect(t, v, rows, out)


def test_unavailable_versions_exit_2(main_table):
    root, t = main_table
    for v in (0, 3, 9, t.version + 1, t.version + 50):
        rc, _, _ = read(root, "--version", str(v))
        assert rc == 2, v


def test_timestamps_with_skewed_clocks(main_table):
    root, t = main_table
    skewed = [v for v in range(11, t.version + 1) if t.raw_ts[v] < t.adj_ts[v]]
    assert skewed
    probes = []
    for v in range(10, t.version + 1):
        probes.append((t.adj_ts[v], v))
        if v > 10:
            probes.append((t.adj_ts[v] - 1, v - 1))
    for v in skewed:  # the raw clock of a skewed commit points before the previous version's time
        want = max(u for u in range(10, t.version + 1) if t.adj_ts[u] <= t.raw_ts[v]) if t.raw_ts[v] >= t.adj_ts[10] else None
        probes.append((t.raw_ts[v], want))
    probes.append((t.adj_ts[t.version] + 86_400_000, t.version))
    probes.append((t.adj_ts[10] - 1, None))
    for k, (ms, want) in enumerate(probes):
        rc, rows, out = read(root, "--timestamp", iso(ms, offset_min=[0, 60, -300, 330][k % 4]))
        if want is None:
            assert rc == 2, ms
        else:
            assert rc == 0, ms
            expect(t, want, rows, out)


def test_pointer_to_incomplete_checkpoint(tmp_path):
    root = tmp_path / "events"
    t = history(str(root), 202, n=36, ckpts=(8, 20), trunc_at=30, pointer=30, cleanup=20,
                new_cols=((5, "score", "double"),))
    for v in (20, 29, 30, 31, 36):
        rc, rows, out = read(root, "--version", str(v))
        assert rc == 0, v
        expect(t, v, rows, out)
    rc, rows, out = read(root)
    expect(t, t.version, rows, out)
    assert read(root, "--version", "19")[0] == 2


def test_full_replay_without_checkpoints(tmp_path):
    root = tmp_path / "small"
    t = history(str(root), 303, n=18, ckpts=(), trunc_at=12, pointer=None, cleanup=None,
                new_cols=((4, "score", "double"), (9, "tag", "string")))
    for v in range(0, t.version + 1):
        rc, rows, out = read(root, "--version", str(v))
        assert rc == 0, v
        expect(t, v, rows, out)
    for v, off in ((0, 120), (5, -480), (11, 0)):
        rc, rows, out = read(root, "--timestamp", iso(t.adj_ts[v], off))
        assert rc == 0
        expect(t, v, rows, out)
    rc, rows, out = read(root, "--timestamp", iso(t.adj_ts[0] - 1))
    assert rc == 2


def test_partition_values_typed_and_restored_files(tmp_path):
    root = tmp_path / "hand"
    t = Table(str(root), 404)
    t.create(SCHEMA, ["dt", "bucket"])
    for _ in range(6):
        t.append()
    t.delete_some()
    t.delete_some()
    t.re_add()
    t.add_column("flag", "long")
    t.append()
    t.orphan()
    rc, rows, out = read(root)
    assert rc == 0
    expect(t, t.version, rows, out)
    assert any(isinstance(r["bucket"], int) for r in rows) and all(
        r["bucket"] is None or isinstance(r["bucket"], int) for r in rows)
