"""Writer for the .spx spectrum format and the vendor's CSV export (test-side only)."""
import datetime
import random
import struct
import zlib

EPOCH = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)


def zigzag_varints(values):
    out, prev = bytearray(), 0
    for v in values:
        d = v - prev
        prev = v
        z = (d << 1) if d >= 0 else ((-d << 1) - 1)
        while True:
            b = z & 0x7F
            z >>= 7
            if z:
                out.append(b | 0x80)
            else:
                out.append(b)
                break
    return bytes(out)


def make(rng, version, dark, pad, n=None):
    n = n or rng.randint(16, 900)
    name = rng.choice(["QE65", "USB4000", "Flame-S", "HR2000+", "MayaPro", "NIRQuest", "lab-B spec"]) + \
        rng.choice(["", f" #{rng.randint(1, 99)}", "-" + "".join(rng.choice("ABCDEFGH") for _ in range(rng.randint(1, 6)))])
    ts = rng.randint(0, 900_000_000)
    ms = rng.choice([8.0, 10.0, 25.0, 50.0, 100.0, 150.0, 250.0, 320.0, 1000.0, 3.5, 12.75])
    c0, c1, c2 = rng.uniform(180, 900), rng.uniform(0.05, 1.2), rng.uniform(-4e-5, 1e-5)
    temp = round(rng.uniform(-25, 30), 2)
    base = rng.randint(200, 3000)
    peaks = [(rng.uniform(0, n), rng.uniform(2, 40), rng.randint(500, 60000)) for _ in range(rng.randint(1, 6))]
    counts = []
    for i in range(n):
        v = base + sum(h * 2.718281828 ** (-((i - c) / w) ** 2) for c, w, h in peaks) + rng.gauss(0, 30)
        counts.append(max(0, min(65535, int(v))))
    darkv = [max(0, min(65535, int(base * 0.9 + rng.gauss(0, 40)))) for _ in range(n)] if dark else None
    fields = struct.pack("<I", ts) + bytes([len(name)]) + name.encode() + struct.pack("<fH3d", ms, n, c0, c1, c2)
    if version == 2:
        fields += struct.pack("<f", temp)
    fields += b"\0" * pad
    body = b"SPX\x1a" + bytes([version, 1 if dark else 0]) + struct.pack("<H", len(fields)) + fields
    body += zigzag_varints(counts)
    if dark:
        body += zigzag_varints(darkv)
    blob = body + struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)
    ms32 = struct.unpack("<f", struct.pack("<f", ms))[0]
    t32 = struct.unpack("<f", struct.pack("<f", temp))[0]
    info = {"name": name, "ts": ts, "ms": ms32, "coef": (c0, c1, c2), "temp": t32 if version == 2 else None,
            "counts": [c - d for c, d in zip(counts, darkv)] if dark else counts}
    return blob, info


def csv_text(info):
    when = (EPOCH + datetime.timedelta(seconds=info["ts"])).strftime("%Y-%m-%dT%H:%M:%SZ")
    lines = [f"# instrument: {info['name']}", f"# acquired: {when}", f"# integration_ms: {info['ms']:.3f}"]
    if info["temp"] is not None:
        lines.append(f"# detector_temp_c: {info['temp']:.2f}")
    lines.append("wavelength_nm,counts,rate_cps")
    c0, c1, c2 = info["coef"]
    for i, c in enumerate(info["counts"]):
        wl = c0 + c1 * i + c2 * i * i
        lines.append(f"{wl:.4f},{c},{c / (info['ms'] / 1000.0):.2f}")
    return "\n".join(lines) + "\n"
