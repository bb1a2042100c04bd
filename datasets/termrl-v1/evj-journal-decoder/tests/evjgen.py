"""Writes .evj journals and the viewer's export for them (test side only; never in the image)."""
import random
import struct
import zlib
from datetime import datetime, timedelta, timezone

EPOCH = datetime(2020, 1, 1, tzinfo=timezone.utc)
LEVELS = ["DEBUG", "INFO", "WARN", "ERROR", "FATAL"]
SOURCES = ["net.eth0", "net.wlan", "pump.main", "pump.aux", "valve.v3", "ctl", "power", "sensor.tank_a",
           "sensor.tank_b", "modem", "fs", "watchdog", "gps", "display"]
TEMPLATES = [
    ("link {} after {} retries", "si"), ("pressure {} bar (limit {})", "ff"), ("valve {} set to {}", "sb"),
    ("temperature {}°C on {}", "fs"), ("wrote {} bytes to {}", "is"), ("checksum {} for block {}", "xi"),
    ("battery at {} %", "f"), ("user {} logged in: {}", "sb"), ("counter wrapped: {} -> {}", "ii"),
    ("firmware {} booted", "s"), ("offset {} ms applied", "i"), ("frame {} payload {}", "ix"),
    ("heartbeat", ""), ("flow {} l/min, total {} l", "fi"), ("größe {} überschritten", "i"),
    ("mode changed to {} by {}", "ss"), ("retry {} of {}: {}", "iis"), ("calibration done", ""),
    ("sensor {} reading {} ({})", "sfb"), ("queue depth {}", "i"),
]
WORDS = ["up", "down", "open", "closed", "alice", "bob", "root", "/var/log/a.bin", "/data/x", "v2.4.1",
         "v2.5.0-rc1", "AUTO", "MANUAL", "SERVICE", "ok", "timeout", "ümlaut-zone", "west", "east", "T-7", "?"]


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(n):
    return (n << 1) if n >= 0 else ((-n) << 1) - 1


def fmt_tz(m):
    s = "+" if m >= 0 else "-"
    return f"UTC{s}{abs(m) // 60:02d}:{abs(m) % 60:02d}"


def fmt_ts(ms, tz):
    d = EPOCH + timedelta(milliseconds=ms) + timedelta(minutes=tz)
    return d.strftime("%Y-%m-%d %H:%M:%S") + f".{ms % 1000:03d}"


