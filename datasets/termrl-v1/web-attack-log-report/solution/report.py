import json
import re
import sys
import urllib.parse

LINE = re.compile(r'^(\S+) \S+ \S+ \[[^\]]+\] "(\S+) (\S+) [^"]*" (\d{3}) \S+ "[^"]*" "([^"]*)"$')
SQLI = ["union select", "' or '", "sleep(", "information_schema", "benchmark("]
SCAN = ["sqlmap", "nikto", "nmap", "masscan"]
ONCE = "--decode-once" in sys.argv


def decode(t):
    d = t
    while True:
        n = urllib.parse.unquote(d)
        if n == d or ONCE:
            d = n
            break
        d = n
    return re.sub(r"\s+", " ", d.replace("+", " ").lower())


att = {}
total = 0
for line in open("/app/logs/access.log", encoding="utf-8"):
    m = LINE.match(line.rstrip("\n"))
    if not m:
        continue
    ip, method, target, status, ua = m.groups()
    d = decode(target)
    sqli = any(p in d for p in SQLI)
    trav = "../" in d or "..\\" in d
    scan = any(s in ua.lower() for s in SCAN)
    if not (sqli or trav or scan):
        continue
    a = att.setdefault(ip, {"ip": ip, "sqli": 0, "traversal": 0, "scanner": False, "successful_attacks": []})
    a["sqli"] += sqli
    a["traversal"] += trav
    a["scanner"] |= scan
    if sqli or trav:
        total += 1
        if status == "200":
            a["successful_attacks"].append(target)
json.dump({"attackers": [att[k] for k in sorted(att)], "total_attack_requests": total},
          open("/app/attack_report.json", "w"), indent=2)
