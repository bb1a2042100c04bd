"""Builds /app/repo deterministically: several people committed under several identities (one address is
shared by two people), with merges, trailers and tags; /app/identities.mailmap says who is who."""
import os
import subprocess
from pathlib import Path

REPO = Path("/app/repo")
ENV = dict(os.environ)
tick = [0]

# (name, email) as recorded in commits
ALICE_WORK = ("Alice Moreau", "alice@corp.example")
ALICE_HOME = ("alice", "amoreau@home.example")
ALICE_OLD = ("A. Moreau", "alice@oldcorp.example")
BEN = ("Ben Okafor", "ben@corp.example")
BEN_LAPTOP = ("ben", "ben@laptop.local")
SHARED_CHEN = ("Chen Wei", "dev@corp.example")       # two people used the team address
SHARED_DANA = ("Dana Levi", "dev@corp.example")
DANA = ("Dana Levi", "dana@corp.example")
BOT = ("ci-bot", "ci@corp.example")                   # not in the mailmap: stays as it is


def git(*args):
    return subprocess.run(["git", *args], cwd=REPO, env=ENV, check=True, capture_output=True, text=True).stdout


def write(path, text):
    p = REPO / path
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def commit(msg, author, committer=None, files=None):
    tick[0] += 1
    date = f"2025-07-{1 + tick[0] // 3:02d}T{9 + (tick[0] % 3) * 3:02d}:{(tick[0] * 7) % 60:02d}:00 +0200"
    committer = committer or author
    ENV.update(GIT_AUTHOR_NAME=author[0], GIT_AUTHOR_EMAIL=author[1], GIT_COMMITTER_NAME=committer[0],
               GIT_COMMITTER_EMAIL=committer[1], GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    for path, text in (files or {}).items():
        write(path, text)
    git("add", "-A")
    git("commit", "-q", "--allow-empty", "-m", msg)


def merge(branch, msg, committer):
    tick[0] += 1
    date = f"2025-07-{1 + tick[0] // 3:02d}T{9 + (tick[0] % 3) * 3:02d}:{(tick[0] * 7) % 60:02d}:00 +0200"
    ENV.update(GIT_AUTHOR_NAME=committer[0], GIT_AUTHOR_EMAIL=committer[1], GIT_COMMITTER_NAME=committer[0],
               GIT_COMMITTER_EMAIL=committer[1], GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    git("merge", "-q", "--no-ff", "-m", msg, branch)


def sob(person):
    return f"Signed-off-by: {person[0]} <{person[1]}>"


subprocess.run(["git", "init", "-q", "-b", "main", str(REPO)], check=True)
git("config", "gc.auto", "0")
commit("Start the inventory service", ALICE_OLD, files={"inv/__init__.py": "", "README.md": "# inv\n"})
commit(f"Add stock model\n\n{sob(ALICE_OLD)}\n", ALICE_OLD, files={"inv/stock.py": "class Stock:\n    pass\n"})
commit("Add CI configuration", BOT, files={".ci.yml": "steps: [test]\n"})
git("tag", "-a", "v0.1", "-m", "First tagged version")
git("checkout", "-q", "-b", "feature/reservations")
commit(f"Reserve items\n\n{sob(BEN_LAPTOP)}\n", BEN_LAPTOP, files={"inv/reserve.py": "def reserve(s, n):\n    return n\n"})
commit(f"Release reservations\n\nCo-authored-by: {SHARED_CHEN[0]} <{SHARED_CHEN[1]}>\n{sob(BEN_LAPTOP)}\n",
       BEN_LAPTOP, files={"inv/reserve.py": "def reserve(s, n):\n    return n\n\n\ndef release(s, n):\n    return -n\n"})
git("checkout", "-q", "main")
commit("Document the stock model", SHARED_DANA, files={"docs/stock.md": "# Stock\n"})
commit(f"Validate quantities\n\n{sob(ALICE_HOME)}\n", ALICE_HOME, committer=ALICE_WORK,
       files={"inv/stock.py": "class Stock:\n    def check(self, n):\n        return n >= 0\n"})
merge("feature/reservations", "Merge branch 'feature/reservations'", ALICE_WORK)
git("checkout", "-q", "-b", "feature/audit")
commit("Audit log skeleton", SHARED_CHEN, files={"inv/audit.py": "LOG = []\n"})
commit(f"Log reservations\n\n{sob(SHARED_CHEN)}\nReviewed-by: {BEN[0]} <{BEN[1]}>\n", SHARED_CHEN, committer=BEN,
       files={"inv/audit.py": "LOG = []\n\n\ndef log(event):\n    LOG.append(event)\n"})
git("checkout", "-q", "main")
commit("Bump version to 0.2", DANA, files={"VERSION": "0.2\n"})
git("tag", "v0.2")
merge("feature/audit", "Merge branch 'feature/audit'", BEN)
commit(f"Tidy README\n\n{sob(BEN)}\n", BEN, committer=BOT, files={"README.md": "# inv\n\nInventory service.\n"})
git("branch", "-q", "release/0.2", "v0.2")
git("checkout", "-q", "release/0.2")
commit(f"Fix version string\n\n{sob(SHARED_DANA)}\n", SHARED_DANA, files={"VERSION": "0.2.1\n"})
git("tag", "-a", "v0.2.1", "-m", "Patch release 0.2.1\n\nPrepared by Dana.")
git("checkout", "-q", "main")
git("branch", "-q", "-d", "feature/reservations")

Path("/app/identities.mailmap").write_text(
    "# canonical identities, in git's mailmap format\n"
    "Alice Moreau <alice@corp.example>\n"
    "Alice Moreau <alice@corp.example> <amoreau@home.example>\n"
    "Alice Moreau <alice@corp.example> <alice@oldcorp.example>\n"
    "Ben Okafor <ben@corp.example> <ben@laptop.local>\n"
    "Chen Wei <chen@corp.example> Chen Wei <dev@corp.example>\n"
    "Dana Levi <dana@corp.example> Dana Levi <dev@corp.example>\n"
)
