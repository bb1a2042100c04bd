#!/bin/bash
# Wrong: adds up only the delays of ttyin events when computing offsets.
set -e
cat > /app/sudokeys <<'PY'
#!/usr/bin/env python3
import gzip
import json
import os
import sys
from datetime import datetime, timezone

SEQS = {b"\x1b[D": "left", b"\x1b[C": "right", b"\x1b[A": "up", b"\x1b[B": "down", b"\x1b[H": "home",
        b"\x1b[F": "end", b"\x1b[3~": "del"}


def stream(d, name):
    p = os.path.join(d, name)
    if not os.path.exists(p):
        return b""
    data = open(p, "rb").read()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def replay(data, times):
    hist, cmds = [], []
    line, cur, hpos = [], 0, 0
    i = 0
    while i < len(data):
        b = data[i]
        if b == 0x1B:
            act = next((a for s, a in SEQS.items() if data.startswith(s, i)), None)
            if act is None:
                i += 1
                continue
            i += next(len(s) for s, a in SEQS.items() if a == act)
            if act == "left":
                cur = max(cur - 1, 0)
            elif act == "right":
                cur = min(cur + 1, len(line))
            elif act == "home":
                cur = 0
            elif act == "end":
                cur = len(line)
            elif act == "del":
                if cur < len(line):
                    line.pop(cur)
            elif act == "up" and hpos > 0:
                hpos -= 1
                line = list(hist[hpos])
                cur = len(line)
            elif act == "down" and hpos < len(hist):
                hpos += 1
                line = list(hist[hpos]) if hpos < len(hist) else []
                cur = len(line)
            continue
        if b >= 0x80:
            n = 2 if b >> 5 == 6 else 3 if b >> 4 == 14 else 4 if b >> 3 == 30 else 1
            line.insert(cur, data[i:i + n].decode("utf-8", "replace"))
            cur += 1
            i += n
            continue
        i += 1
        if b in (0x0D, 0x0A):
            text = "".join(line)
            if text.strip():
                hist.append(text)
                cmds.append({"offset": round(times[i - 1], 3), "line": text})
            line, cur, hpos = [], 0, len(hist)
        elif b in (0x7F, 0x08):
            if cur:
                line.pop(cur - 1)
                cur -= 1
        elif b == 0x15:
            line, cur = line[cur:], 0
        elif b == 0x17:
            j = cur
            while j and line[j - 1] == " ":
                j -= 1
            while j and line[j - 1] != " ":
                j -= 1
            line, cur = line[:j] + line[cur:], j
        elif b == 0x01:
            cur = 0
        elif b == 0x05:
            cur = len(line)
        elif b == 0x03:
            line, cur, hpos = [], 0, len(hist)
        elif b == 0x04:
            if not line:
                return cmds, True
        elif b >= 0x20:
            line.insert(cur, chr(b))
            cur += 1
    return cmds, False


def session(root, d):
    meta = {}
    if os.path.exists(os.path.join(d, "log.json")):
        j = json.load(open(os.path.join(d, "log.json")))
        meta = {"start": int(j["timestamp"]["seconds"]), "user": j.get("submituser"), "runas": j.get("runuser"),
                "tty": j.get("ttyname")}
    else:
        f = open(os.path.join(d, "log")).readline().rstrip("\n").split(":")
        meta = {"start": int(f[0]), "user": f[1], "runas": f[2], "tty": f[4]}
    ttyin = stream(d, "ttyin")
    times, acc = [], 0.0
    for ev in open(os.path.join(d, "timing")):
        p = ev.split()
        if len(p) < 2:
            continue
        if p[0] == "3":
            acc += float(p[1])
            times += [acc] * int(p[2])
    ttyin = ttyin[:len(times)]
    cmds, eof = replay(ttyin, times)
    return {"session": os.path.relpath(d, root).replace(os.sep, "/"), "user": meta["user"], "runas": meta["runas"],
            "tty": meta["tty"], "start": datetime.fromtimestamp(meta["start"], timezone.utc).strftime(
                "%Y-%m-%dT%H:%M:%SZ"), "ended_by_eof": eof, "commands": cmds}


def main(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        if "timing" in files:
            out.append(session(root, d))
    out.sort(key=lambda s: (s["start"], s["session"]))
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    print()


main(sys.argv[1])
PY
chmod +x /app/sudokeys
