"""/app/unitplan on unit trees generated here; the expected plan follows the instruction's rules,
implemented independently below."""
import json
import os
import random
import subprocess
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/unitplan"
PRIO = ["etc/systemd/system", "run/systemd/system", "usr/lib/systemd/system"]


def run(root, *units):
    r = subprocess.run([TOOL, str(root), *units], capture_output=True, text=True, timeout=60)
    return r


# ---------------- independent model ----------------
def lookup(root, name):
    for d in PRIO:
        p = Path(root, d, name)
        if p.is_symlink() or p.exists():
            return p
    return None


def final_name(root, name):
    seen = set()
    while name not in seen:
        seen.add(name)
        p = lookup(root, name)
        if p is None or not p.is_symlink():
            return name
        t = os.readlink(p)
        if t == "/dev/null" or t.rstrip("/").split("/")[-1] == name:
            return name
        name = t.rstrip("/").split("/")[-1]
    return name


def read_into(lists, text, inst):
    sect = ""
    for raw in text.splitlines():
        s = raw.strip()
        if s == "" or s.startswith(("#", ";")):
            continue
        if s[0] == "[" and s[-1] == "]":
            sect = s[1:-1]
        elif "=" in s and sect == "Unit":
            k, v = s.split("=", 1)
            k, v = k.strip(), v.strip()
            if k in lists:
                if inst is not None:
                    v = "%".join(part.replace("%i", inst) for part in v.split("%%"))
                lists[k] = lists[k] + v.split() if v else []


def unit_info(root, name):
    """None if not found, 'masked', or the dependency lists (final names)."""
    p, inst = lookup(root, name), None
    if p is None and "@" in name:
        pre, post = name.split("@", 1)
        if "." in post:
            i, suf = post.rsplit(".", 1)
            if i:
                p, inst = lookup(root, f"{pre}@.{suf}"), i
    if p is None:
        return None
    if p.is_symlink() and os.readlink(p) == "/dev/null":
        return "masked"
    lists = {k: [] for k in ("Requires", "Wants", "After", "Before")}
    read_into(lists, p.read_text(), inst)
    chosen = {}
    for d in PRIO[::-1]:
        dd = Path(root, d, name + ".d")
        if dd.is_dir():
            chosen.update({f.name: f for f in dd.iterdir() if f.name.endswith(".conf")})
    for fn in sorted(chosen):
        read_into(lists, chosen[fn].read_text(), inst)
    for d in PRIO:
        for ext, key in ((".wants", "Wants"), (".requires", "Requires")):
            wd = Path(root, d, name + ext)
            if wd.is_dir():
                lists[key] += [e.name for e in wd.iterdir()]
    return {k: [final_name(root, x) for x in v] for k, v in lists.items()}


def plan(root, requested):
    info = {}

    def get(n):
        if n not in info:
            info[n] = unit_info(root, n)
        return info[n]

    # every unit reachable through Requires/Wants, then "cannot start" as a least fixpoint
    seen, stack = set(), [final_name(root, u) for u in requested]
    while stack:
        n = stack.pop()
        if n not in seen:
            seen.add(n)
            if isinstance(get(n), dict):
                stack += get(n)["Requires"] + get(n)["Wants"]
    cannot = {n for n in seen if not isinstance(get(n), dict)}
    grew = True
    while grew:
        new = {n for n in seen - cannot if set(get(n)["Requires"]) & cannot}
        cannot |= new
        grew = bool(new)

    def startable(n):
        return n not in cannot

    for u in requested:
        if not startable(final_name(root, u)):
            return 1, f"error: {u} cannot start"
    tx, dropped, queue = [], set(), [final_name(root, u) for u in requested]
    while queue:
        n = queue.pop(0)
        if n in tx:
            continue
        tx.append(n)
        u = get(n)
        for r in u["Requires"]:
            queue.append(r)
        for w in u["Wants"]:
            (queue.append(w) if startable(w) else dropped.add(w))
    preds = {n: set() for n in tx}
    for n in tx:
        preds[n] |= {a for a in get(n)["After"] if a in preds}
        for b in get(n)["Before"]:
            if b in preds:
                preds[b].add(n)
    waves, placed = [], set()
    while len(placed) < len(tx):
        w = sorted(n for n in tx if n not in placed and preds[n] <= placed)
        if not w:
            return 2, "error: ordering cycle"
        waves.append(w)
        placed.update(w)
    return 0, {"waves": waves, "dropped": sorted(dropped)}


def check(root, *units):
    code, want = plan(root, list(units))
    r = run(root, *units)
    assert r.returncode == code, (r.returncode, code, r.stderr, want)
    if code == 0:
        assert json.loads(r.stdout) == want
    else:
        assert want in r.stderr
    return want


