"""Example passwd file and maildrops (the tests bring their own)."""
import hashlib
import os

os.makedirs("/etc/pop3", exist_ok=True)
lines = []
for user, pw in (("alice", "wonderland"), ("bob", "builder")):
    salt = os.urandom(8).hex()
    lines.append(f"{user}:{salt}:{hashlib.sha256(bytes.fromhex(salt) + pw.encode()).hexdigest()}")
    for d in ("new", "cur", "tmp"):
        os.makedirs(f"/var/mail/{user}/{d}", exist_ok=True)
with open("/etc/pop3/passwd", "w") as f:
    f.write("# user:salt-hex:sha256-hex of (salt bytes + password)\n" + "\n".join(lines) + "\n")
with open("/var/mail/alice/new/1700000000.M1P1.mx", "w") as f:
    f.write("From: bob@example.test\nSubject: hello\n\nHi Alice,\n.see you\nBob\n")
with open("/var/mail/alice/cur/1690000000.M7P3.mx:2,S", "w") as f:
    f.write("From: carol@example.test\r\nSubject: old\r\n\r\nan older message\r\n")
