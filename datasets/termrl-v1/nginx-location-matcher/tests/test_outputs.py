"""Configs and URIs are generated here; the expected blocks come from a model of nginx's rules."""
import os
import random
import re
import subprocess
import tempfile

import pytest

RNG = random.Random(1504)
TOOL = "/app/locmatch"


def run(config_text, uris):
    assert os.access(TOOL, os.X_OK), f"{TOOL} is missing or not executable"
    path = tempfile.mktemp(suffix=".conf")
    with open(path, "w") as f:
        f.write(config_text)
    p = subprocess.run([TOOL, path, *uris], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr[-500:]
    return p.stdout.splitlines()


def conf(locs):
    return "server {\n" + "".join(f"    location {(m + ' ') if m else ''}{p} {{ return {c} \"{t}\"; }}\n"
                                  for m, p, c, t in locs) + "}\n"


def norm(uri):
    path = uri.split("?", 1)[0]
    try:
        raw = re.sub(rb"%([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), path.encode())
    except ValueError:
        return None
    if re.search(rb"%(?![0-9A-Fa-f]{2})", path.encode()):
        return None
    path = raw.decode("utf-8", "replace")
    if not path.startswith("/"):
        return None
    segs = re.sub("/+", "/", path)[1:].split("/")
    out = []
    for s in segs:
        if s == ".":
            continue
        if s == "..":
            if not out:
                return None
            out.pop()
        else:
            out.append(s)
    r = "/" + "/".join(out)
    return r + "/" if segs[-1] in (".", "..") and not r.endswith("/") else r


def model(locs, uri):
    u = norm(uri)
    if u is None:
        return "400"
    for m, p, c, t in locs:
        if m == "=" and p == u:
            return f"{c} {t}"
    prefixes = [l for l in locs if l[0] in ("", "^~") and u.startswith(l[1])]
    best = max(prefixes, key=lambda l: len(l[1]), default=None)
    if best and best[0] == "^~":
        return f"{best[2]} {best[3]}"
    for m, p, c, t in locs:
        if m in ("~", "~*") and re.search(p, u, re.I if m == "~*" else 0):
            return f"{c} {t}"
    return f"{best[2]} {best[3]}" if best else "404"


def test_example_config():
    with open("/app/site.conf") as f:
        text = f.read()
    cases = {"/": "200 home", "/index.html": "200 fallback", "/static/logo.PNG": "200 static files",
             "/img/logo.PNG": "200 images", "/api/v2/admin/users": "403 admin", "/api/v2/users": "200 api",
             "/health": "204 health", "/health/": "200 fallback", "/api/x.gif?size=2": "200 images",
             "/static/../api/v1/admin": "403 admin", "//static//a.js": "200 static files"}
    assert run(text, list(cases)) == list(cases.values())


WORDS = ["api", "static", "img", "v1", "v2", "admin", "docs", "a", "b", "x.png", "y.JPG", "z.php", "index.html"]


def rand_locs():
    locs, names = [], iter(f"blk{i}" for i in range(100))
    for _ in range(RNG.randrange(6, 12)):
        depth = RNG.randrange(0, 3)
        prefix = "/" + "/".join(RNG.choice(WORDS[:8]) for _ in range(depth)) + ("/" if depth and RNG.random() < 0.6 else "")
        kind = RNG.random()
        if kind < 0.2:
            locs.append(("=", prefix, RNG.choice([200, 301]), next(names)))
        elif kind < 0.4:
            locs.append(("^~", prefix, 200, next(names)))
        elif kind < 0.7:
            locs.append(("", prefix, 200, next(names)))
        else:
            regex = RNG.choice([r"\.(png|jpe?g)$", r"^/api/v[0-9]+/", r"admin", r"\.php$", r"^/(img|static)/", r"/b/?$"])
            locs.append((RNG.choice(["~", "~*"]), regex, RNG.choice([200, 403]), next(names)))
    return locs


def rand_uri():
    segs = [RNG.choice(WORDS + [".", "..", "", "%61pi", "st%61tic", "v%32"]) for _ in range(RNG.randrange(1, 5))]
    uri = "/" + "/".join(segs)
    if RNG.random() < 0.2:
        uri += "?q=" + RNG.choice(["1", "/static/", "..%2F"])
    return uri


@pytest.mark.parametrize("seed", range(4))
def test_random_configs(seed):
    locs = rand_locs()
    uris = [rand_uri() for _ in range(80)]
    got = run(conf(locs), uris)
    exp = [model(locs, u) for u in uris]
    bad = [(u, g, e) for u, g, e in zip(uris, got, exp) if g != e]
    assert len(got) == len(uris) and not bad, (conf(locs), bad[:5])


def test_normalisation():
    targets = ["/a/", "/a/b", "/", "/c~d", "/x/y/"]
    locs = [("=", t, 200, f"exact {i}") for i, t in enumerate(targets)] + [("", "/", 200, "rest")]
    cases = {"/a/b/..": "200 exact 0", "/a/.": "200 exact 0", "//a///b": "200 exact 1", "/a/./b?x=/../..": "200 exact 1",
             "/%61/%62": "200 exact 1", "/a%2Fb": "200 exact 1", "/q/..": "200 exact 2", "/c%7Ed": "200 exact 3",
             "/x/./y/z/..": "200 exact 4", "/x/y/.": "200 exact 4", "/a/b/../..": "200 exact 2"}
    assert run(conf(locs), list(cases)) == list(cases.values())


def test_rejected_uris():
    locs = [("", "/", 200, "root")]
    bad = ["/..", "/a/../..", "/%zz", "/50%", "/%4", "relative/path", "/a/%2e%2e/%2e%2e"]
    assert run(conf(locs), bad + ["/ok"]) == ["400"] * len(bad) + ["200 root"]


def test_no_match_and_regex_order():
    locs = [("~", "/B", 200, "cs"), ("~*", "/b", 200, "ci"), ("=", "/exact", 200, "ex"), ("^~", "/img/", 200, "img"),
            ("~", "png$", 200, "png"), ("", "/im", 200, "im")]
    cases = {"/B": "200 cs", "/b": "200 ci", "/x/B/c": "200 cs", "/img/a.png": "200 img", "/im/a.png": "200 png",
             "/imx": "200 im", "/exact": "200 ex", "/exact/": "404", "/other": "404", "/a.png": "200 png"}
    assert run(conf(locs), list(cases)) == list(cases.values())
