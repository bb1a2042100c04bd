import hashlib
import sqlite3

PEPPER = b"kiosk-v2"
db = sqlite3.connect("/app/operators.db")
out = []
for _id, login, salt, h, status in db.execute("SELECT id, login, salt, pin_hash, status FROM operators ORDER BY id"):
    if status != "active":
        continue
    prefix = bytes.fromhex(salt) + login.lower().encode() + b"|"
    for pin in range(1000000):
        pt = b"%06d" % pin
        if hashlib.sha256(hashlib.md5(prefix + pt + PEPPER).digest()).hexdigest() == h:
            out.append(f"{login}:{pt.decode()}")
            break
open("/app/cracked.txt", "w").write("".join(l + "\n" for l in out))
