#!/bin/bash
set -euo pipefail
mkdir -p /app/collector
cat > /app/collector/collector.py <<'PY'
"""Replacement for the lost TLM/2 collector, reconstructed from the capture.

Frame: A5 5A | ver 02 | type | seq u16le | len u16le | payload | crc16 big-endian
crc = CRC-16/KERMIT (reflected poly 0x1021 -> 0x8408, init 0) over ver..payload.
Device -> collector: 01 HELLO (u32le device id, u8 len + firmware), 02 DATA (u32le unix time, u8 n,
n x (u8 channel, u8 kind, value)), 03 BYE. Kinds: 1 temp i16/100, 2 rh u16/10, 3 supply mV u16 -> V, 4 pulses u32.
Replies echo seq: 81 [00 + id u32le + 20], 82 [00 + n] or [02 + 00] for a repeat of the last acked DATA,
8F [01] on a bad crc, 83 [00 + total u16le] then close.
"""
import asyncio
import datetime
import os
import struct

PORT = int(os.environ.get("COLLECTOR_PORT", "7700"))
OUT = os.environ.get("COLLECTOR_OUT", "/var/lib/collector/readings.csv")
KINDS = {1: ("temp_c", "<h", lambda v: "%.2f" % (v / 100)), 2: ("rh_pct", "<H", lambda v: "%.1f" % (v / 10)),
         3: ("supply_v", "<H", lambda v: "%.3f" % (v / 1000)), 4: ("pulses", "<I", str)}


def crc16(data):
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def frame(ftype, seq, payload):
    body = bytes([2, ftype]) + struct.pack("<HH", seq, len(payload)) + payload
    return b"\xa5\x5a" + body + struct.pack(">H", crc16(body))


def write_lines(lines):
    os.makedirs(os.path.dirname(OUT) or ".", exist_ok=True)
    new = not os.path.exists(OUT) or os.path.getsize(OUT) == 0
    with open(OUT, "a", encoding="ascii") as f:
        if new:
            f.write("device,time,channel,kind,value\n")
        f.writelines(lines)
        f.flush()
        os.fsync(f.fileno())


def decode_data(device, payload):
    ts, n = struct.unpack("<IB", payload[:5])
    when = datetime.datetime.fromtimestamp(ts, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    pos, lines = 5, []
    for _ in range(n):
        channel, kind = payload[pos], payload[pos + 1]
        name, fmt, show = KINDS[kind]
        (value,) = struct.unpack(fmt, payload[pos + 2:pos + 2 + struct.calcsize(fmt)])
        pos += 2 + struct.calcsize(fmt)
        lines.append(f"{device},{when},{channel},{name},{show(value)}\n")
    return lines


async def session(reader, writer):
    device, total, last_seq = None, 0, None
    try:
        while True:
            while (await reader.readexactly(1)) != b"\xa5":
                pass
            if (await reader.readexactly(1)) != b"\x5a":
                continue
            head = await reader.readexactly(6)
            ftype, seq, n = head[1], *struct.unpack("<HH", head[2:6])
            payload = await reader.readexactly(n)
            (crc,) = struct.unpack(">H", await reader.readexactly(2))
            if crc != crc16(head + payload):
                writer.write(frame(0x8F, seq, b"\x01"))
            elif ftype == 1:
                (device,) = struct.unpack("<I", payload[:4])
                total, last_seq = 0, None
                writer.write(frame(0x81, seq, b"\x00" + struct.pack("<I", device) + b"\x20"))
            elif ftype == 2:
                if seq == last_seq:
                    writer.write(frame(0x82, seq, b"\x02\x00"))
                else:
                    lines = decode_data(device, payload)
                    write_lines(lines)
                    total += len(lines)
                    last_seq = seq
                    writer.write(frame(0x82, seq, bytes([0, len(lines)])))
            elif ftype == 3:
                writer.write(frame(0x83, seq, b"\x00" + struct.pack("<H", total)))
                await writer.drain()
                return
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, OSError):
        pass
    finally:
        writer.close()


async def main():
    server = await asyncio.start_server(session, "127.0.0.1", PORT)
    async with server:
        await server.serve_forever()


asyncio.run(main())
PY
cat > /app/collector/run.sh <<'SH'
#!/bin/bash
exec python3 /app/collector/collector.py
SH
chmod +x /app/collector/run.sh
