"""/app/winagg.py on event streams generated here: windows, late events and duplicates must match the
reference model, whether a stream arrives in one batch or in many (each batch a separate run)."""
import csv
import json
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import winref  # noqa: E402

TOOL = "/app/winagg.py"


def run(state, *args):
    r = subprocess.run(["python3", TOOL, str(state), *map(str, args)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"winagg.py {' '.join(map(str, args))} exited {r.returncode}: {r.stderr[-2000:]}"


def feed(tmp_path, batches, flush=True, name="state"):
    state = tmp_path / name
    for i, lines in enumerate(batches):
        f = tmp_path / f"{name}-batch{i}.jsonl"
        f.write_text("".join(l + "\n" for l in lines), encoding="utf-8")
        run(state, f)
    if flush:
        run(state, "--flush")
    return state


def outputs(state):
    def rows(name):
        p = state / name
        assert p.exists(), f"{p} missing"
        with open(p, newline="", encoding="utf-8") as f:
            return list(csv.reader(f))
    return rows("windows.csv"), rows("late.csv")


def expected(batches, flush=True):
    m = winref.Model()
    for b in batches:
        m.batch(b)
    if flush:
        m.flush()
    return [winref.WIN_HEADER] + m.windows, [winref.LATE_HEADER] + m.late


def compare(got, want, what):
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"{what} row {i}: got {g}, expected {w}"
    assert len(got) == len(want), f"{what}: {len(got) - 1} rows, expected {len(want) - 1}"


def check(tmp_path, batches, flush=True, name="state"):
    gw, gl = outputs(feed(tmp_path, batches, flush, name))
    ew, el = expected(batches, flush)
    compare(gw, ew, "windows.csv")
    compare(gl, el, "late.csv")


def ev(eid, ts, value, sensor="flow"):
    return json.dumps({"id": eid, "sensor": sensor, "ts": ts, "value": value})


def test_one_batch_stream(tmp_path):
    lines = winref.stream(random.Random(random.getrandbits(64)), n=700)
    check(tmp_path, [lines])


def test_many_batches_same_as_one(tmp_path):
    rng = random.Random(random.getrandbits(64))
    lines = winref.stream(rng, n=700)
    cuts = sorted(rng.sample(range(1, len(lines)), 7))
    batches = [lines[a:b] for a, b in zip([0] + cuts, cuts + [len(lines)])]
    check(tmp_path, batches, name="split")
    # and the split run agrees with the single run, file for file
    one = feed(tmp_path, [lines], name="single")
    split = tmp_path / "split"
    for f in ("windows.csv", "late.csv"):
        assert (split / f).read_bytes() == (one / f).read_bytes(), f"{f} differs between one batch and eight"


def test_windows_appear_when_closed_not_before(tmp_path):
    b1 = [ev("a1", "2025-05-01T10:00:10Z", 1), ev("a2", "2025-05-01T10:04:59.999999Z", 2),
          ev("a3", "2025-05-01T10:05:00Z", 4), ev("a4", "2025-05-01T10:06:59Z", 8)]
    state = feed(tmp_path, [b1], flush=False)
    w, l = outputs(state)
    assert w == [winref.WIN_HEADER] and l == [winref.LATE_HEADER], "no window may be emitted before the watermark passes its end"
    b2 = [ev("a5", "2025-05-01T10:07:00Z", 16),          # watermark reaches 10:05:00: the 10:00 window closes
          ev("a6", "2025-05-01T10:04:59Z", 32),          # its window has closed: late
          ev("a7", "2025-05-01T10:05:00.000001Z", 64),   # the 10:05 window is still open
          ev("a8", "2025-05-01T10:12:00+00:00", 128)]
    (tmp_path / "b2.jsonl").write_text("\n".join(b2) + "\n", encoding="utf-8")
    run(state, tmp_path / "b2.jsonl")
    w, l = outputs(state)
    assert w[1:] == [["2025-05-01T10:00:00Z", "flow", "2", "3.000", "1.000", "2.000"],
                     ["2025-05-01T10:05:00Z", "flow", "4", "92.000", "4.000", "64.000"]], w
    assert l[1:] == [["a6", "flow", "2025-05-01T10:04:59Z", "32.000"]], l
    # a third run: the watermark (10:10:00) carries over, so the 10:05 window stays closed
    (tmp_path / "b3.jsonl").write_text(ev("a9", "2025-05-01T10:08:00-00:00", 256) + "\n", encoding="utf-8")
    run(state, tmp_path / "b3.jsonl")
    run(state, "--flush")
    w, l = outputs(state)
    assert w[3:] == [["2025-05-01T10:10:00Z", "flow", "1", "128.000", "128.000", "128.000"]], w
    assert [r[0] for r in l[1:]] == ["a6", "a9"], l
    b3 = [ev("a9", "2025-05-01T10:08:00-00:00", 256)]
    check(tmp_path, [b1, b2, b3], name="again")


def test_duplicates_across_runs_are_ignored(tmp_path):
    b1 = [ev("d1", "2025-02-03T08:00:00Z", 5), ev("d2", "2025-02-03T08:01:00Z", 7, "pump-1/temp"),
          ev("d3", "2025-02-03T08:20:00Z", 1), ev("d4", "2025-02-03T08:02:00Z", 9)]   # d4 is late
    b2 = [ev("d1", "2025-02-03T08:21:00Z", 500), ev("d4", "2025-02-03T08:22:00Z", 900),   # redeliveries
          ev("d2", "2025-02-03T08:03:00Z", 700, "pump-1/temp"), ev("d5", "2025-02-03T08:21:30Z", 2),
          ev("d5", "2025-02-03T08:21:31Z", 3)]
    check(tmp_path, [b1, b2])
    w, l = outputs(tmp_path / "state")
    assert [r[0] for r in l[1:]] == ["d4"], l
    assert ["2025-02-03T08:20:00Z", "flow", "2", "3.000", "1.000", "2.000"] in w, w


def test_offsets_fractions_and_numbers(tmp_path):
    rng = random.Random(random.getrandbits(64))
    lines = [ev("o1", "2025-03-30T01:59:59.5+05:30", 1.5), ev("o2", "2025-03-29T20:25:00-00:05", -2),
             ev("o3", "2025-03-29T20:29:59.999-00:00", 0.001), ev("o4", "2025-03-29T16:00:00-04:30", 10),
             ev("o5", "2025-03-30T05:30:00+09:00", 7.25)]
    rng.shuffle(lines)
    lines += winref.stream(rng, n=200, garbage=False)
    check(tmp_path, [lines])


def test_invalid_lines_are_skipped(tmp_path):
    good = [ev("g1", "2025-07-01T00:00:00Z", 3), ev("g2", "2025-07-01T00:06:00Z", 4)]
    bad = ["", "   ", "garbage", "[]", '{"id": "b1", "sensor": "flow", "ts": "2025-07-01T00:01:00", "value": 1}',
           ev("b2", "2025-07-01T00:01:00Z", True), ev("b3", "2025-07-01T00:01:00Z", "5"),
           ev("", "2025-07-01T00:01:00Z", 5), ev("b4", "2025-07-01 00:01:00Z", 5), ev("b5", "2025-07-01T00:61:00Z", 5),
           '{"id": "b6", "sensor": "flow", "value": 2}', '{"id": "g3", "sensor": "flow", "ts": "2025-07-01T00:10:00Z"',
           ev("b7", "2025-07-01T00:01:00Z", None), json.dumps({"id": "b8", "sensor": 3, "ts": "2025-07-01T00:01:00Z", "value": 1})]
    lines = [good[0]] + bad + [good[1], ev("g3", "2025-07-01T00:01:00Z", 6)]
    check(tmp_path, [lines])
    w, _ = outputs(tmp_path / "state")
    assert w[1] == ["2025-07-01T00:00:00Z", "flow", "2", "9.000", "3.000", "6.000"], w


def test_sensor_names_need_csv_quoting(tmp_path):
    names = ['line 3, inlet', 'tank "B"', "ß-valve", 'a,"b"', "  spaced  "]
    lines = []
    for i in range(60):
        lines.append(ev(f"q{i}", f"2025-09-09T09:{i // 2:02d}:{(i * 7) % 60:02d}Z", i * 1.125, names[i % len(names)]))
    lines.append(ev("late-q", "2025-09-09T09:00:00Z", 1, 'a,"b"'))
    check(tmp_path, [lines])
