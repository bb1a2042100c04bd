#!/bin/bash
# Reference investigation of /srv/rootfs. Each finding is derived from the image, not assumed:
# the decoded forms of the C2 address are searched for, the loader/service/cron chains are followed,
# SSH keys and accounts are diffed against the inventory and package files against dpkg's md5sums.
set -euo pipefail
R=/srv/rootfs
cd /app
python3 - <<'PY'
import base64, hashlib, json, os, re

R = "/srv/rootfs"
C2 = "198.51.100.23"
octs = [int(x) for x in C2.split(".")]
forms = [C2, C2[::-1], "".join("\\x%02x" % ord(c) for c in C2), hex(sum(o << (8 * (3 - i)) for i, o in enumerate(octs))),
         str(sum(o << (8 * (3 - i)) for i, o in enumerate(octs)))]
ip_re = re.compile(r"(?<![\d.])" + re.escape(C2) + r"(?![\d])")

def host(p): return "/" + os.path.relpath(p, R)
def real(h): return os.path.join(R, h.lstrip("/"))

def text(p):
    try:
        return open(p, "rb").read().decode("latin-1")
    except OSError:
        return ""

def contacts_c2(data):
    """Plain, reversed, hex-escaped, integer, base64 and variable-split forms of the address."""
    if ip_re.search(data) or any(f in data.lower() for f in forms[1:]):
        return True
    for b in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", data):
        try:
            dec = base64.b64decode(b + "=" * (-len(b) % 4)).decode("latin-1")
        except Exception:
            continue
        if ip_re.search(dec):
            return True
    # a=198.51; b=100.23 ... $a.$b
    vals = dict(re.findall(r"\b(\w+)=([\d.]+)\b", data))
    for m in re.finditer(r"\$\{?(\w+)\}?\.\$\{?(\w+)\}?", data):
        if vals.get(m.group(1), "") + "." + vals.get(m.group(2), "") == C2:
            return True
    return False

created, modified = set(), {}   # modified: host path -> list of bad line texts

def bad_lines(p):
    return [l for l in open(p, encoding="latin-1").read().splitlines(True) if contacts_c2(l)]

# 1. every file whose content reaches the C2 address
hits = []
for d, dirs, files in os.walk(R):
    for n in files:
        p = os.path.join(d, n)
        if not os.path.islink(p) and contacts_c2(text(p)):
            hits.append(p)

# 2. package files: compare with dpkg md5sums
pkg_files = {}
info = os.path.join(R, "var/lib/dpkg/info")
for f in os.listdir(info):
    if f.endswith(".md5sums"):
        for line in open(os.path.join(info, f)):
            s, rel = line.split(None, 1)
            pkg_files["/" + rel.strip()] = s
for h, s in pkg_files.items():
    p = real(h)
    if os.path.exists(p) and hashlib.md5(open(p, "rb").read()).hexdigest() != s:
        lines = bad_lines(p)
        assert lines, h
        modified[h] = lines

for p in hits:
    h = host(p)
    if h in modified:
        continue
    lines = bad_lines(p)
    content = open(p, encoding="latin-1").read()
    rest = [l for l in content.splitlines() if l not in [x.rstrip("\n") for x in lines] and l.strip() and not l.startswith("#")]
    if lines and rest and h not in pkg_files and not content.startswith("#!") and "\x00" not in content:
        modified[h] = lines
    else:
        created.add(h)

# 3. follow what starts or loads those payloads: any file naming a created payload path
def names(data, h): return re.search(r"(?<![\w./-])" + re.escape(h) + r"(?![\w.-])", data)
changed = True
while changed:
    changed = False
    for d, dirs, files in os.walk(R):
        for n in files + dirs:
            p = os.path.join(d, n)
            h = host(p)
            if h in created or h in modified:
                continue
            if os.path.islink(p):
                if host(os.path.join(R, os.readlink(p).lstrip("/"))) in created:
                    created.add(h); changed = True
                continue
            if not os.path.isfile(p):
                continue
            data = text(p)
            refs = [c for c in created if names(data, c)]
            if not refs:
                continue
            lines = [l for l in data.splitlines(True) if any(names(l, c) for c in refs)]
            other = [l for l in data.splitlines() if l.strip() and l + "\n" not in lines and l not in lines
                     and not l.startswith("#")]
            if h.startswith("/etc/systemd/") and h.endswith(".service"):
                created.add(h)                 # a unit whose service is the payload
            elif other:
                modified[h] = lines
            else:
                created.add(h)
            changed = True

# 4. accounts not in the inventory (passwd and shadow)
inv = {}
for line in open("/srv/inventory/accounts.txt"):
    if line.strip() and not line.startswith("#"):
        n, uid = line.split()
        inv[n] = uid
pw = open(real("/etc/passwd")).read().splitlines(True)
rogue = [l for l in pw if l.split(":")[0] not in inv or l.split(":")[2] != inv[l.split(":")[0]]]
if rogue:
    modified["/etc/passwd"] = rogue
    users = {l.split(":")[0] for l in rogue}
    sh = [l for l in open(real("/etc/shadow")).read().splitlines(True) if l.split(":")[0] in users]
    if sh:
        modified["/etc/shadow"] = sh

# 5. SSH keys not in the inventory
def blobs(path):
    out = set()
    for line in open(path):
        m = re.search(r"(ssh-[\w-]+|ecdsa-[\w-]+)\s+([A-Za-z0-9+/=]+)", line)
        if m:
            out.add(m.groups())
    return out
for d, dirs, files in os.walk(R):
    for n in files:
        if n in ("authorized_keys", "authorized_keys2"):
            p = os.path.join(d, n)
            user = [l.split(":")[0] for l in pw if l.split(":")[5].rstrip("/") == host(os.path.dirname(os.path.dirname(p)))]
            inv_file = f"/srv/inventory/ssh-keys/{user[0]}.pub" if user else None
            ok = blobs(inv_file) if inv_file and os.path.exists(inv_file) else set()
            bad = []
            for line in open(p).read().splitlines(True):
                m = re.search(r"(ssh-[\w-]+|ecdsa-[\w-]+)\s+([A-Za-z0-9+/=]+)", line)
                if m and m.groups() not in ok:
                    bad.append(line)
            if bad and len(bad) == len([l for l in open(p) if l.strip()]):
                created.add(host(p))
            elif bad:
                modified[host(p)] = bad

report = sorted(created | set(modified))
json.dump(report, open("/app/report.json", "w"), indent=1)
print("\n".join(report))

for h in created:
    os.unlink(real(h))
for h, lines in modified.items():
    p = real(h)
    st = os.stat(p)
    keep = [l for l in open(p, encoding="latin-1").read().splitlines(True) if l not in lines]
    with open(p, "w", encoding="latin-1") as f:
        f.write("".join(keep))
    os.chmod(p, st.st_mode & 0o7777)
PY
