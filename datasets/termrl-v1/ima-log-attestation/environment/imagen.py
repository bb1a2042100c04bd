"""Generates a Linux IMA binary measurement log (ima-ng / ima-sig templates) with violations, the trusted
PCR 10 values of several TPM quotes, a digest allowlist, and optionally an intruder's edits.

build(seed, out, tamper) writes the case into out/ and returns the expected report."""
import hashlib
import json
import os
import random
import struct

ZERO, FF = bytes(20), b"\xff" * 20


def field(b):
    return struct.pack("<I", len(b)) + b


def template_data(template, algo, digest, path, sig=b""):
    d = field(algo.encode() + b":\0" + digest) + field(path.encode() + b"\0")
    if template == "ima-sig":
        d += field(sig)
    return d


def entry(pcr, tdig, template, data):
    return struct.pack("<I", pcr) + tdig + field(template.encode()) + field(data)


def build(seed, out, tamper=True):
    r = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    rb = lambda n: bytes(r.randrange(256) for _ in range(n))  # noqa: E731
    progs = ["/usr/lib/systemd/systemd", "/usr/bin/bash", "/usr/sbin/sshd", "/usr/bin/sudo", "/usr/bin/ls",
             "/usr/bin/cat", "/usr/bin/grep", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/sbin/cron",
             "/usr/bin/python3.11", "/usr/bin/curl", "/usr/sbin/nginx", "/usr/bin/tar", "/usr/bin/gzip",
             "/etc/ld.so.cache", "/usr/lib/x86_64-linux-gnu/libssl.so.3", "/usr/bin/find", "/usr/bin/awk"]
    good = {p: [hashlib.sha256(rb(64)).digest()] for p in progs}
    for p in r.sample(progs, 4):                  # updated packages: two allowed digests
        good[p].append(hashlib.sha256(rb(64)).digest())
    entries = []   # dicts: pcr, template, algo, digest, path, sig, status, violation, tdig_override
    entries.append({"pcr": 10, "template": "ima-ng", "algo": "sha256", "digest": hashlib.sha256(rb(32)).digest(),
                    "path": "boot_aggregate", "status": "boot"})

    def measure(path, digest=None, status=None, template=None):
        if digest is None:
            digest = r.choice(good[path])
            status = "ok"
        e = {"pcr": 10, "template": template or r.choice(["ima-ng", "ima-ng", "ima-sig"]), "algo": "sha256",
             "digest": digest, "path": path, "status": status}
        if e["template"] == "ima-sig":
            e["sig"] = b"" if r.random() < 0.5 else b"\x03\x02" + rb(r.randint(60, 120))
        entries.append(e)
        return e

    def violation(path):
        entries.append({"pcr": 10, "template": "ima-ng", "algo": "sha256", "digest": bytes(32), "path": path,
                        "status": "violation", "violation": True})

    for p in r.sample(progs, 8):
        measure(p)
    violation("/var/log/" + r.choice(["syslog", "auth.log", "kern.log"]))
    for p in r.sample(progs, 5):
        measure(p)
    q1 = len(entries)
    # later activity: an update, an unknown tool, a modified daemon
    for p in r.sample(progs, 4):
        measure(p)
    measure("/usr/sbin/sshd", hashlib.sha256(rb(40)).digest(), "modified")
    measure(f"/tmp/.{''.join(r.choice('abcdefghkmnprstuvwxz') for _ in range(5))}/kworkerd",
            hashlib.sha256(rb(40)).digest(), "unknown", "ima-sig")
    violation("/var/lib/" + r.choice(["dpkg/status", "apt/lists/lock"]))
    q2 = len(entries)
    for p in r.sample(progs, 3):
        measure(p)
    hidden = measure(f"/dev/shm/.{''.join(r.choice('abcdefghkmnprstuvwxz') for _ in range(4))}",
                     hashlib.sha256(rb(40)).digest(), "unknown", "ima-ng")
    for p in r.sample(progs, 3):
        measure(p)
    q3 = len(entries)
    for p in r.sample(progs, 4):
        measure(p)
    measure("/usr/bin/" + r.choice(["nc.openbsd", "socat"]), hashlib.sha256(rb(40)).digest(), "unknown")
    q4 = len(entries)
    for p in r.sample(progs, 2):                 # measured after the last quote
        measure(p)

    # honest template digests and PCR values at the quotes
    def tdata(e):
        return template_data(e["template"], e["algo"], e["digest"], e["path"], e.get("sig", b""))

    for e in entries:
        e["tdig"] = ZERO if e.get("violation") else hashlib.sha1(tdata(e)).digest()
    quotes = []
    pcr = ZERO
    for i, e in enumerate(entries):
        pcr = hashlib.sha1(pcr + (FF if e["tdig"] == ZERO else e["tdig"])).digest()
        if i + 1 in (q1, q2, q3, q4):
            quotes.append({"entries": i + 1, "pcr10": pcr.hex()})

    # --- the intruder's edits (after quote 2): hide the /dev/shm tool behind an allowed path with a fixed
    # template digest, and garble one later entry without fixing its template digest
    bad_template = []
    if tamper:
        k = entries.index(hidden)
        p = r.choice(progs)
        hidden.update(path=p, digest=good[p][0], status="ok")
        hidden["tdig"] = hashlib.sha1(tdata(hidden)).digest()
        j = r.randrange(q3, q4 - 1)
        victim = entries[j]
        p2 = r.choice([x for x in progs if x != victim["path"]])
        victim.update(path=p2, digest=good[p2][-1], status="ok")     # template digest left stale
        bad_template.append(j)
    blob = b"".join(entry(e["pcr"], e["tdig"], e["template"], tdata(e)) for e in entries)
    with open(os.path.join(out, "binary_runtime_measurements"), "wb") as f:
        f.write(blob)
    with open(os.path.join(out, "quotes.json"), "w") as f:
        json.dump(quotes, f, indent=1)
    with open(os.path.join(out, "allowlist.txt"), "w") as f:
        rows = [(d.hex(), p) for p, ds in good.items() for d in ds]
        r.shuffle(rows)
        f.write("# sha256 digests of approved files (sha256sum format)\n")
        f.writelines(f"{d}  {p}\n" for d, p in rows)

    # expected
    pcr, qres, trusted, ok_so_far = ZERO, [], 0, True
    qmap = {q["entries"]: q["pcr10"] for q in quotes}
    for i, e in enumerate(entries):
        pcr = hashlib.sha1(pcr + (FF if e["tdig"] == ZERO else e["tdig"])).digest()
        if i + 1 in qmap:
            m = pcr.hex() == qmap[i + 1]
            qres.append({"entries": i + 1, "match": m})
            ok_so_far = ok_so_far and m
            if ok_so_far:
                trusted = i + 1
    rows = []
    for i, e in enumerate(entries):
        rows.append({"index": i, "template": e["template"], "path": e["path"], "algo": e["algo"],
                     "digest": e["digest"].hex(), "status": e["status"], "trusted": i < trusted})
    return {"entries": rows, "template_hash_errors": bad_template, "quotes": qres, "trusted_entries": trusted}


if __name__ == "__main__":
    import sys
    print(json.dumps(build(int(sys.argv[1]), sys.argv[2], tamper=sys.argv[3:] != ["clean"]), indent=1))