# ---------------- tree building ----------------
def write(root, d, name, text):
    p = Path(root, d, name)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def link(root, d, name, target):
    p = Path(root, d, name)
    p.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, p)


def body(lines):
    out = ["# generated", "[Unit]", "Description=x"]
    for k, v in lines:
        out.append(f"{RNG.choice(['', ' '])}{k}{RNG.choice(['=', ' = ', '= '])}{v}")
    out += ["", "[Service]", "After=never-read.service", "ExecStart=/bin/true"]
    return "\n".join(out) + "\n"


def random_tree(root, n=14):
    for d in PRIO:
        Path(root, d).mkdir(parents=True, exist_ok=True)
    names = [f"u{i}{RNG.choice(['a', 'b', 'c'])}.{RNG.choice(['service', 'target', 'socket'])}" for i in range(n)]
    rank = {x: i for i, x in enumerate(names)}
    extra = ["ghost.service", "tpl@one.service", "tpl@two.service", "al.service"]

    def pick(k=3):
        return " ".join(RNG.sample(names + extra, RNG.randint(1, k)))

    def order_line(x):
        lo = [y for y in names if rank[y] < rank[x]]
        hi = [y for y in names if rank[y] > rank[x]]
        opts = []
        if lo:
            opts.append(("After", " ".join(RNG.sample(lo, min(len(lo), RNG.randint(1, 3))))))
        if hi:
            opts.append(("Before", " ".join(RNG.sample(hi, min(len(hi), RNG.randint(1, 2))))))
        return RNG.choice(opts)

    for x in names:
        lines = []
        for _ in range(RNG.randint(0, 4)):
            r = RNG.random()
            if r < 0.3:
                lines.append(("Wants", pick()))
            elif r < 0.45:
                lines.append(("Requires", pick(2)))
            elif r < 0.9:
                lines.append(order_line(x))
            else:
                lines.append((RNG.choice(["Wants", "After"]), ""))
        write(root, RNG.choice(PRIO[1:]), x, body(lines))
        if RNG.random() < 0.25:  # drop-ins, maybe overridden by name in a higher directory
            fn = RNG.choice(["10-a.conf", "20-b.conf", "override.conf"])
            write(root, PRIO[2], x + ".d/" + fn, body([("Wants", pick()), order_line(x)]))
            write(root, RNG.choice(PRIO[:2]), x + ".d/" + RNG.choice([fn, "05-z.conf", "x.conf.off"]),
                  body([(RNG.choice(["Wants", "Requires"]), RNG.choice(["", pick(2)]))]))
        if RNG.random() < 0.2:
            link(root, RNG.choice(PRIO), x + RNG.choice([".wants/", ".requires/"]) + RNG.choice(names + extra), "/x")
    for x in RNG.sample(names, 3):  # masks (one in a directory of lower priority than the file has no effect)
        link(root, RNG.choice([d for d in PRIO if not Path(root, d, x).exists()]), x, "/dev/null")
    link(root, PRIO[0], "al.service", "/usr/lib/systemd/system/" + RNG.choice(names))
    write(root, PRIO[2], "tpl@.service", body([("Wants", "inst-%i.service %%i.service"), ("Requires", RNG.choice(names))]))
    write(root, PRIO[2], "inst-one.service", body([("After", RNG.choice(names))]))
    write(root, PRIO[2], "%i.service", body([]))
    return names


@pytest.mark.parametrize("round_", range(5))
def test_random_trees(tmp_path, round_):
    names = random_tree(tmp_path)
    for _ in range(6):
        check(tmp_path, *RNG.sample(names + ["al.service", "tpl@one.service"], RNG.randint(1, 3)))


def test_example_root():
    r = run("/app/example-root", "multi-user.target")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {
        "waves": [["auditd.service", "getty@tty1.service", "network.target", "systemd-tmpfiles-setup.service"],
                  ["redis.service", "ssh.service", "sysinit.target"], ["basic.target", "nginx.service"],
                  ["multi-user.target"]],
        "dropped": ["bluetooth.service", "console-setup@tty1.service"]}


