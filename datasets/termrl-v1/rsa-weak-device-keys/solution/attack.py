import base64
import math
import os
import subprocess
import sys

only_gcd = "--gcd-only" in sys.argv
mods = {}
for f in sorted(os.listdir("/app/keys")):
    name = f[: -len(".pub.pem")]
    out = subprocess.run(["openssl", "rsa", "-pubin", "-in", f"/app/keys/{f}", "-noout", "-modulus"],
                         capture_output=True, text=True, check=True).stdout
    mods[name] = int(out.strip().split("=", 1)[1], 16)
factors = {}
names = list(mods)
for i, a in enumerate(names):
    for b in names[i + 1:]:
        g = math.gcd(mods[a], mods[b])
        if g > 1:
            factors[a] = (g, mods[a] // g)
            factors[b] = (g, mods[b] // g)
if not only_gcd:
    for name, n in mods.items():
        if name in factors:
            continue
        a = math.isqrt(n)
        if a * a < n:
            a += 1
        for _ in range(100000):
            b2 = a * a - n
            b = math.isqrt(b2)
            if b * b == b2:
                factors[name] = (a - b, a + b)
                break
            a += 1
open("/app/weak_keys.txt", "w").write("".join(n + "\n" for n in sorted(factors)))
os.makedirs("/app/recovered", exist_ok=True)
for f in os.listdir("/app/inbox"):
    name = f.split(".msg.b64")[0]
    if name not in factors:
        continue
    p, q = factors[name]
    n = mods[name]
    d = pow(65537, -1, (p - 1) * (q - 1))
    c = int.from_bytes(base64.b64decode(open(f"/app/inbox/{f}").read()), "big")
    k = (n.bit_length() + 7) // 8
    em = pow(c, d, n).to_bytes(k, "big")
    assert em[:2] == b"\x00\x02"
    msg = em[em.index(b"\x00", 2) + 1:]
    open(f"/app/recovered/{name}.txt", "wb").write(msg)
