"""Builds a directory of (fake-bodied) Linux kernel modules with appended signatures made the way the
kernel's sign-file does (detached CMS/PKCS#7, no signed attributes, no certificates), a trust list of
DER certificates, and the expected audit. Uses the openssl command line."""
import os
import random
import struct
import subprocess

MARKER = b"~Module signature appended~\n"


def sh(*a, cwd):
    subprocess.run(list(a), cwd=cwd, check=True, capture_output=True)


def trailer(sig, id_type=2):
    return sig + struct.pack(">BBBBB3xI", 0, 0, id_type, 0, 0, len(sig)) + MARKER


def build(seed, out):
    r = random.Random(seed)
    out = os.path.abspath(out)
    w = os.path.join(out, ".work")
    mods = os.path.join(out, "modules")
    trust = os.path.join(out, "trusted")
    for d in (w, mods, trust):
        os.makedirs(d, exist_ok=True)
    word = lambda: "".join(r.choice("abcdefghkmnprstuvwxz") for _ in range(r.randint(4, 7)))  # noqa: E731
    keys = {}
    for tag, bits, cn in (("build", 2048, f"{word().title()} Build signing key {r.randint(2021, 2026)}"),
                          ("distro", 3072, f"{word().title()} Secure Boot CA {r.randint(1, 9)}"),
                          ("evil", 2048, f"{word().title()} Build signing key {r.randint(2021, 2026)}"),
                          ("old", 2048, f"{word().title()} Legacy kernel key")):
        sh("openssl", "req", "-x509", "-newkey", f"rsa:{bits}", "-nodes", "-keyout", f"{tag}.key", "-out",
           f"{tag}.pem", "-subj", f"/O={word().title()}/CN={cn}", "-days", "3650", "-set_serial",
           str(r.getrandbits(60)), "-addext", "subjectKeyIdentifier=hash", cwd=w)
        keys[tag] = cn
    for tag in ("build", "distro"):
        sh("openssl", "x509", "-in", f"{tag}.pem", "-outform", "DER", "-out", os.path.join(trust, f"{tag}.der"),
           cwd=w)
    # the old key's certificate is shipped in PEM in the trust directory too
    with open(os.path.join(w, "old.pem"), "rb") as f, open(os.path.join(trust, "legacy.pem"), "wb") as g:
        g.write(f.read())

    def body(name):
        return (b"\x7fELF\x02\x01\x01" + bytes(9) + bytes(r.randrange(256) for _ in range(r.randint(2000, 6000)))
                + b"\0name=" + name.encode() + b"\0license=GPL\0")

    def sign(data, tag, md="sha256", keyid=False):
        p = os.path.join(w, "body")
        with open(p, "wb") as f:
            f.write(data)
        args = ["openssl", "cms", "-sign", "-in", "body", "-signer", f"{tag}.pem", "-inkey", f"{tag}.key",
                "-binary", "-noattr", "-nocerts", "-outform", "DER", "-out", "sig.p7", "-md", md]
        if keyid:
            args.append("-keyid")
        sh(*args, cwd=w)
        return open(os.path.join(w, "sig.p7"), "rb").read()

    exp = {}

    def put(name, data, status, signer=None, md=None, findings=()):
        with open(os.path.join(mods, name), "wb") as f:
            f.write(data)
        exp[name] = {"module": name, "status": status, "signer": signer, "hash": md, "findings": sorted(findings)}

    def n():
        while True:
            name = word() + r.choice(["", "_core", "_hw", "_net"]) + ".ko"
            if name not in exp:
                exp[name] = None
                return name
    m = n()
    b = body(m)
    put(m, b + trailer(sign(b, "build")), "valid", keys["build"], "sha256")
    m = n()
    b = body(m)
    put(m, b + trailer(sign(b, "distro", "sha512", keyid=True)), "valid", keys["distro"], "sha512")
    m = n()
    b = body(m)
    put(m, b + trailer(sign(b, "old", "sha1")), "valid", keys["old"], "sha1", ["weak-hash"])
    m = n()
    b = body(m)
    put(m, b + trailer(sign(b, "evil", "sha256")), "untrusted", None, "sha256")
    m = n()
    b = body(m)
    sig = sign(b, "build", "sha256")
    bb = bytearray(b)
    bb[r.randrange(16, len(bb) - 40)] ^= 0x20
    put(m, bytes(bb) + trailer(sig), "bad-signature", keys["build"], "sha256")
    m = n()
    b = body(m)
    sig = sign(b, "distro", "sha256", keyid=True)
    put(m, b + b"\0" + trailer(sig), "bad-signature", keys["distro"], "sha256")      # padding added later
    m = n()
    put(m, body(m), "unsigned")
    m = n()
    b = body(m)
    sig = sign(b, "build")
    put(m, b + sig[:-40] + struct.pack(">BBBBB3xI", 0, 0, 2, 0, 0, len(sig)) + MARKER, "malformed")
    m = n()
    b = body(m)
    put(m, b + trailer(sign(b, "build"), id_type=1), "malformed")
    # signed twice: the kernel checks only the last signature, over everything before it
    m = n()
    b = body(m)
    inner = b + trailer(sign(b, "evil"))
    put(m, inner + trailer(sign(inner, "distro", "sha384")), "valid", keys["distro"], "sha384")
    m = n()
    b = body(m)
    inner = b + trailer(sign(b, "build"))
    put(m, inner + trailer(sign(inner, "evil")), "untrusted", None, "sha256")
    # not modules
    with open(os.path.join(mods, "modules.dep"), "w") as f:
        f.write("kernel/drivers/x.ko:\n")
    subprocess.run(["rm", "-rf", w], check=True)
    return [exp[k] for k in sorted(exp)]
