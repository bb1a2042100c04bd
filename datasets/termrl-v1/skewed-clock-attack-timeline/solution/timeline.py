#!/usr/bin/env python3
"""Merge a firewall log and host logs with skewed clocks into one true-time timeline for one address."""
import datetime as dt
import json
import os
import re
import sys

MON = {m: i + 1 for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())}


def epoch(y, mo, d, h, mi, s):
    return int(dt.datetime(y, mo, d, h, mi, s, tzinfo=dt.timezone.utc).timestamp())


def main(case, addr):
    fw = [json.loads(l) for l in open(os.path.join(case, "fw.jsonl")) if l.strip()]
    for r in fw:
        t = dt.datetime.strptime(r["t"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.timezone.utc)
        r["sec"] = int(t.timestamp())
    year = dt.datetime.fromtimestamp(fw[0]["sec"], dt.timezone.utc).year
    hosts = json.load(open(os.path.join(case, "hosts.json")))
    mention = re.compile(r"(?<![\d.])" + re.escape(addr) + r"(?![\d.])")
    events, header = [], []
    for r in fw:
        if r["src"] == addr:
            events.append((r["sec"], 0, len(events), f"fw {r['action']} {r['src']}:{r['sport']} -> {r['dst']}:{r['dport']}"))
    for rank, (ip, h) in enumerate(hosts.items(), 1):
        conns = {(r["src"], r["sport"]): r["sec"] for r in fw if r["dst"] == ip}
        parsed = []
        for line in open(os.path.join(case, h["log"])):
            line = line.rstrip("\n")
            if not line:
                continue
            if h["kind"] == "syslog":
                m = re.match(r"(\w{3}) +(\d+) (\d\d):(\d\d):(\d\d) (\S+) (.*)$", line)
                clock = epoch(year, MON[m.group(1)], int(m.group(2)), *map(int, m.group(3, 4, 5)))
                text = m.group(7)
                k = re.search(r"(\S+) port (\d+)", text)
                key = (k.group(1), int(k.group(2))) if k else None
            else:
                m = re.match(r"(\S+):(\d+) \S+ \S+ \[(\d\d)/(\w{3})/(\d{4}):(\d\d):(\d\d):(\d\d) ([+-])(\d\d)(\d\d)\]", line)
                local = epoch(int(m.group(5)), MON[m.group(4)], int(m.group(3)), *map(int, m.group(6, 7, 8)))
                off = (int(m.group(10)) * 3600 + int(m.group(11)) * 60) * (1 if m.group(9) == "+" else -1)
                clock = local - off
                text = line
                key = (m.group(1), int(m.group(2)))
            parsed.append((clock, text, key))
        diffs = [c - conns[k] for c, _, k in parsed if k in conns]
        d = min(diffs)
        header.append(f"# offset {h['name']} {d}")
        for n, (clock, text, _) in enumerate(parsed):
            if mention.search(text):
                events.append((clock - d, rank, n, f"{h['name']} {text}"))
    events.sort(key=lambda e: e[:3])
    out = header + [dt.datetime.fromtimestamp(e[0], dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") + " " + e[3] for e in events]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: timeline.py CASEDIR ADDRESS")
    main(sys.argv[1], sys.argv[2])
