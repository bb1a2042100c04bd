"""/app/migrate-conf on INI files generated here; the expected data follows the instruction's rules,
computed independently here and compared with what tomllib reads back."""
import os
import random
import subprocess
import tomllib
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/migrate-conf"


def migrate(tmp_path, text):
    src, dst = tmp_path / "old.ini", tmp_path / "new.toml"
    src.write_text(text, encoding="utf-8")
    if dst.exists():
        dst.unlink()
    r = subprocess.run([TOOL, str(src), str(dst)], capture_output=True, text=True, timeout=60)
    return r, dst


def load(tmp_path, text):
    r, dst = migrate(tmp_path, text)
    assert r.returncode == 0, r.stderr
    return tomllib.loads(dst.read_text(encoding="utf-8"))


def sp():
    return RNG.choice(["", " ", "  ", "\t"])


class Gen:
    """Builds an INI text and, alongside, the data the migration must produce."""

    def __init__(self):
        self.lines = [RNG.choice(["; generated", "# generated", ""])]
        self.want = {}
        self.relays = {}

    def header(self, name):
        shown = "".join(c.upper() if RNG.random() < 0.3 else c for c in name)
        self.lines += [RNG.choice(["", "; --", "#"]), f"[{sp()}{shown}{sp()}]{sp()}"]

    def kv(self, key, raw, comment=True):
        shown = "".join(c.upper() if RNG.random() < 0.3 else c for c in key)
        sep = RNG.choice(["=", " = ", ": ", " :", "="])
        tail = RNG.choice(["", "", f"  ; note {RNG.randint(0, 9)}", "\t# x=1"]) if comment else ""
        self.lines.append(f"{shown}{sep}{raw}{tail}")

    def text(self):
        return "\n".join(self.lines) + "\n"


WORDS = ["mx", "relay", "caf\u00e9", "a.b", "x y", 'q"uote', "back\\slash", "semi;colon", "hash#tag", "\u2603"]


def legacy_value():
    v = " ".join(RNG.sample(WORDS, RNG.randint(1, 3)))
    if RNG.random() < 0.4 or "; " in v or "#" in v or '"' in v:
        if '"' in v:
            v = v.replace('"', "'")
        return f'"{v}"', v
    cut = v
    for i in range(1, len(v)):
        if v[i] in ";#" and v[i - 1] in " \t":
            cut = v[:i - 1]
            break
    return v, cut.strip()


def random_config():
    g = Gen()
    sec_order = ["server", "relay:" + RNG.choice(["alpha", "beta"]), "spool", "relay:gamma", "relay:delta", "server"]
    RNG.shuffle(sec_order)
    legacy = {}
    srv_keys_done = set()
    for sec in sec_order:
        g.header(sec)
        if sec == "server":
            for k in RNG.sample(["listen", "hostname", "allowed_networks", "max_size", "timeout", "tls", "tls_cert",
                                 "extra.opt", "Banner"], 4):
                if k in srv_keys_done:
                    continue
                srv_keys_done.add(k)
                w = g.want
                if k == "listen":
                    host = RNG.choice(["0.0.0.0", "mx.example", "::1", "fe80::2"])
                    port = RNG.randint(1, 65535)
                    g.kv(k, f"[{host}]:{port}" if ":" in host else f"{host}:{port}")
                    w.setdefault("server", {}).update(host=host, port=port)
                elif k == "hostname":
                    g.kv(k, "mx.old.example")
                    g.kv(k, "mx.new.example")
                    w.setdefault("server", {})["hostname"] = "mx.new.example"
                elif k == "allowed_networks":
                    nets = [f"10.{RNG.randint(0, 255)}.0.0/16" for _ in range(RNG.randint(1, 4))]
                    raw = " , ".join(nets) + RNG.choice(["", ",", ", ,"])
                    if len(nets) > 1 and RNG.random() < 0.5:
                        g.kv(k, ", ".join(nets[:1]) + ",", comment=False)
                        g.lines.append(RNG.choice(["  ", "\t", "    "]) + ", ".join(nets[1:]))
                    else:
                        g.kv(k, raw)
                    w.setdefault("server", {})["allowed_networks"] = nets
                elif k == "max_size":
                    n, suf = RNG.randint(0, 900), RNG.choice(["", "k", "K", "m", "M", "g", "G"])
                    g.kv(k, f"{n}{suf}")
                    w.setdefault("limits", {})["max_message_bytes"] = n * 1024 ** " kmg".index((suf or " ").lower())
                elif k == "timeout":
                    parts = [(u, RNG.randint(1, 99)) for u in "dhms" if RNG.random() < 0.5]
                    if not parts:
                        secs = RNG.randint(0, 5000)
                        g.kv(k, str(secs))
                    else:
                        g.kv(k, "".join(f"{n}{u}" for u, n in parts))
                        secs = sum(n * {"d": 86400, "h": 3600, "m": 60, "s": 1}[u] for u, n in parts)
                    w.setdefault("limits", {})["timeout_seconds"] = secs
                elif k == "tls":
                    word, val = RNG.choice([("yes", True), ("No", False), ("TRUE", True), ("off", False), ("On", True),
                                            ("1", True), ("0", False), ("false", False)])
                    g.kv(k, word)
                    w.setdefault("tls", {})["enabled"] = val
                elif k == "tls_cert":
                    g.kv(k, "/etc/ssl/c\u00e9rt.pem")
                    w.setdefault("tls", {})["cert"] = "/etc/ssl/c\u00e9rt.pem"
                else:
                    raw, val = legacy_value()
                    g.kv(k, raw, comment=False)
                    legacy.setdefault("server", {})[k.lower()] = val
        elif sec.startswith("relay:"):
            name = sec[6:]
            r = g.relays.setdefault(name, {"name": name, "port": 25, "priority": 100, "domains": []})
            keys = RNG.sample(["host", "port", "priority", "domains", "user", "helo"], 4)
            for k in keys:
                if k == "host":
                    g.kv(k, f"{name}.smtp.example")
                    r["host"] = f"{name}.smtp.example"
                elif k in ("port", "priority"):
                    v = RNG.randint(1, 60)
                    g.kv(k, str(v))
                    r[k] = v
                elif k == "domains":
                    ds = RNG.sample(["a.com", "b.org", "c.net", "d.io"], RNG.randint(0, 3))
                    g.kv(k, ",".join(ds))
                    r["domains"] = ds
                elif k == "user":
                    g.kv(k, f"u-{name}")
                    pw_raw, pw = RNG.choice([('"p;w #1"', "p;w #1"), ("plain", "plain"), ("b\\s", "b\\s")])
                    g.kv("password", pw_raw, comment=False)
                    r["auth"] = {"user": f"u-{name}", "password": pw}
                else:
                    raw, val = legacy_value()
                    g.kv(k, raw, comment=False)
                    r.setdefault("_legacy", {})[k] = val
            if "user" not in keys and RNG.random() < 0.5:  # a password without a user is an "other key"
                raw, val = legacy_value()
                g.kv("password", raw, comment=False)
                r.setdefault("_legacy", {})["password"] = val
        else:
            for k in RNG.sample(["dir", "max age", "owner.name", "mode"], 2):
                raw, val = legacy_value()
                g.kv(k, raw, comment=False)
                legacy.setdefault(sec, {})[k] = val
    relays = []
    for name, r in g.relays.items():
        r = dict(r)
        leg = r.pop("_legacy", {})
        if leg:
            legacy.setdefault("relay:" + name, {}).update(leg)
        relays.append(r)
    if relays:
        g.want["relays"] = sorted(relays, key=lambda r: (r["priority"], r["name"]))
    if legacy:
        g.want["legacy"] = legacy
    return g


