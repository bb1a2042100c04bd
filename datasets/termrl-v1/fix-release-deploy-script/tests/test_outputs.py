import os
import random
import shutil
import subprocess
import tarfile
import tempfile

SCRIPT = "/app/deploy.sh"
SHARED = ["config/app.env", "public/user uploads", "var/cache dir/index.db"]


def rid(rng):
    stem = rng.choice(["shop", "api", "web", "billing"])
    return f"{stem}-{rng.randint(2020, 2030)}.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}-{rng.randint(0, 999)}" \
           f"{rng.choice(['', '_rc', '.b'])}"


def make_artifact(out, release_id, healthy=True, extra=None):
    work = tempfile.mkdtemp()
    files = {"VERSION": release_id + "\n", "config/app.env": "placeholder\n", "public/user uploads/README": "x\n",
             "var/cache dir/.keep": "",
             "app/main.py": f"print({release_id!r})\n"}
    files.update(extra or {})
    for name, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(work, name)) or work, exist_ok=True)
        with open(os.path.join(work, name), "w") as fh:
            fh.write(text)
    os.makedirs(f"{work}/bin")
    with open(f"{work}/bin/healthcheck", "w") as fh:
        fh.write("#!/bin/sh\ngrep -q '^STATUS=ok$' config/app.env && test -f VERSION\n" if healthy else
                 "#!/bin/sh\necho 'database unreachable' >&2\nexit 1\n")
    os.chmod(f"{work}/bin/healthcheck", 0o755)
    # old timestamps inside the archive, as real build systems produce
    for dirpath, dirnames, filenames in os.walk(work):
        for n in dirnames + filenames:
            os.utime(os.path.join(dirpath, n), (1_600_000_000, 1_600_000_000))
    os.utime(work, (1_600_000_000, 1_600_000_000))
    path = os.path.join(out, release_id + ".tar.gz")
    with tarfile.open(path, "w:gz") as tar:
        tar.add(work, arcname=".")
    shutil.rmtree(work)
    return path, sorted(files) + ["bin/healthcheck"]


class Site:
    def __init__(self, rng, relative=False):
        self.base = tempfile.mkdtemp()
        self.cwd = tempfile.mkdtemp()  # the script is never run from the deploy root or a release
        self.root = os.path.join(self.base, f"deploy root {rng.randint(0, 99)}")
        os.makedirs(os.path.join(self.root, "shared", "config"))
        os.makedirs(os.path.join(self.root, "shared", "public", "user uploads"))
        with open(os.path.join(self.root, "shared", "config", "app.env"), "w") as fh:
            fh.write("DB=postgres://db/shop\nSTATUS=ok\n")
        with open(os.path.join(self.root, "shared.list"), "w") as fh:
            fh.write("\n".join(SHARED[:1]) + "\n\n" + "\n".join(SHARED[1:]) + "\n")
        self.arg_root = os.path.relpath(self.root, self.cwd) if relative else self.root
        self.artifacts = tempfile.mkdtemp()
        self.files = {}

    def run(self, arg, keep=None):
        env = dict(os.environ)
        env.pop("KEEP", None)
        if keep is not None:
            env["KEEP"] = str(keep)
        return subprocess.run(["bash", SCRIPT, self.arg_root, arg], cwd=self.cwd, env=env, capture_output=True,
                              text=True)

    def deploy(self, release_id, keep=None, healthy=True):
        path, files = make_artifact(self.artifacts, release_id, healthy)
        self.files[release_id] = files
        return self.run(path, keep)

    def current(self):
        link = os.path.join(self.root, "current")
        assert os.path.islink(link), "current must be a symlink"
        return os.readlink(link)

    def releases(self):
        return sorted(os.listdir(os.path.join(self.root, "releases")))

    def log(self):
        with open(os.path.join(self.root, "deploy.log")) as fh:
            return fh.read().splitlines()


def distinct_ids(rng, n):
    ids = []
    while len(ids) < n:
        i = rid(rng)
        if i not in ids:
            ids.append(i)
    return ids


def check_release_tree(site, release_id):
    rel = os.path.join(site.root, "releases", release_id)
    found = set()
    for dirpath, dirnames, filenames in os.walk(rel):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            if os.path.islink(p) or os.path.isfile(p):
                found.add(os.path.relpath(p, rel))
    expected = {f for f in site.files[release_id] if not any(f == s or f.startswith(s + "/") for s in SHARED)}
    expected |= set(SHARED)
    assert found == expected, (release_id, sorted(found ^ expected))
    for s in SHARED:
        link = os.path.join(rel, s)
        assert os.path.islink(link), s
        assert os.readlink(link) == os.path.join(site.root, "shared", s), (s, os.readlink(link))


