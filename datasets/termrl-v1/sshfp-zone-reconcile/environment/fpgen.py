"""Host public keys and a DNS zone with SSHFP records (some stale, forged or missing); expected audit."""
import base64
import hashlib
import os
import random

ALGO = {"ssh-rsa": 1, "ssh-dss": 2, "ecdsa-sha2-nistp256": 3, "ssh-ed25519": 4}
FILES = {"ssh-rsa": "ssh_host_rsa_key.pub", "ssh-dss": "ssh_host_dsa_key.pub",
         "ecdsa-sha2-nistp256": "ssh_host_ecdsa_key.pub", "ssh-ed25519": "ssh_host_ed25519_key.pub"}


def s(b):
    return len(b).to_bytes(4, "big") + b


def blob(r, kind):
    if kind == "ssh-ed25519":
        return s(kind.encode()) + s(bytes(r.randrange(256) for _ in range(32)))
    if kind == "ecdsa-sha2-nistp256":
        return s(kind.encode()) + s(b"nistp256") + s(b"\x04" + bytes(r.randrange(256) for _ in range(64)))
    if kind == "ssh-dss":
        return s(kind.encode()) + b"".join(s(b"\x00" + bytes(r.randrange(256) for _ in range(n))) for n in (128, 20, 128, 128))
    return s(kind.encode()) + s(b"\x01\x00\x01") + s(b"\x00" + bytes(r.randrange(256) for _ in range(256)))


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(os.path.join(out, "hosts"), exist_ok=True)
    zone = r.choice(["corp.example.", "int.example.net."])
    hosts = [r.choice(["web", "db", "mail", "vpn", "git", "ci"]) + str(i) for i in range(1, 7)]
    lines = [f"$ORIGIN {zone}", "$TTL 3600",
             f"@ IN SOA ns1.{zone} hostmaster.{zone} ( 2026120501 7200 3600 1209600 3600 )",
             f"@ IN NS ns1.{zone}"]
    exp = []
    for h in hosts:
        kinds = r.sample(list(ALGO), r.randint(2, 4))
        d = os.path.join(out, "hosts", h)
        os.makedirs(d)
        keys = {}
        for k in kinds:
            b = blob(r, k)
            keys[k] = b
            with open(os.path.join(d, FILES[k]), "w") as f:
                f.write(f"{k} {base64.b64encode(b).decode()} root@{h}\n")
        owner = r.choice([h, f"{h}.{zone}"])
        lines.append(f"{owner} IN A 10.0.0.{r.randint(2, 250)}")
        status = {}
        for k in kinds:
            fate = r.choice(["ok", "ok", "ok", "mismatch", "missing", "sha1only"])
            sha256 = hashlib.sha256(keys[k]).hexdigest()
            sha1 = hashlib.sha1(keys[k]).hexdigest()
            ttl = r.choice(["", "300 "])
            if fate == "ok":
                lines.append(f"{owner} {ttl}IN SSHFP {ALGO[k]} 2 {sha256.upper() if r.random() < 0.5 else sha256}")
                if r.random() < 0.5:
                    lines.append(f"{owner} {ttl}IN SSHFP {ALGO[k]} 1 {sha1}")
                status[k] = "ok"
            elif fate == "mismatch":
                lines.append(f"{owner} IN SSHFP {ALGO[k]} 2 {hashlib.sha256(blob(r, k)).hexdigest()}")
                status[k] = "mismatch"
            elif fate == "sha1only":
                lines.append(f"{owner} IN SSHFP {ALGO[k]} 1 {sha1}")
                status[k] = "missing"
            else:
                status[k] = "missing"
        stale = []
        for k in ALGO:
            if k not in kinds and r.random() < 0.3:
                lines.append(f"{owner} IN SSHFP {ALGO[k]} 2 {hashlib.sha256(blob(r, k)).hexdigest()}")
                stale.append(ALGO[k])
        exp.append({"host": h, "keys": [{"type": k, "status": status[k]} for k in sorted(kinds)],
                    "stale_algorithms": sorted(stale)})
    # a record for another zone's host and one for an unknown host
    lines.append(f"ghost.{zone} IN SSHFP 4 2 {hashlib.sha256(b'x').hexdigest()}")
    r.shuffle(lines[4:])
    with open(os.path.join(out, "zone.db"), "w") as f:
        f.write("\n".join(lines) + "\n")
    exp.sort(key=lambda e: e["host"])
    return zone, exp