@pytest.mark.parametrize("round_", range(6))
def test_random_configs(tmp_path, round_):
    g = random_config()
    assert load(tmp_path, g.text()) == g.want, g.text()


def test_this_machine():
    got = tomllib.loads(Path("/etc/mailrelay/relay.toml").read_text(encoding="utf-8"))
    assert got == {
        "server": {"host": "0.0.0.0", "port": 2525, "hostname": "mx1.example.net",
                   "allowed_networks": ["10.0.0.0/8", "192.168.0.0/16", "172.16.0.0/12"]},
        "limits": {"max_message_bytes": 25 * 1024 ** 2, "timeout_seconds": 300},
        "tls": {"enabled": True, "cert": "/etc/ssl/mx1.pem", "key": "/etc/ssl/private/mx1.key"},
        "relays": [{"name": "primary", "host": "smtp.upstream.example", "port": 587, "priority": 20,
                    "domains": ["example.com", "example.org"], "auth": {"user": "mx1", "password": "s3cr;t\\pass"}},
                   {"name": "backup", "host": "backup.example", "port": 25, "priority": 50, "domains": []}],
        "legacy": {"server": {"banner": "ESMTP relay; authorised use only"}, "relay:backup": {"helo": "mx1-backup"},
                   "spool": {"dir": "/var/spool/mailrelay", "max_age": "3d"}},
    }


def test_parsing_rules(tmp_path):
    text = "\n".join([
        "[Server]", "listen=[2001:db8::5]:25", "hostname : a.example ;c", "hostname = b.example#not-a-comment",
        "allowed_networks = 1.0.0.0/8,", "  2.0.0.0/8 ; kept as text", "", "    3.0.0.0/8",
        "[Odd Section]", "Key.With.Dots = v1", "spaced key = \"  padded ; \\\\ value  \" trailing", "x = a=b:c",
        "[relay:  Edge ]", "password = lonely", "port=2", "[server]", "timeout = 2d3s",
    ]) + "\n"
    got = load(tmp_path, text)
    assert got == {
        "server": {"host": "2001:db8::5", "port": 25, "hostname": "b.example#not-a-comment",
                   "allowed_networks": ["1.0.0.0/8", "2.0.0.0/8 ; kept as text"]},
        "limits": {"timeout_seconds": 2 * 86400 + 3},
        "relays": [{"name": "edge", "port": 2, "priority": 100, "domains": []}],
        "legacy": {"odd section": {"key.with.dots": "v1", "spaced key": "  padded ; \\\\ value  ", "x": "a=b:c"},
                   "relay:  edge": {"password": "lonely"}},
    }


@pytest.mark.parametrize("line,where", [("timeout = 1x", "server.timeout"), ("max_size = 10MB", "server.max_size"),
                                        ("tls = maybe", "server.tls"), ("listen = nowhere", "server.listen"),
                                        ("timeout = 30s5m", "server.timeout")])
def test_invalid_values(tmp_path, line, where):
    r, dst = migrate(tmp_path, f"[server]\nhostname = x\n{line}\n[relay:a]\nport = 25\n")
    assert r.returncode == 1
    assert r.stderr.startswith(f"error: {where}: ")
    assert not dst.exists()
    r, dst = migrate(tmp_path, "[relay:Main]\nport = 2x5\n")
    assert r.returncode == 1 and r.stderr.startswith("error: relay:main.port: ") and not dst.exists()
