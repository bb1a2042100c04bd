"""Generates IOS-style device configurations with legacy credentials, a wordlist, and the expected audit."""
import base64
import hashlib
import os
import random
import warnings

warnings.filterwarnings("ignore", category=DeprecationWarning)
import crypt  # noqa: E402

XLAT = "dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87"
STD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
CIS = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
SALT = CIS


def t7(plain, seed):
    return "%02d" % seed + "".join("%02X" % (b ^ ord(XLAT[(seed + i) % len(XLAT)]))
                                   for i, b in enumerate(plain.encode()))


def cisco_b64(raw):
    return base64.b64encode(raw).decode().rstrip("=").translate(str.maketrans(STD, CIS))


def t8(plain, salt):
    return f"$8${salt}${cisco_b64(hashlib.pbkdf2_hmac('sha256', plain.encode(), salt.encode(), 20000, 32))}"


def t9(plain, salt):
    return f"$9${salt}${cisco_b64(hashlib.scrypt(plain.encode(), salt=salt.encode(), n=16384, r=1, p=1, dklen=32))}"


def t5(plain, salt):
    return crypt.crypt(plain, f"$1${salt}$")


WORDS = ["cisco", "cisco123", "admin", "password", "Passw0rd", "letmein", "changeme", "secret", "network",
         "router", "switch1", "P@ssw0rd", "welcome1", "qwerty", "default", "manager", "support", "private",
         "public", "enable", "monitor", "backup", "summer2024", "Winter2025!", "test123", "root", "12345678"]


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(os.path.join(out, "configs"), exist_ok=True)
    salt = lambda: "".join(r.choice(SALT) for _ in range(r.choice([4, 8, 14])))  # noqa: E731
    salt14 = lambda: "".join(r.choice(SALT) for _ in range(14))  # noqa: E731
    strong = lambda: "".join(r.choice("abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789#%+") for _ in range(r.randint(12, 16)))  # noqa: E731
    wordlist = r.sample(WORDS, 18)
    notlisted = [w for w in WORDS if w not in wordlist]
    shared = strong()                         # reused across devices
    site = f"{r.choice(['Ops', 'Net', 'Core'])}{r.randint(10, 99)}!"  # reused, not in the wordlist
    devices = [f"{r.choice(['rtr', 'sw', 'fw'])}-{r.choice(['ams', 'fra', 'lon', 'par'])}-{i:02d}" for i in range(1, 4)]
    creds = []   # (device, lineno, context, type, plaintext or None if uncrackable)

    def emit(lines, dev, text, ctx=None, typ=None, plain=None):
        lines.append(text)
        if ctx is not None:
            creds.append([dev, len(lines), ctx, typ, plain])

    for di, dev in enumerate(devices):
        L = []
        emit(L, dev, "!")
        emit(L, dev, f"! Last configuration change at 0{r.randint(1, 9)}:1{r.randint(0, 9)}:33 UTC Mon Nov {r.randint(10, 28)} 2026")
        emit(L, dev, "!")
        emit(L, dev, "version 15.2")
        emit(L, dev, "service timestamps debug datetime msec")
        emit(L, dev, "service password-encryption" if di != 2 else "no service password-encryption")
        emit(L, dev, f"hostname {dev}")
        emit(L, dev, "!")
        emit(L, dev, "boot-start-marker")
        emit(L, dev, "boot-end-marker")
        emit(L, dev, "!")
        # enable credentials
        if di == 0:
            p = r.choice(wordlist)
            emit(L, dev, f"enable secret 5 {t5(p, salt())}", "enable", "5", p)
            p2 = strong()
            emit(L, dev, f"enable password 7 {t7(p2, r.randint(0, 15))}", "enable", "7", p2)
        elif di == 1:
            emit(L, dev, f"enable secret 9 {t9(shared, salt14())}", "enable", "9", shared)
        else:
            p = strong()
            emit(L, dev, f"enable secret 8 {t8(p, salt14())}", "enable", "8", p)
        emit(L, dev, "!")
        emit(L, dev, "aaa new-model")
        emit(L, dev, "aaa authentication login default group tacacs+ local")
        emit(L, dev, "!")
        # users
        users = r.sample(["admin", "netops", "backup", "monitor", "jdoe", "asmith", "noc", "vendor"], 5)
        for ui, u in enumerate(users):
            priv = r.choice(["", " privilege 15", " privilege 1", " privilege 5"])
            kind = (ui + di) % 5
            if kind == 0:
                p = r.choice(wordlist)
                emit(L, dev, f"username {u}{priv} secret 8 {t8(p, salt14())}", f"username {u}", "8", p)
            elif kind == 1:
                p = site if ui % 2 == 0 else r.choice(wordlist)
                emit(L, dev, f"username {u}{priv} password 7 {t7(p, r.randint(0, 15))}", f"username {u}", "7", p)
            elif kind == 2:
                p = shared if di == 0 else r.choice(notlisted)
                emit(L, dev, f"username {u}{priv} secret 9 {t9(p, salt14())}", f"username {u}", "9", p)
            elif kind == 3:
                p = site
                emit(L, dev, f"username {u}{priv} secret 5 {t5(p, salt())}", f"username {u}", "5", p)
            else:
                p = r.choice(wordlist) if di == 2 else strong()
                emit(L, dev, f"username {u}{priv} password 0 {p}" if r.random() < 0.5 else
                     f"username {u}{priv} password {p}", f"username {u}", "0", p)
        emit(L, dev, "!")
        for n in range(r.randint(2, 4)):
            emit(L, dev, f"interface GigabitEthernet0/{n}")
            emit(L, dev, f" description uplink to core-{n} (password rotation ticket OPS-{r.randint(100, 999)})")
            emit(L, dev, f" ip address 10.{di}.{n}.1 255.255.255.0")
            if n == 1:
                emit(L, dev, f" ip ospf message-digest-key 1 md5 7 {t7(site, r.randint(0, 15))}",
                     "interface GigabitEthernet0/1 ospf key 1", "7", site)
            emit(L, dev, " no shutdown")
            emit(L, dev, "!")
        # snmp / tacacs / ntp
        comm = r.choice(["public", "private"]) if di != 1 else f"nms{r.randint(100, 999)}ro"
        emit(L, dev, f"snmp-server community {comm} RO 10", "snmp-server community", "0", comm)
        if di == 0:
            rw = strong()[:10]
            emit(L, dev, f"snmp-server community {rw} RW", "snmp-server community", "0", rw)
        emit(L, dev, f"tacacs server TAC{di}")
        emit(L, dev, f" address ipv4 10.9.{di}.5")
        p = shared if di != 2 else strong()
        emit(L, dev, f" key 7 {t7(p, r.randint(0, 15))}", f"tacacs server TAC{di}", "7", p)
        emit(L, dev, "!")
        if di != 1:
            p = r.choice(wordlist)
            emit(L, dev, f"ntp authentication-key {di + 1} md5 {t7(p, r.randint(0, 15))} 7",
                 f"ntp authentication-key {di + 1}", "7", p)
            emit(L, dev, "ntp authenticate")
        emit(L, dev, f"ntp server 10.9.0.{di + 2}")
        # banner with decoys
        emit(L, dev, "banner motd ^C")
        emit(L, dev, "Authorized access only. Example config for new staff:")
        emit(L, dev, f"username demo privilege 15 password 7 {t7('demo', 3)}")
        emit(L, dev, "line vty 0 4")
        emit(L, dev, f" password 7 {t7('notreal' + str(di), 12)}")
        emit(L, dev, "^C")
        emit(L, dev, f"banner exec ^C enable secret 5 {t5('decoy', 'abcd')} ^C")
        # lines
        emit(L, dev, "line con 0")
        if di != 1:
            p = r.choice(wordlist + [site])
            emit(L, dev, f" password 7 {t7(p, r.randint(0, 15))}", "line con 0", "7", p)
        emit(L, dev, " logging synchronous")
        emit(L, dev, "line vty 0 4")
        p = r.choice(wordlist) if di == 2 else strong()
        if di == 2:
            emit(L, dev, f" password {p}", "line vty 0 4", "0", p)
        else:
            emit(L, dev, f" password 7 {t7(p, r.randint(0, 15))}", "line vty 0 4", "7", p)
        emit(L, dev, " transport input ssh")
        emit(L, dev, "line vty 5 15")
        emit(L, dev, " transport input none")
        emit(L, dev, "!")
        emit(L, dev, "end")
        with open(os.path.join(out, "configs", dev + ".cfg"), "w", newline="") as f:
            f.write(("\r\n" if di == 1 else "\n").join(L) + "\n")
    with open(os.path.join(out, "wordlist.txt"), "w") as f:
        f.write("\n".join(wordlist) + "\n")

    # expected: a hash is cracked when its password is among the candidates (wordlist + every recovered
    # reversible secret)
    cands = set(wordlist) | {c[4] for c in creds if c[3] in ("0", "7")}
    for c in creds:
        if c[3] in ("5", "8", "9") and c[4] not in cands:
            c[4] = None
    known = [c[4] for c in creds if c[4] is not None]
    res = []
    for dev, line, ctx, typ, plain in sorted(creds, key=lambda c: (c[0], c[1])):
        f = []
        if typ in ("0", "7"):
            f.append("reversible")
        if typ == "5":
            f.append("weak-hash")
        if typ in ("5", "8", "9") and plain is not None:
            f.append("cracked")
        if plain is not None and plain in wordlist:
            f.append("in-wordlist")
        if plain is not None and known.count(plain) > 1:
            f.append("reused")
        res.append({"device": dev, "line": line, "context": ctx, "type": typ, "secret": plain,
                    "findings": sorted(f)})
    return res


if __name__ == "__main__":
    import json
    import sys
    print(json.dumps(build(int(sys.argv[1]), sys.argv[2]), indent=1))
