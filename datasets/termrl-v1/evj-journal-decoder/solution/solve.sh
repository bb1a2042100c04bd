#!/bin/bash
# Reference: a decoder for the EVJ2 journal format as worked out from the two samples.
set -euo pipefail
cat > /app/evjcat <<'PY'
#!/usr/bin/env python3
"""evjcat FILE: print an EVJ2 event journal the way the vendor viewer did."""
import struct
import sys
import zlib
from datetime import datetime, timedelta, timezone

EPOCH = datetime(2020, 1, 1, tzinfo=timezone.utc)
LEVELS = ["DEBUG", "INFO", "WARN", "ERROR", "FATAL"]


def varint(b, i):
    n = s = 0
    while True:
        c = b[i]
        i += 1
        n |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return n, i


def main(path):
    data = open(path, "rb").read()
    assert data[:4] == b"EVJ2", "not an EVJ2 journal"
    tz, nlen = struct.unpack_from("<hB", data, 4)
    name = data[7:7 + nlen].decode()
    out = [f"# device: {name}",
           f"# clock: UTC{'+' if tz >= 0 else '-'}{abs(tz) // 60:02d}:{abs(tz) % 60:02d}"]
    strings = {}
    i = 7 + nlen
    n_ev = n_bad = 0

    def s(k):
        return strings.get(k, f"<#{k}>")

    while i < len(data):
        off = i
        if len(data) - i < 3:
            out.append(f"!! frame @{off}: truncated"); n_bad += 1; break
        (ln,) = struct.unpack_from("<H", data, i + 1)
        if len(data) - i < 3 + ln + 4:
            out.append(f"!! frame @{off}: truncated"); n_bad += 1; break
        pay = data[i + 3:i + 3 + ln]
        (crc,) = struct.unpack_from("<I", data, i + 3 + ln)
        i += 3 + ln + 4
        if zlib.crc32(pay) != crc:
            out.append(f"!! frame @{off}: checksum mismatch, {ln + 7} bytes skipped"); n_bad += 1
            continue
        j, t = 0, 0
        while j < len(pay):
            tag = pay[j]; j += 1
            if tag == 0:
                continue
            if tag == 1:
                k, j = varint(pay, j); n, j = varint(pay, j)
                strings[k] = pay[j:j + n].decode(); j += n
            elif tag == 3:
                t, j = varint(pay, j)
            elif tag == 2:
                d, j = varint(pay, j); t += d
                lvl = pay[j]; j += 1
                src, j = varint(pay, j); tid, j = varint(pay, j)
                nargs = pay[j]; j += 1
                args = []
                for _ in range(nargs):
                    ty = pay[j]; j += 1
                    if ty == 0:
                        z, j = varint(pay, j); args.append(str((z >> 1) ^ -(z & 1)))
                    elif ty == 1:
                        k, j = varint(pay, j); args.append(s(k))
                    elif ty == 2:
                        args.append(f"{struct.unpack_from('<d', pay, j)[0]:.3f}"); j += 8
                    elif ty == 3:
                        args.append("true")
                    elif ty == 4:
                        args.append("false")
                    elif ty == 5:
                        n, j = varint(pay, j); args.append("0x" + pay[j:j + n].hex()); j += n
                    else:
                        raise ValueError(f"unknown argument type {ty}")
                if tid in strings:
                    pieces = strings[tid].split("{}")
                    msg = pieces[0] + "".join(a + p for a, p in zip(args, pieces[1:]))
                else:
                    msg = " ".join([f"<#{tid}>"] + args)
                when = EPOCH + timedelta(milliseconds=t, minutes=tz)
                out.append(f"{when:%Y-%m-%d %H:%M:%S}.{t % 1000:03d} {LEVELS[lvl]:<5} {s(src)}: {msg}")
                n_ev += 1
            else:
                raise ValueError(f"unknown record tag {tag}")
    out.append(f"# {n_ev} events, {n_bad} bad frames")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
PY
chmod +x /app/evjcat
