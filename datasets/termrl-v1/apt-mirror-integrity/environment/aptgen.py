"""Builds a Debian-style mirror snapshot (dists/*/Release or clearsigned InRelease, Packages in plain/gz/xz,
pool/ .debs as opaque blobs), then poisons it. Returns (audit instant, expected findings)."""
import gzip
import hashlib
import lzma
import os
import random
import shutil
from datetime import datetime, timezone

DAY = 86400


def rfc2822(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%a, %d %b %Y %H:%M:%S UTC")


def build(seed, root):
    r = random.Random(seed)
    root = os.path.abspath(root)
    if os.path.exists(root):
        shutil.rmtree(root)
    now = 1790000000 + r.randint(0, 9_000_000)
    word = lambda: "".join(r.choice("abcdefghkmnprstuvwxz") for _ in range(r.randint(3, 8)))  # noqa: E731
    findings = set()

    def w(rel, data):
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)

    pool = {}    # rel path -> bytes
    suites = [("stable", "InRelease", now - 2 * DAY, now + 5 * DAY),
              ("stable-security", "Release", now - 1 * DAY, now + 6 * DAY),
              ("oldstable", "Release", now - 40 * DAY, now - 20 * DAY)]      # expired
    plans = {}
    for suite, kind, date, valid in suites:
        files = {}
        for comp in ("main", "contrib"):
            for arch in ("amd64", "arm64"):
                paras = []
                for _ in range(r.randint(3, 6)):
                    name = word()
                    ver = f"{r.randint(0, 9)}.{r.randint(0, 20)}-{r.randint(1, 5)}"
                    fn = f"pool/{comp}/{name[0]}/{name}/{name}_{ver}_{arch}.deb"
                    data = b"!<arch>\n" + bytes(r.randrange(256) for _ in range(r.randint(300, 2000)))
                    pool[fn] = data
                    paras.append(f"Package: {name}\nVersion: {ver}\nArchitecture: {arch}\n"
                                 f"Maintainer: Someone <someone@example.org>\nFilename: {fn}\nSize: {len(data)}\n"
                                 f"SHA256: {hashlib.sha256(data).hexdigest()}\nDescription: {name} tool\n")
                text = "\n".join(paras).encode()
                base = f"{comp}/binary-{arch}/Packages"
                variants = {base: text, base + ".gz": gzip.compress(text, mtime=0), base + ".xz": lzma.compress(text)}
                present = r.choice([[base + ".xz"], [base + ".gz", base + ".xz"], [base, base + ".gz", base + ".xz"]])
                for v, d in variants.items():
                    files[v] = d
                plans[(suite, comp, arch)] = {"variants": variants, "present": present, "text": text}
        plans[suite] = {"files": files, "kind": kind, "date": date, "valid": valid}

    # ---- poisoning (before Release is written the hashes are honest; changes below happen after)
    def release_text(suite):
        p = plans[suite]
        lines = [f"Origin: Debian", f"Label: Debian", f"Suite: {suite}", f"Codename: {word()}",
                 f"Date: {rfc2822(p['date'])}", f"Valid-Until: {rfc2822(p['valid'])}",
                 "Architectures: amd64 arm64", "Components: main contrib", "Acquire-By-Hash: yes",
                 "Description: Debian mirror", "MD5Sum:"]
        for f, d in sorted(p["files"].items()):
            lines.append(f" {hashlib.md5(d).hexdigest()} {len(d):>8} {f}")
        lines.append("SHA256:")
        for f, d in sorted(p["files"].items()):
            lines.append(f" {hashlib.sha256(d).hexdigest()} {len(d):>8} {f}")
        return "\n".join(lines) + "\n"

    for suite, kind, date, valid in suites:
        text = release_text(suite)
        if kind == "InRelease":
            body = "\n".join(("- " + ln if ln.startswith("-") else ln) for ln in text.split("\n"))
            text = ("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA512\n\n" + body.rstrip("\n") + "\n"
                    "-----BEGIN PGP SIGNATURE-----\n\niQIzBAEBCgAdFiEE" + "A" * 60 + "\n=abcd\n"
                    "-----END PGP SIGNATURE-----\n")
        w(f"dists/{suite}/{kind}", text.encode())
        if valid <= now:
            findings.add(("expired-release", f"dists/{suite}/{kind}"))
        for comp in ("main", "contrib"):
            for arch in ("amd64", "arm64"):
                pl = plans[(suite, comp, arch)]
                for v in pl["present"]:
                    w(f"dists/{suite}/{v}", pl["variants"][v])

    # 1. a Packages variant replaced (the .xz of stable main/amd64) with a list pointing at a trojaned deb,
    #    while another variant stays honest
    key = ("stable", "main", "amd64")
    pl = plans[key]
    honest_present = [v for v in pl["present"] if not v.endswith(".xz")]
    evil_text = pl["text"].replace(b"SHA256: ", b"SHA256: 0", 1)[:-1] + b"\n"
    w(f"dists/stable/{pl['present'][-1]}", lzma.compress(evil_text))
    findings.add(("index-mismatch", f"dists/stable/{pl['present'][-1]}"))
    if not honest_present:
        findings.add(("untrusted-index", "dists/stable/main/binary-amd64"))
    # 2. all variants of stable-security contrib/arm64 tampered -> untrusted index, its debs unchecked
    key2 = ("stable-security", "contrib", "arm64")
    for v in plans[key2]["present"]:
        w(f"dists/stable-security/{v}", b"Package: evil\n")
        findings.add(("index-mismatch", f"dists/stable-security/{v}"))
    findings.add(("untrusted-index", "dists/stable-security/contrib/binary-arm64"))
    # 3. an index directory whose files are all gone
    key3 = ("oldstable", "contrib", "amd64")
    for v in plans[key3]["present"]:
        os.unlink(os.path.join(root, f"dists/oldstable/{v}"))
    findings.add(("missing-index", "dists/oldstable/contrib/binary-amd64"))

    def listed(k):
        t = plans[k]["text"].decode()
        return [ln.split(": ", 1)[1] for ln in t.split("\n") if ln.startswith("Filename: ")]
    trusted = set()
    for suite, *_ in suites:
        for comp in ("main", "contrib"):
            for arch in ("amd64", "arm64"):
                k = (suite, comp, arch)
                if k == key2 or k == key3 or (k == key and not honest_present):
                    continue
                trusted.update(listed(k))
    # pool: write debs, then tamper some
    for fn, data in pool.items():
        w(fn, data)
    chk = sorted(trusted)
    a, b, c = r.sample(chk, 3)
    d = bytearray(pool[a])
    d[r.randrange(8, len(d))] ^= 0x01
    w(a, bytes(d))
    findings.add(("deb-mismatch", a))
    w(b, pool[b] + b"\0")
    findings.add(("deb-mismatch", b))
    os.unlink(os.path.join(root, c))
    findings.add(("missing-deb", c))
    extra = f"pool/main/{word()[0]}/{word()}/libsystemd-shim_1.0_amd64.deb"
    w(extra, b"!<arch>\nevil")
    findings.add(("unreferenced-deb", extra))
    # debs referenced only by untrusted/missing indexes are unreferenced too (nothing trusted lists them)
    for fn in pool:
        if fn not in trusted and os.path.exists(os.path.join(root, fn)):
            findings.add(("unreferenced-deb", fn))
    return datetime.fromtimestamp(now, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), \
        [{"kind": k, "path": p} for k, p in sorted(findings)]
