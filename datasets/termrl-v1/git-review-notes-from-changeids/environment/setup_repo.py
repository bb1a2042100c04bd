"""Builds /app/repo (commits with Change-Id trailers, a release branch with a cherry-pick, stale review notes,
personal notes) and /app/reviews.jsonl (an export of the code-review server) deterministically."""
import hashlib
import json
import os
import random
import subprocess
from pathlib import Path

REPO = Path("/app/repo")
ENV = dict(os.environ, GIT_AUTHOR_NAME="Rui Costa", GIT_AUTHOR_EMAIL="rui@example.pt",
           GIT_COMMITTER_NAME="Rui Costa", GIT_COMMITTER_EMAIL="rui@example.pt")
tick = [0]
rng = random.Random(20250801)
REVIEWERS = ["Ana Silva <ana@example.pt>", "Bo Lindqvist <bo@example.se>", "Chidi Eze <chidi@example.ng>",
             "Dora Kiss <dora@example.hu>", "CI Bot <ci@example.org>"]


def git(*args):
    return subprocess.run(["git", *args], cwd=REPO, env=ENV, check=True, capture_output=True, text=True).stdout.strip()


def at():
    tick[0] += 1
    d = f"2025-08-{1 + tick[0] // 3:02d}T{10 + tick[0] % 3:02d}:{(tick[0] * 11) % 60:02d}:00 +0100"
    ENV.update(GIT_AUTHOR_DATE=d, GIT_COMMITTER_DATE=d)


def change_id(n):
    return "I" + hashlib.sha1(f"change-{n}".encode()).hexdigest()


def commit(path, text, msg):
    at()
    p = REPO / path
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    git("add", "-A")
    git("commit", "-q", "-m", msg)
    return git("rev-parse", "HEAD")


subprocess.run(["git", "init", "-q", "-b", "main", str(REPO)], check=True)
git("config", "gc.auto", "0")
commits = {}
commit("README.md", "# queue\n", "Initial commit")            # no Change-Id
for n in range(1, 13):
    body = f"Queue change number {n}.\n"
    if n == 5:
        body += "\nThe old tracker called this Change-Id: " + change_id(99) + " (ignore it).\n"
    trailers = f"\nChange-Id: {change_id(n)}\n" if n != 8 else "\n"      # change 8 was pushed without one
    if n == 3:
        trailers = f"\nBug: 4411\nChange-Id: {change_id(n)}\nSigned-off-by: Rui Costa <rui@example.pt>\n"
    commits[n] = commit(f"queue/part{n % 4}.py", f"VALUE = {n}\n", f"Queue change {n}\n\n{body}{trailers}")
    if n == 7:
        git("branch", "release/1.0", commits[5])
        git("checkout", "-q", "release/1.0")
        at()
        git("cherry-pick", "-x", commits[6])                      # same Change-Id on the release branch
        commits["6-release"] = git("rev-parse", "HEAD")
        git("checkout", "-q", "main")

# the review export: several patch sets per change; only some changes were reviewed; 99 was abandoned
reviews = []
for n in list(range(1, 13)) + [99, 42]:
    if n in (4, 10):
        continue                                                   # never reviewed
    sets = rng.randint(1, 4)
    for ps in range(1, sets + 1):
        for who in rng.sample(REVIEWERS, rng.randint(1, 3)):
            label = "Verified" if who.startswith("CI Bot") else "Code-Review"
            value = rng.choice([1, -1]) if label == "Verified" else rng.choice([2, 1, 0, -1, -2])
            reviews.append({"change": change_id(n), "patchset": ps, "label": label, "value": value, "by": who,
                            "url": f"https://review.example.org/c/queue/+/{1000 + n}"})
rng.shuffle(reviews)
Path("/app/reviews.jsonl").write_text("".join(json.dumps(r) + "\n" for r in reviews))

# stale notes from an older script, and a developer's personal notes in the default notes ref
at()
git("notes", "--ref=review", "add", "-m", "Reviewed-on: https://review.example.org/c/queue/+/1002\nCode-Review: +2 Ana Silva <ana@example.pt>", commits[2])
git("notes", "--ref=review", "add", "-m", "Reviewed-on: https://review.example.org/c/queue/+/1004\nCode-Review: +1 Bo Lindqvist <bo@example.se>", commits[4])
git("notes", "add", "-m", "remember to benchmark this", commits[9])
