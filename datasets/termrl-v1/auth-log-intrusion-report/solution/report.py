import datetime
import json
import re

MONTHS = {m: i for i, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], 1)}
LINE = re.compile(r"^(\w{3}) +(\d+) (\d\d:\d\d:\d\d) (\S+) (\S+?)(?:\[\d+\])?: (.*)$")
FAIL = re.compile(r"^Failed password for (?:invalid user )?(\S+) from (\S+) port \d+")
REPEAT = re.compile(r"^message repeated (\d+) times: \[ (.*)\]$")
ACCEPT = re.compile(r"^Accepted (?:password|publickey) for (\S+) from (\S+) port \d+")
NEWUSER = re.compile(r"^new user: name=([^,]+),")

entries = []
for name in ["/var/log/auth.log.1", "/var/log/auth.log"]:
    for raw in open(name):
        m = LINE.match(raw.rstrip("\n"))
        if not m:
            continue
        mon, day, hms, host, prog, msg = m.groups()
        ts = datetime.datetime.strptime(f"2024-{MONTHS[mon]:02d}-{int(day):02d}T{hms}", "%Y-%m-%dT%H:%M:%S")
        entries.append((ts, prog, msg))

failed = {}
for ts, prog, msg in entries:
    if prog != "sshd":
        continue
    n = 1
    r = REPEAT.match(msg)
    if r:
        n, msg = int(r.group(1)), r.group(2)
    f = FAIL.match(msg)
    if f:
        failed[f.group(2)] = failed.get(f.group(2), 0) + n
brute = sorted((ip for ip, c in failed.items() if c >= 25), key=lambda ip: (-failed[ip], ip))
comp = []
for ts, prog, msg in entries:
    a = ACCEPT.match(msg) if prog == "sshd" else None
    if a and a.group(2) in brute:
        comp.append({"user": a.group(1), "ip": a.group(2), "time": ts.isoformat()})
first = comp[0]["time"] if comp else None
persist = [NEWUSER.match(msg).group(1) for ts, prog, msg in entries
           if prog == "useradd" and NEWUSER.match(msg) and first and ts.isoformat() > first]
json.dump({"failed_by_ip": dict(sorted(failed.items())), "bruteforce_ips": brute,
           "compromised": comp, "persistence_users": persist}, open("/app/incident.json", "w"), indent=2)
