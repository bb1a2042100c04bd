"""Behaviour of the pre-receive hook: every push below is made at test time from a fresh clone, with
content, names and the position of the bad commit drawn at random."""
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

CENTRAL = "/srv/git/project.git"
RNG = random.Random(os.urandom(8))


def git(cwd, *args, check=True):
    r = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=60)
    if check:
        assert r.returncode == 0, f"git {' '.join(args)}: {r.stderr}"
    return r


def word():
    return "".join(RNG.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(RNG.randint(4, 9)))


def good_subject():
    kind = RNG.choice(["feat", "fix", "docs", "chore", "refactor", "test"])
    scope = RNG.choice(["", f"({word()})", f"({word()}-{RNG.randint(1, 99)})"])
    return f"{kind}{scope}: {word()} {word()}"


def commit(repo, subject, files=None):
    files = files or {f"notes/{word()}.txt": word() + "\n"}
    for name, content in files.items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        git(repo, "add", name)
    git(repo, "commit", "-q", "-m", subject)
    return git(repo, "rev-parse", "HEAD").stdout.strip()


def central(ref):
    r = git(CENTRAL, "rev-parse", "-q", "--verify", ref, check=False)
    return r.stdout.strip() if r.returncode == 0 else None


@pytest.fixture()
def repo(tmp_path):
    hook = Path(CENTRAL) / "hooks" / "pre-receive"
    assert hook.is_file() and os.access(hook, os.X_OK), "hooks/pre-receive is missing or not executable"
    backup = tmp_path / "central-backup.git"
    shutil.copytree(CENTRAL, backup, symlinks=True)
    work = tmp_path / "work"
    git(tmp_path, "clone", "-q", CENTRAL, str(work))
    git(work, "config", "user.name", "Test Pusher")
    git(work, "config", "user.email", "pusher@example.org")
    yield work
    # every test starts from the repository as shipped
    shutil.rmtree(CENTRAL)
    shutil.copytree(backup, CENTRAL, symlinks=True)


def push(repo, *refspecs):
    return git(repo, "push", "--porcelain", "origin", *refspecs, check=False)


def test_good_commits_are_accepted(repo):
    for _ in range(RNG.randint(2, 4)):
        head = commit(repo, good_subject())
    long_ok = "fix: " + "x" * 67  # exactly 72 characters
    head = commit(repo, long_ok)
    r = push(repo, "main")
    assert r.returncode == 0, r.stderr
    assert central("refs/heads/main") == head


def test_bad_subject_in_the_middle_refuses_the_push(repo):
    before = central("refs/heads/main")
    n = RNG.randint(3, 5)
    bad_at = RNG.randrange(n - 1)  # never the tip
    bad_subject = RNG.choice([f"Update {word()}", f"feature: {word()}", f"Fix({word()}): {word()}",
                              f"fix({word().upper()}): {word()}", "fix: ", "docs: " + "y" * 67])
    shas = [commit(repo, bad_subject if i == bad_at else good_subject()) for i in range(n)]
    r = push(repo, "main")
    assert r.returncode != 0, "push with a non-conforming commit was accepted"
    assert central("refs/heads/main") == before
    lines = [line for line in r.stderr.splitlines() if "policy:" in line]
    assert any(shas[bad_at] in line and "refs/heads/main" in line for line in lines), r.stderr
    assert not any(s in r.stderr for i, s in enumerate(shas) if i != bad_at), "good commits were reported"


def test_new_branch_checks_only_its_new_commits(repo):
    # A branch at an existing commit brings no new commit: accepted although old history breaks rule 1.
    name = f"topic-{word()}"
    git(repo, "branch", name, "origin/main~2")
    r = push(repo, name)
    assert r.returncode == 0, r.stderr
    # A new branch whose first new commit adds a key file is refused, whatever its tip looks like.
    other = f"work-{word()}"
    git(repo, "checkout", "-q", "-b", other, "origin/legacy-experiments")
    secret = RNG.choice([f"deploy/{word()}.pem", f"{word()}.key", f"ssh/id_rsa{RNG.choice(['', '.pub', '_old'])}"])
    bad = commit(repo, good_subject(), {secret: "-----BEGIN PRIVATE KEY-----\n" + word() + "\n"})
    commit(repo, good_subject())
    r = push(repo, other)
    assert r.returncode != 0 and central(f"refs/heads/{other}") is None
    assert any(bad in line and f"refs/heads/{other}" in line for line in r.stderr.splitlines() if "policy:" in line), r.stderr
    # a name that only contains ".pem" is fine
    harmless = f"docs-{word()}"
    git(repo, "checkout", "-q", "-b", harmless, "origin/main")
    head = commit(repo, good_subject(), {f"docs/{word()}.pem.md": "about pem files\n"})
    r = push(repo, harmless)
    assert r.returncode == 0, r.stderr
    assert central(f"refs/heads/{harmless}") == head


