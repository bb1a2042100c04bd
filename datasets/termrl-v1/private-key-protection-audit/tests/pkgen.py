"""Private keys protected (or not) in the ways OpenSSL writes them, generated with the openssl CLI, plus
the expected protection audit."""
import os
import random
import subprocess


def sh(*a, cwd):
    subprocess.run(list(a), cwd=cwd, check=True, capture_output=True)


def build(seed, out):
    r = random.Random(seed)
    out = os.path.abspath(out)
    keys = os.path.join(out, "keys")
    os.makedirs(keys, exist_ok=True)
    w = os.path.join(out, ".work")
    os.makedirs(w, exist_ok=True)
    sh("openssl", "genpkey", "-algorithm", "ED25519", "-out", "ed.pem", cwd=w)
    sh("openssl", "genrsa", "-traditional", "-out", "rsa.pem", "1024", cwd=w)
    sh("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "ec.pem", cwd=w)
    word = lambda: "".join(r.choice("abcdefghkmnprstuvwxz") for _ in range(r.randint(3, 7)))  # noqa: E731
    exp = []
    names = set()

    def name(ext=".pem"):
        while True:
            n = word() + r.choice(["", "-key", "_tls", ".old"]) + ext
            if n not in names:
                names.add(n)
                return n

    def take(tmp, fmt, enc, cipher, kdf, iters, prf, findings):
        n = name(r.choice([".pem", ".key"]))
        os.replace(os.path.join(w, tmp), os.path.join(keys, n))
        exp.append({"file": n, "format": fmt, "encrypted": enc, "cipher": cipher, "kdf": kdf,
                    "iterations": iters, "prf": prf, "findings": sorted(findings)})

    pw = "pass:" + word()
    src = lambda: r.choice(["ed.pem", "rsa.pem", "ec.pem"])  # noqa: E731
    # unencrypted
    sh("cp", src(), "u1.pem", cwd=w)
    sh("openssl", "pkey", "-in", "u1.pem", "-out", "u1b.pem", cwd=w)
    take("u1b.pem", "pkcs8", False, None, None, None, None, ["unencrypted"])
    sh("cp", "rsa.pem", "u2.pem", cwd=w)
    take("u2.pem", "traditional", False, None, None, None, None, ["unencrypted"])
    # legacy PEM encryption (EVP_BytesToKey)
    for c, ciph in (("-des3", "des-ede3-cbc"), ("-aes256", "aes-256-cbc")):
        sh("openssl", "rsa", "-in", "rsa.pem", "-traditional", c, "-passout", pw, "-out", "t.pem", cwd=w)
        f = ["legacy-kdf"] + (["weak-cipher"] if "des" in ciph else [])
        take("t.pem", "traditional", True, ciph, "evp-bytestokey", None, None, f)
    # PKCS#8 PBES2
    for ciph, it, prf in (("aes-256-cbc", r.choice([1000, 2048, 4096]), "hmacWithSHA256"),
                          ("aes-128-cbc", r.choice([100000, 600000]), "hmacWithSHA256"),
                          ("aes-256-cbc", r.choice([20000, 310000]), "hmacWithSHA1"),
                          ("des-ede3-cbc", 50000, "hmacWithSHA512")):
        sh("openssl", "pkcs8", "-topk8", "-in", src(), "-v2", ciph, "-iter", str(it), "-v2prf", prf,
           "-passout", pw, "-out", "p.pem", cwd=w)
        f = []
        if it < 10000:
            f.append("low-iterations")
        if prf == "hmacWithSHA1":
            f.append("sha1-prf")
        if "des" in ciph:
            f.append("weak-cipher")
        take("p.pem", "pkcs8", True, ciph, "pbkdf2", it, prf, f)
    # PKCS#8 with a PKCS#12 PBE (PBES1-style)
    it = r.choice([2048, 20000])
    sh("openssl", "pkcs8", "-topk8", "-in", "rsa.pem", "-v1", "PBE-SHA1-3DES", "-iter", str(it), "-passout", pw,
       "-out", "p1.pem", cwd=w)
    take("p1.pem", "pkcs8", True, "des-ede3-cbc", "pkcs12-pbe", it, None,
         ["legacy-kdf", "weak-cipher"] + (["low-iterations"] if it < 10000 else []))
    # not private keys
    sh("openssl", "req", "-x509", "-new", "-key", "rsa.pem", "-subj", "/CN=x", "-days", "30", "-out",
       os.path.join(keys, name(".crt")), cwd=w)
    with open(os.path.join(keys, name(".txt")), "w") as f:
        f.write("keys moved to the vault on 2026-11-01\n")
    subprocess.run(["rm", "-rf", w], check=True)
    exp.sort(key=lambda e: e["file"])
    return exp
