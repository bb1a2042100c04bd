"""Writes a shadow file with password-aging fields and returns the expected chage-style status."""
import os
import random
from datetime import datetime, timezone


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    now = 1790000000 + r.randint(0, 9_000_000) + r.randint(0, 86399)
    D = now // 86400
    names = r.sample(["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory",
                      "oscar", "peggy", "trent", "victor", "walter", "backup", "deploy", "svc-ci", "nagios"], 18)
    lines, exp = ["root:$6$x$y:" + str(D - 40) + ":0:99999:7:::"], []
    rows = [("root", "$6$x$y", str(D - 40), "0", "99999", "7", "", "")]
    kinds = ["ok", "warning", "expired", "inactive", "must-change", "no-aging", "acct-expired", "min-block",
             "warn-edge", "exp-edge"]
    for i, n in enumerate(names):
        k = kinds[i % len(kinds)] if i < len(kinds) else r.choice(kinds)
        pw = r.choice(["$6$" + "s" * 8 + "$h", "$y$j9T$abc$def", "!$6$locked$h", "*", "!", "$5$r$h"])
        mx = r.choice([30, 60, 90, 180])
        warn = r.choice(["", "7", "14"])
        inact = r.choice(["", "5", "30"])
        mn = r.choice(["", "0", "1", "7"])
        expire = ""
        if k == "ok":
            last = D - r.randint(0, mx - 15)
            warn = "7"
        elif k == "warning":
            warn = "14"
            last = D - mx + r.randint(1, 13)
        elif k == "expired":
            inact = r.choice(["", "30"])
            last = D - mx - r.randint(0, 20)
        elif k == "inactive":
            inact = "5"
            last = D - mx - r.randint(5, 40)
        elif k == "must-change":
            last = 0
        elif k == "no-aging":
            last = D - r.randint(0, 3000)
            mx = ""
        elif k == "acct-expired":
            last = D - r.randint(0, 10)
            expire = str(D - r.randint(0, 30))
        elif k == "min-block":
            last = D - 1
            mn = "7"
        elif k == "warn-edge":
            warn = "7"
            last = D - mx + 7
        else:
            last = D - mx
            inact = ""
        if k != "acct-expired" and r.random() < 0.3:
            expire = str(D + r.randint(1, 400))
        last_s = "" if (k == "no-aging" and r.random() < 0.4) else str(last)
        rows.append((n, pw, last_s, mn, str(mx), warn, inact, expire))
    r.shuffle(rows)
    with open(os.path.join(out, "shadow"), "w") as f:
        for row in rows:
            f.write(":".join(row) + ":\n")
    for n, pw, last_s, mn, mx, warn, inact, expire in sorted(rows):
        acct = expire != "" and D >= int(expire)
        days_left, status = None, "ok"
        if last_s == "0":
            status = "must-change"
        elif last_s == "" or mx == "":
            status = "no-aging"
        else:
            X = int(last_s) + int(mx)
            if D >= X:
                status = "inactive" if inact != "" and D >= X + int(inact) else "expired"
            elif warn != "" and D >= X - int(warn):
                status, days_left = "warning", X - D
        can = True
        if last_s not in ("", "0") and mn not in ("", "0") and D < int(last_s) + int(mn):
            can = False
        exp.append({"user": n, "account_expired": acct, "password": status, "days_left": days_left,
                    "can_change": can, "locked": pw.startswith("!") or pw.startswith("*")})
    return datetime.fromtimestamp(now, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), exp
