import random
import re
import subprocess
from fractions import Fraction

import pytest


def ms_to(ms):
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def to_ms(s):
    h, m, rest = s.split(":")
    sec, ms = re.split(r"[,.]", rest)
    return ((int(h) * 60 + int(m)) * 60 + int(sec)) * 1000 + int(ms)


def reference(cues, maps):
    """cues: list of (start_ms, end_ms, [lines]) in input order."""
    if len(maps) == 1:
        d = maps[0][1] - maps[0][0]
        f = lambda t: t + d
    else:
        (o1, n1), (o2, n2) = maps
        f = lambda t: int((Fraction(n1) + (t - o1) * Fraction(n2 - n1, o2 - o1) + Fraction(1, 2)).__floor__())
    out = []
    for k, (s, e, lines) in enumerate(cues):
        s2, e2 = f(s), f(e)
        if e2 <= 0:
            continue
        out.append((max(0, s2), k, e2, [l.rstrip() for l in lines]))
    out.sort(key=lambda c: (c[0], c[1]))
    return "".join(f"{n}\n{ms_to(s)} --> {ms_to(e)}\n" + "\n".join(l) + "\n\n" for n, (s, _, e, l) in enumerate(out, 1))


def gen(seed):
    rng = random.Random(seed)
    cues = []
    t = rng.randint(0, 5000)
    for _ in range(rng.randint(5, 40)):
        t += rng.randint(0, 4000)
        d = rng.randint(300, 6000)
        lines = [rng.choice(["Hi.", "¿Qué pasa?", "- Run!", "<i>whisper</i>", "Two  spaces", "日本語"]) + rng.choice(["", "  ", "\t"])
                 for _ in range(rng.randint(1, 3))]
        cues.append((t, t + d, lines))
    order = list(range(len(cues)))
    if rng.random() < 0.5:
        rng.shuffle(order)
    nl = rng.choice(["\n", "\r\n"])
    text = "\ufeff" if rng.random() < 0.5 else ""
    shown = []
    for idx, k in enumerate(order):
        s, e, lines = cues[k]
        sep = rng.choice([",", "."])
        ts = f"{ms_to(s).replace(',', sep)} --> {ms_to(e)}" + rng.choice(["", " X1:100 X2:200 Y1:1 Y2:2"])
        text += f"{rng.randint(1, 999)}{nl}{ts}{nl}" + nl.join(lines) + nl + rng.choice([nl, nl + nl, nl + "  " + nl])
        shown.append(cues[k])
    a = rng.randint(0, 60000)
    maps = [(a, a + rng.randint(-20000, 20000))]
    if seed % 2:
        b = a + rng.randint(10000, 120000)
        maps.append((b, b + rng.randint(-20000, 20000)))
    return text, shown, maps


def run(tmp_path, text, maps_args):
    inp, out = tmp_path / "in.srt", tmp_path / "out.srt"
    inp.write_bytes(text.encode("utf-8"))
    r = subprocess.run(["python3", "/app/srtfix.py", str(inp), str(out)] + maps_args, capture_output=True, timeout=20)
    return r, out


@pytest.mark.parametrize("seed", range(10))
def test_generated(tmp_path, seed):
    text, cues, maps = gen(seed)
    args = []
    for o, n in maps:
        args += ["--map", f"{ms_to(o)}={ms_to(max(n, 0))}"]
    maps = [(o, max(n, 0)) for o, n in maps]
    r, out = run(tmp_path, text, args)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes().decode("utf-8") == reference(cues, maps)


def test_example_file(tmp_path):
    r = subprocess.run(["python3", "/app/srtfix.py", "/app/movie.srt", str(tmp_path / "o.srt"),
                        "--map", "00:00:01,000=00:00:00,500", "--map", "00:00:05,000=00:00:05,333"],
                       capture_output=True, timeout=20)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "o.srt").read_bytes() == (
        b"1\n00:00:00,500 --> 00:00:03,521\nHello there.\n\n"
        b"2\n00:00:01,708 --> 00:00:02,796\nOut of order cue\n\n"
        b"3\n00:00:04,427 --> 00:00:06,541\nSecond line\nwith two rows\n\n")


def test_negative_times_dropped_and_clamped(tmp_path):
    text = ("1\n00:00:01,000 --> 00:00:02,000\nGone\n\n"
            "2\n00:00:02,500 --> 00:00:04,000\nClamped\n\n"
            "3\n00:00:05,000 --> 00:00:06,000\nKept\n")
    r, out = run(tmp_path, text, ["--map", "00:00:03,000=00:00:00,000"])
    assert r.returncode == 0, r.stderr
    assert out.read_text() == ("1\n00:00:00,000 --> 00:00:01,000\nClamped\n\n"
                               "2\n00:00:02,000 --> 00:00:03,000\nKept\n\n")


@pytest.mark.parametrize("args", [[], ["--map", "00:00:01=00:00:02,000"],
                                  ["--map", "00:00:01,000=00:00:02,000"] * 3])
def test_bad_maps(tmp_path, args):
    r, out = run(tmp_path, "1\n00:00:01,000 --> 00:00:02,000\nx\n", args)
    assert r.returncode == 2
    assert r.stderr
    assert not out.exists()
