import hashlib
import os

raw = open("/app/backup/backup.tar", "rb").read()
want = {}
for line in open("/app/backup/manifest.sha256"):
    h, name = line.rstrip("\n").split("  ", 1)
    want[h] = name
found = {}
# Treat every 512-byte block as a candidate header; trust only its size field and verify by hash.
for off in range(0, len(raw) - 512 + 1, 512):
    field = raw[off + 124:off + 136].rstrip(b"\x00 ").lstrip(b" ")
    try:
        size = int(field, 8)
    except ValueError:
        continue
    if size <= 0 or off + 512 + size > len(raw):
        continue
    data = raw[off + 512:off + 512 + size]
    h = hashlib.sha256(data).hexdigest()
    if h in want:
        found[want[h]] = data
for name, data in found.items():
    p = os.path.join("/app/recovered", name)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "wb").write(data)
missing = sorted((n for n in want.values() if n not in found), key=lambda s: s.encode())
open("/app/unrecoverable.txt", "w").write("".join(n + "\n" for n in missing))