def test_file_size_limit(repo):
    size = 102400
    ok = commit(repo, good_subject(), {f"data/{word()}.bin": RNG.randbytes(size)})
    r = push(repo, "main")
    assert r.returncode == 0, r.stderr
    assert central("refs/heads/main") == ok
    big = commit(repo, good_subject(), {f"data/{word()}.bin": RNG.randbytes(size + 1)})
    commit(repo, good_subject())
    r = push(repo, "main")
    assert r.returncode != 0 and central("refs/heads/main") == ok
    assert any(big in line for line in r.stderr.splitlines() if "policy:" in line), r.stderr


def test_main_is_protected_but_other_branches_are_not(repo):
    before = central("refs/heads/main")
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    commit(repo, good_subject())
    r = push(repo, "+main")
    assert r.returncode != 0 and central("refs/heads/main") == before
    assert any("refs/heads/main" in line for line in r.stderr.splitlines() if "policy:" in line), r.stderr
    r = push(repo, ":main")
    assert r.returncode != 0 and central("refs/heads/main") == before
    # legacy-experiments may be rewritten and deleted
    git(repo, "checkout", "-q", "-b", "legacy-experiments", "origin/main")
    head = commit(repo, good_subject())
    r = push(repo, "+legacy-experiments")
    assert r.returncode == 0, r.stderr
    assert central("refs/heads/legacy-experiments") == head
    r = push(repo, ":legacy-experiments")
    assert r.returncode == 0 and central("refs/heads/legacy-experiments") is None


def test_release_tags(repo):
    version = f"v{RNG.randint(2, 9)}.{RNG.randint(0, 20)}"
    git(repo, "tag", version)  # lightweight
    r = push(repo, f"refs/tags/{version}")
    assert r.returncode != 0 and central(f"refs/tags/{version}") is None
    git(repo, "tag", "-f", "-a", version, "-m", f"Release {version}")
    r = push(repo, f"+refs/tags/{version}")
    assert r.returncode == 0, r.stderr
    assert git(CENTRAL, "cat-file", "-t", f"refs/tags/{version}").stdout.strip() == "tag"
    # an existing release tag may be neither moved nor deleted
    old = central("refs/tags/v1.0")
    git(repo, "tag", "-f", "-a", "v1.0", "-m", "moved", "HEAD")
    assert push(repo, "+refs/tags/v1.0").returncode != 0 and central("refs/tags/v1.0") == old
    assert push(repo, ":refs/tags/v1.0").returncode != 0 and central("refs/tags/v1.0") == old
    # other tags are free
    free = f"build-{word()}"
    git(repo, "tag", free)
    assert push(repo, f"refs/tags/{free}").returncode == 0


def test_merge_commits_are_exempt_and_pushes_are_atomic(repo):
    side = f"side-{word()}"
    git(repo, "checkout", "-q", "-b", side)
    commit(repo, good_subject())
    git(repo, "checkout", "-q", "main")
    commit(repo, good_subject())
    git(repo, "merge", "-q", "--no-ff", side, "-m", f"Merge branch '{side}'")
    merged = git(repo, "rev-parse", "HEAD").stdout.strip()
    # one bad ref in a two-ref push: nothing is updated
    bad_branch = f"bad-{word()}"
    git(repo, "branch", bad_branch)
    git(repo, "checkout", "-q", bad_branch)
    commit(repo, f"Oops {word()}")
    before = central("refs/heads/main")
    r = push(repo, "main", bad_branch)
    assert r.returncode != 0
    assert central("refs/heads/main") == before and central(f"refs/heads/{bad_branch}") is None
    r = push(repo, "main", side)
    assert r.returncode == 0, r.stderr
    assert central("refs/heads/main") == merged


def test_history_and_refs_unchanged():
    refs = git(CENTRAL, "for-each-ref", "--format=%(refname) %(objecttype)").stdout.split("\n")
    assert sorted(filter(None, refs)) == ["refs/heads/legacy-experiments commit", "refs/heads/main commit",
                                          "refs/tags/v1.0 tag"]
    subjects = git(CENTRAL, "log", "--format=%s", "main").stdout.splitlines()
    assert subjects == ["feat(shapes): square helper", "docs: usage line", "add perimeter (quick hack)",
                        "Initial import"]
    assert git(CENTRAL, "fsck", "--no-progress").returncode == 0