def test_first_deploy_links_and_health_check():
    rng = random.Random()
    for relative in (False, True):
        site = Site(rng, relative)
        r = rid(rng)
        proc = site.deploy(r)
        assert proc.returncode == 0, proc.stderr
        assert site.current() == f"releases/{r}"
        assert site.log() == [f"1 {r}"]
        check_release_tree(site, r)
        with open(os.path.join(site.root, "current", "VERSION")) as fh:
            assert fh.read() == r + "\n"


def test_pruning_keeps_the_most_recent_deploys():
    rng = random.Random()
    for keep in (None, rng.randint(1, 2), rng.randint(4, 5)):
        site = Site(rng)
        ids = sorted(distinct_ids(rng, 7))  # name order; the archives all carry the same old timestamps
        for n, r in enumerate(ids, 1):
            proc = site.deploy(r, keep)
            assert proc.returncode == 0, (r, proc.stderr)
            assert site.current() == f"releases/{r}"
        k = 3 if keep is None else keep
        assert site.releases() == sorted(ids[-k:])
        assert site.log() == [f"{n} {r}" for n, r in enumerate(ids, 1)]
        for r in ids[-k:]:
            check_release_tree(site, r)
        visible = sorted(n for n in os.listdir(site.root) if not n.startswith("."))  # e.g. a lock file is fine
        assert visible == ["current", "deploy.log", "releases", "shared", "shared.list"]


def test_rollback_walks_back_and_list():
    rng = random.Random()
    site = Site(rng)
    ids = distinct_ids(rng, 4)
    for r in ids:
        assert site.deploy(r, keep=10).returncode == 0
    assert site.run("--list").stdout == "".join(f"  {r}\n" for r in ids[:-1]) + f"* {ids[-1]}\n"
    for back in (2, 3, 4):
        proc = site.run("--rollback")
        assert proc.returncode == 0, proc.stderr
        assert site.current() == f"releases/{ids[-back]}"
        assert site.run("--list").stdout == "".join(
            f"* {r}\n" if r == ids[-back] else f"  {r}\n" for r in ids)
    proc = site.run("--rollback")
    assert proc.returncode == 1
    assert site.current() == f"releases/{ids[0]}"
    assert site.log() == [f"{n} {r}" for n, r in enumerate(ids, 1)]
    assert site.releases() == sorted(ids)
    # a new deploy after rolling back is the newest again; rollback skips releases that were deleted
    new = rid(rng) + "-new"
    assert site.deploy(new, keep=10).returncode == 0
    shutil.rmtree(os.path.join(site.root, "releases", ids[-1]))
    assert site.run("--rollback").returncode == 0
    assert site.current() == f"releases/{ids[-2]}"


def test_failed_health_check_changes_nothing():
    rng = random.Random()
    site = Site(rng)
    good, bad = distinct_ids(rng, 2)
    assert site.deploy(good).returncode == 0
    proc = site.deploy(bad, healthy=False)
    assert proc.returncode == 3
    assert site.releases() == [good]
    assert site.current() == f"releases/{good}"
    assert site.log() == [f"1 {good}"]
    # a broken shared configuration makes the (healthy) release's check fail too
    with open(os.path.join(site.root, "shared", "config", "app.env"), "w") as fh:
        fh.write("STATUS=maintenance\n")
    assert site.deploy(bad + "-2").returncode == 3
    assert site.releases() == [good]


def test_existing_release_is_refused():
    rng = random.Random()
    site = Site(rng)
    first, second = distinct_ids(rng, 2)
    assert site.deploy(first).returncode == 0
    assert site.deploy(second).returncode == 0
    marker = os.path.join(site.root, "releases", first, "uploaded-by-hand.txt")
    with open(marker, "w") as fh:
        fh.write("keep me\n")
    proc = site.deploy(first)
    assert proc.returncode == 2
    assert os.path.exists(marker)
    assert site.current() == f"releases/{second}"
    assert site.log() == [f"1 {first}", f"2 {second}"]


def test_invalid_artifact_names():
    rng = random.Random()
    site = Site(rng)
    path, _ = make_artifact(site.artifacts, "ok-1")
    for bad in ("bad id.tar.gz", "semi;colon.tar.gz", "release.zip"):
        target = os.path.join(site.artifacts, bad)
        shutil.copy(path, target)
        assert site.run(target).returncode == 64, bad
    assert site.releases() == []
    assert not os.path.lexists(os.path.join(site.root, "current"))
