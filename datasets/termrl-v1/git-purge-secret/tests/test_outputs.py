import os
import subprocess

REPO = "/app/repo"
SECRETS = [b"sk_live_51HxTq9LmZ3vQ8pRr2Ys", b"Tr0ub4dor-prod-7731"]


def git(*args, check=True, text=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=text)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc


def subjects(rev):
    return git("log", "--reverse", "--format=%s", rev).stdout.splitlines()


def test_no_secret_in_object_database():
    proc = git("cat-file", "--batch-all-objects", "--batch", text=False)
    blob = proc.stdout
    assert len(blob) > 1000
    for s in SECRETS:
        assert s not in blob, f"{s!r} still stored in the object database"
    # nothing else under .git may keep them either (backup refs, reflogs, packed refs, ...)
    for root, _, files in os.walk(os.path.join(REPO, ".git")):
        for name in files:
            path = os.path.join(root, name)
            if "/objects/" in path:
                continue
            with open(path, "rb") as fh:
                data = fh.read()
            for s in SECRETS:
                assert s not in data, path
    assert git("for-each-ref", "refs/original").stdout == ""


def test_branch_histories():
    assert subjects("main") == [
        "Initial shop skeleton", "Configure payments", "Add currency and DB host", "Add banner",
        "Read secrets from the environment", "Add README",
    ]
    assert subjects("release") == [
        "Initial shop skeleton", "Configure payments", "Add currency and DB host",
        "Increase payment timeout for release",
    ]
    assert git("merge-base", "main", "release").stdout.strip() == git("rev-parse", "main~3").stdout.strip()


def test_prod_env_gone_everywhere():
    revs = git("rev-list", "--all").stdout.split()
    assert len(revs) == 7
    for rev in revs:
        files = git("ls-tree", "-r", "--name-only", rev).stdout.split()
        assert "config/prod.env" not in files, rev
        assert "app/settings.py" in files


def test_settings_redacted_but_otherwise_unchanged():
    assert git("show", "main~4:app/settings.py").stdout == 'MODE = "production"\nSTRIPE_KEY = "REDACTED"\n'
    assert git("show", "release:app/settings.py").stdout == (
        'MODE = "production"\nSTRIPE_KEY = "REDACTED"\nCURRENCY = "EUR"\nTIMEOUT = 30\n')
    assert git("show", "main:app/settings.py").stdout == (
        'import os\n\nMODE = "production"\nSTRIPE_KEY = os.environ["STRIPE_KEY"]\nCURRENCY = "EUR"\n')
    assert "def banner" in git("show", "main:app/main.py").stdout


def test_tags_rewritten_and_annotated():
    for tag, msg, target in (("v0.9", "Beta release 0.9", "main~4"), ("v1.0", "Release 1.0", "release")):
        assert git("cat-file", "-t", tag).stdout.strip() == "tag"
        assert git("tag", "-l", "--format=%(contents:subject)", tag).stdout.strip() == msg
        assert git("rev-parse", f"{tag}^{{commit}}").stdout.strip() == git("rev-parse", target).stdout.strip()


def test_authorship_preserved():
    out = git("log", "--reverse", "--format=%an <%ae> %ad", "--date=iso-strict", "main").stdout.splitlines()
    days = ["01", "03", "04", "06", "07", "08"]
    assert out == [f"Omar Haddad <omar@example.io> 2025-04-{d}T09:00:00+00:00" for d in days]


def test_clean_checkout():
    assert git("symbolic-ref", "--short", "HEAD").stdout.strip() == "main"
    assert git("status", "--porcelain", "--untracked-files=all").stdout == ""
    assert not os.path.exists(os.path.join(REPO, "config", "prod.env"))