def test_priority_masks_and_aliases(tmp_path):
    E, R, U = PRIO
    write(tmp_path, U, "app.service", "[Unit]\nWants=db.service cache.service web.service\nAfter=db.service\n")
    write(tmp_path, R, "app.service", "[Unit]\nWants=db.service cache.service\nAfter=cache.service\n")
    write(tmp_path, U, "db.service", "[Unit]\n")
    link(tmp_path, E, "db.service", "/dev/null")
    write(tmp_path, U, "cache.service", "[Unit]\nAfter=db.service\n")
    write(tmp_path, U, "redis-server.service", "[Unit]\nBefore=app.service\n")
    link(tmp_path, R, "cache.service", "/usr/lib/systemd/system/redis-server.service")
    link(tmp_path, E, "web.service", "nginx.service")
    check(tmp_path, "app.service")
    r = run(tmp_path, "app.service")
    assert json.loads(r.stdout) == {"waves": [["redis-server.service"], ["app.service"]], "dropped": ["db.service"]}
    r = run(tmp_path, "cache.service", "db.service")
    assert r.returncode == 1 and "error: db.service cannot start" in r.stderr


def test_dropins_and_wants_dirs(tmp_path):
    E, R, U = PRIO
    write(tmp_path, U, "a.target", "[Unit]\nWants=b.service\nWants=c.service\nAfter=b.service\n")
    write(tmp_path, U, "a.target.d/10-reset.conf", "[Unit]\nWants=\nAfter=c.service\n")
    write(tmp_path, E, "a.target.d/10-reset.conf", "[Unit]\nWants=d.service\n")
    write(tmp_path, R, "a.target.d/20-more.conf", "[Unit]\nWants=e.service\n[Install]\nWants=f.service\n")
    write(tmp_path, U, "a.target.d/30-off.conf.disabled", "[Unit]\nWants=f.service\n")
    link(tmp_path, U, "a.target.wants/g.service", "../g.service")
    link(tmp_path, E, "a.target.requires/h.service", "/usr/lib/systemd/system/h.service")
    write(tmp_path, E, "a.target.d/99-last.conf", "[Unit]\nWants=\nBefore=h.service\n")
    for x in "bcdefgh":
        write(tmp_path, U, f"{x}.service", "[Unit]\n")
    check(tmp_path, "a.target")
    r = run(tmp_path, "a.target")
    assert json.loads(r.stdout) == {"waves": [["a.target", "g.service"], ["h.service"]], "dropped": []}


def test_templates_and_requires_chains(tmp_path):
    E, R, U = PRIO
    write(tmp_path, U, "getty@.service", "[Unit]\nWants=setup@%i.service\nRequires=vc-%i.device\nAfter=vc-%i.device\n"
          "Before=100%%-%i.target\n")
    write(tmp_path, U, "vc-tty1.device", "[Unit]\n")
    write(tmp_path, U, "vc-tty2.device", "[Unit]\nRequires=loop-a.service\n")
    write(tmp_path, U, "loop-a.service", "[Unit]\nRequires=loop-b.service\n")
    write(tmp_path, U, "loop-b.service", "[Unit]\nRequires=loop-a.service gone.service\n")
    write(tmp_path, U, "100%-tty1.target", "[Unit]\n")
    write(tmp_path, U, "setup@.service", "[Unit]\n")
    link(tmp_path, E, "setup@tty3.service", "/dev/null")
    write(tmp_path, U, "console.target", "[Unit]\nWants=getty@tty1.service getty@tty2.service getty@tty3.service\n"
          "Wants=100%-tty1.target\n")
    write(tmp_path, U, "vc-tty3.device", "[Unit]\nRequires=ok-a.service\nAfter=ok-a.service\n")
    write(tmp_path, U, "ok-a.service", "[Unit]\nRequires=ok-b.service\nAfter=ok-b.service\n")
    write(tmp_path, U, "ok-b.service", "[Unit]\nRequires=ok-a.service\n")
    r = run(tmp_path, "console.target")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {
        "waves": [["console.target", "ok-b.service", "setup@tty1.service", "vc-tty1.device"],
                  ["getty@tty1.service", "ok-a.service"], ["100%-tty1.target", "vc-tty3.device"],
                  ["getty@tty3.service"]],
        "dropped": ["getty@tty2.service", "setup@tty3.service"]}
    check(tmp_path, "console.target")
    r = run(tmp_path, "getty@tty2.service")
    assert r.returncode == 1 and "error: getty@tty2.service cannot start" in r.stderr


def test_ordering_cycle(tmp_path):
    U = PRIO[2]
    write(tmp_path, U, "x.service", "[Unit]\nWants=y.service\nAfter=y.service\n")
    write(tmp_path, U, "y.service", "[Unit]\nWants=z.service\n")
    write(tmp_path, U, "z.service", "[Unit]\nBefore=x.service\nAfter=x.service\n")
    write(tmp_path, U, "w.service", "[Unit]\nBefore=x.service\nAfter=z.service\n")
    r = run(tmp_path, "x.service")
    assert r.returncode == 2 and "error: ordering cycle" in r.stderr
    r = run(tmp_path, "y.service", "w.service")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"waves": [["y.service", "z.service"], ["w.service"]], "dropped": []}
