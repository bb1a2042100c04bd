"""Generate sealed audit logs with known tampering (test-side only)."""
import gzip
import hashlib
import hmac
import json
import os

HOSTS = ["web01", "web02", "db01", "bastion", "ci-runner"]
MSGS = ["session opened for user {u}", "sudo: {u} : COMMAND=/usr/bin/systemctl restart nginx",
        "Accepted publickey for {u} from 10.0.{a}.{b}", "file /etc/{f} modified", "user {u} added to group adm",
        "cron: ({u}) CMD (/usr/local/bin/backup.sh)", "policy reload by {u} — ok", "login failure for {u} (Ω)"]
USERS = ["alice", "bob", "deploy", "root", "mallory", "svc-backup"]


def evolve(k):
    return hashlib.sha256(b"fss-evolve" + k).digest()


def key_at(k0, e):
    for _ in range(e):
        k0 = evolve(k0)
    return k0


def canon(body):
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


def seal(k0, body, link):
    return hmac.new(key_at(k0, body["epoch"]), link + canon(body), hashlib.sha256).hexdigest()


class Log:
    def __init__(self, rng, n):
        self.rng = rng
        self.k0 = rng.randbytes(32)
        self.lines = []      # [text, expected problem or None, seq or None]
        link, epoch, t = bytes(32), 0, 1795000000
        for seq in range(1, n + 1):
            epoch += rng.choice([0] * 7 + [1, 1, 3])
            t += rng.randint(1, 400)
            body = {"seq": seq, "epoch": epoch, "ts": f"2026-11-{19 + t % 5:02d}T{t % 86400 // 3600:02d}:{t % 3600 // 60:02d}:{t % 60:02d}Z",
                    "host": rng.choice(HOSTS), "msg": self.message()}
            mac = seal(self.k0, body, link)
            obj = dict(body, mac=mac)
            if rng.random() < 0.5:
                keys = list(obj)
                rng.shuffle(keys)
                obj = {k: obj[k] for k in keys}
            self.lines.append([json.dumps(obj, ensure_ascii=rng.random() < 0.5), None, seq])
            link = bytes.fromhex(mac)

    def message(self):
        rng = self.rng
        return rng.choice(MSGS).format(u=rng.choice(USERS), a=rng.randint(0, 255), b=rng.randint(1, 254),
                                       f=rng.choice(["passwd", "shadow", "sudoers", "ssh/sshd_config"]))

    def obj(self, i):
        return json.loads(self.lines[i][0])

    def put(self, i, obj):
        self.lines[i][0] = json.dumps(obj)

    # tampering (positions should be >= 3 apart so that effects stay independent) -------------------
    def modify(self, i):
        o = self.obj(i)
        field = self.rng.choice(["msg", "ts", "host"])
        o[field] = o[field] + "x" if field != "msg" else o[field].replace("alice", "bob").replace("root", "deploy") + " "
        self.put(i, o)
        self.lines[i][1] = "bad-mac"

    def delete(self, i):
        del self.lines[i]
        self.lines[i][1] = "seq-gap"

    def insert_forged(self, i):
        """An entry made up without the key, reusing the previous seq (no renumbering)."""
        prev = self.obj(i - 1)
        o = dict(prev, msg=self.message(), mac=self.rng.randbytes(32).hex())
        self.lines.insert(i, [json.dumps(o), "seq-gap", prev["seq"]])
        self.lines[i + 1][1] = "bad-mac"

    def stolen_later_key(self, i):
        """Rewritten with a correct MAC under a key of a later epoch (the thief's), linked correctly."""
        prev = self.obj(i - 1)
        o = self.obj(i)
        later = self.obj(min(len(self.lines) - 1, i + 1))["epoch"] + self.rng.randint(1, 4)
        body = {k: o[k] for k in ("seq", "ts", "host")}
        body.update(epoch=later, msg="session closed for user mallory")
        o = dict(body, mac=seal(self.k0, body, bytes.fromhex(prev["mac"])))
        self.put(i, o)
        # the next entry now links to a changed MAC and has a lower epoch: epoch-regress wins
        self.lines[i + 1][1] = "epoch-regress"

    def truncate(self, i):
        """A crash cut the line: malformed, and the following entry misses its predecessor."""
        text = self.lines[i][0]
        self.lines[i] = [text[:self.rng.randint(5, len(text) - 5)], "malformed", None]
        self.lines[i + 1][1] = "seq-gap"

    def junk(self, i):
        self.lines.insert(i, [self.rng.choice(["", "-- MARK --", "{\"seq\": 5}", "[1, 2]", "{not json"]), "malformed", None])
        if self.lines[i][0] == "":
            self.lines[i][1] = None   # blank lines are skipped

    def wrong_type(self, i):
        o = self.obj(i)
        k = self.rng.choice(["seq", "epoch"])
        o[k] = str(o[k])
        self.put(i, o)
        self.lines[i][1] = "malformed"
        self.lines[i][2] = None
        self.lines[i + 1][1] = "seq-gap"

    # output -----------------------------------------------------------------------------------------
    def write(self, d, nfiles, gz_from=2, drop=None, blank=True):
        """Split into audit.log.N ... audit.log.1, audit.log; returns expected verdict."""
        rng = self.rng
        n = len(self.lines)
        cuts = sorted(rng.sample(range(1, n), nfiles - 1))
        chunks = [self.lines[a:b] for a, b in zip([0] + cuts, cuts + [n])]
        names = [f"audit.log.{k}" for k in range(nfiles - 1, 0, -1)] + ["audit.log"]
        names = [nm + ".gz" if nm != "audit.log" and int(nm.split(".")[2]) >= gz_from else nm for nm in names]
        if drop is not None:
            # a rotated file went missing: its first surviving successor entry shows the gap
            nxt = chunks[drop + 1]
            first = next(x for x in nxt if x[2] is not None or x[1] == "malformed")
            if first[1] is None:
                # the first surviving entry of the whole log has no predecessor: only its MAC can fail
                first[1] = "seq-gap" if drop > 0 else "bad-mac"
        problems, trusted, clean, count = [], None, True, 0
        os.makedirs(d, exist_ok=True)
        for ci, (name, chunk) in enumerate(zip(names, chunks)):
            if ci == drop:
                continue
            text, lineno = [], 0
            for t, prob, seq in chunk:
                if blank and rng.random() < 0.03:
                    text.append("")
                    lineno += 1
                text.append(t)
                lineno += 1
                if t.strip() == "":
                    continue
                if prob != "malformed":
                    count += 1
                if prob:
                    clean = False
                    problems.append({"file": name, "line": lineno, "seq": seq if prob != "malformed" else None, "problem": prob})
                elif clean:
                    trusted = seq
            data = ("\n".join(text) + "\n").encode()
            with open(os.path.join(d, name), "wb") as fh:
                fh.write(gzip.compress(data) if name.endswith(".gz") else data)
        key = os.path.join(d, "..", "initial.key")
        with open(key, "w") as fh:
            fh.write(self.k0.hex() + "\n")
        return {"entries": count, "trusted_through": trusted, "problems": problems}