def make(seed, n_frames=None, p_damage=0.15, truncate=None, device=None, tz=None, first_id=None):
    rng = random.Random(seed)
    device = device or rng.choice(["pump-station-", "rig-", "kiosk-", "buoy-"]) + str(rng.randrange(1, 99))
    tz = rng.choice([0, 60, 120, 330, -300, -240, 545, -210, 600]) if tz is None else tz
    n_frames = rng.randint(8, 20) if n_frames is None else n_frames
    truncate = rng.random() < 0.5 if truncate is None else truncate
    name = device.encode()
    out = bytearray(b"EVJ2" + struct.pack("<hB", tz, len(name)) + name)
    lines = [f"# device: {device}", f"# clock: {fmt_tz(tz)}"]
    ids, known = {}, set()
    next_id = [rng.randrange(90, 300) if first_id is None else first_id]
    t = int((datetime(2026, rng.randint(1, 11), rng.randint(1, 28), tzinfo=timezone.utc) - EPOCH).total_seconds()
            * 1000) + rng.randrange(86_400_000)
    n_events = n_bad = 0
    for fi in range(n_frames):
        damaged = fi > 0 and rng.random() < p_damage
        pay = bytearray()
        flines = []
        fdefs = []

        def sid(text):
            if text not in ids:
                ids[text] = next_id[0]
                next_id[0] += rng.choice([1, 1, 1, 2, 7])
                b = text.encode()
                pay.extend(b"\x01" + varint(ids[text]) + varint(len(b)) + b)
                fdefs.append(ids[text])
            return ids[text]

        pay.extend(b"\x03" + varint(t))
        for _ in range(rng.randint(1, 12)):
            if rng.random() < 0.2:
                pay.extend(b"\x00" * rng.randint(1, 3))
            t += rng.choice([0, 1, 5, 40, 127, 128, 999, 1500, 16384, 65000, 3_600_000])
            lvl = rng.choices(range(5), [3, 6, 3, 2, 1])[0]
            src = rng.choice(SOURCES)
            tmpl, kinds = rng.choice(TEMPLATES)
            args_b = bytearray()
            rendered = []
            s_id = sid(src)
            t_id = sid(tmpl)
            for k in kinds:
                if k == "i":
                    v = rng.choice([0, 1, -1, 63, -64, 64, rng.randrange(-10**6, 10**6), rng.randrange(-2**40, 2**40)])
                    args_b.extend(b"\x00" + varint(zigzag(v)))
                    rendered.append(("lit", str(v)))
                elif k == "s":
                    w = rng.choice(WORDS)
                    i = sid(w)
                    args_b.extend(b"\x01" + varint(i))
                    rendered.append(("str", i, w))
                elif k == "f":
                    v = round(rng.uniform(-500, 5000), rng.choice([0, 1, 2, 3]))
                    args_b.extend(b"\x02" + struct.pack("<d", v))
                    rendered.append(("lit", f"{v:.3f}"))
                elif k == "b":
                    v = rng.random() < 0.5
                    args_b.extend(b"\x03" if v else b"\x04")
                    rendered.append(("lit", "true" if v else "false"))
                elif k == "x":
                    v = bytes(rng.randrange(256) for _ in range(rng.randint(0, 6)))
                    args_b.extend(b"\x05" + varint(len(v)) + v)
                    rendered.append(("lit", "0x" + v.hex()))
            pay.extend(b"\x02")
            flines.append((t, lvl, s_id, src, t_id, tmpl, rendered, len(pay)))
            pay.extend(b"\xff")  # the delta goes here (filled in below)
            pay.extend(bytes([lvl]) + varint(s_id) + varint(t_id) + bytes([len(kinds)]) + args_b)
        # fill deltas: rebuild payload replacing markers in order
        pay = _fill_deltas(pay, flines)
        while len(pay) % 4:
            pay.append(0)
        frame = bytearray(b"\xf5" + struct.pack("<H", len(pay)) + pay + struct.pack("<I", zlib.crc32(pay)))
        if damaged:
            pos = 3 + rng.randrange(len(pay) + 4)
            frame[pos] ^= 1 << rng.randrange(8)
        off = len(out)
        last = fi == n_frames - 1
        if last and truncate:
            cut = rng.randrange(1, len(frame))
            out.extend(frame[:cut])
            lines.append(f"!! frame @{off}: truncated")
            n_bad += 1
            break
        out.extend(frame)
        if damaged:
            lines.append(f"!! frame @{off}: checksum mismatch, {len(frame)} bytes skipped")
            n_bad += 1
            continue
        known.update(fdefs)
        for (tt, lvl, s_id, src, t_id, tmpl, rendered, _pos) in flines:
            def nm(i, text):
                return text if i in known else f"<#{i}>"
            parts = [nm(r[1], r[2]) if r[0] == "str" else r[1] for r in rendered]
            msg = nm(t_id, tmpl)
            if msg == tmpl:
                pieces = tmpl.split("{}")
                msg = pieces[0] + "".join(p + q for p, q in zip(parts, pieces[1:]))
            elif parts:
                msg += " " + " ".join(parts)
            lines.append(f"{fmt_ts(tt, tz)} {LEVELS[lvl]:<5} {nm(s_id, src)}: {msg}")
            n_events += 1
    lines.append(f"# {n_events} events, {n_bad} bad frames")
    return bytes(out), "\n".join(lines) + "\n"


def _fill_deltas(pay, flines):
    out = bytearray()
    i = 0
    k = 0
    prev = None
    # the first record is the sync: 0x03 varint(t0)
    assert pay[0] == 3
    j = 1
    while pay[j] & 0x80:
        j += 1
    j += 1
    t0 = _read_varint(pay, 1)[0]
    prev = t0
    out.extend(pay[:j])
    i = j
    for fl in flines:
        pos = fl[-1]  # position just after the 0x02 tag, marker at pos
        out.extend(pay[i:pos])
        assert pay[pos] == 0xFF
        out.extend(varint(fl[0] - prev))
        prev = fl[0]
        i = pos + 1
    out.extend(pay[i:])
    return out


def _read_varint(b, i):
    n = s = 0
    while True:
        c = b[i]
        i += 1
        n |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return n, i
