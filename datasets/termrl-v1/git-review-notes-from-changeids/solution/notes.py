"""Write refs/notes/review from /app/reviews.jsonl, keyed by each commit's Change-Id trailer."""
import json
import os
import subprocess
import sys

MODE = os.environ.get("NOTES_MODE", "correct")
REPO = "/app/repo"


def git(*args, inp=None):
    return subprocess.run(["git", "-C", REPO, *args], input=inp, check=True, capture_output=True, text=True).stdout


reviews = [json.loads(line) for line in open("/app/reviews.jsonl") if line.strip()]
by_change = {}
for r in reviews:
    by_change.setdefault(r["change"], []).append(r)


def note_for(change):
    entries = by_change.get(change)
    if not entries:
        return None
    if MODE != "all_patchsets":
        top = max(e["patchset"] for e in entries)
        entries = [e for e in entries if e["patchset"] == top]
    lines = [f"Reviewed-on: {entries[0]['url']}"]
    for e in sorted(entries, key=lambda e: (e["label"], e["by"])):
        value = f"{e['value']:+d}" if e["value"] else "0"
        lines.append(f"{e['label']}: {value} {e['by']}")
    return "\n".join(lines) + "\n"


def change_of(commit):
    msg = git("log", "-1", "--format=%B", commit)
    if MODE == "grep":
        for line in msg.splitlines():
            if "Change-Id: I" in line:
                return line.split("Change-Id: ", 1)[1].split()[0]
        return None
    ids = [line.split(": ", 1)[1] for line in git("interpret-trailers", "--parse", inp=msg).splitlines()
           if line.startswith("Change-Id: ")]
    return ids[-1] if ids else None


commits = git("rev-list", "--branches").split()
wanted = {}
for c in commits:
    change = change_of(c)
    note = note_for(change) if change else None
    if note:
        wanted[c] = note
existing = {line.split()[1] for line in git("notes", "--ref=review", "list").splitlines()}
for c, note in wanted.items():
    if MODE == "append" and c in existing:
        git("notes", "--ref=review", "append", "-F", "-", c, inp=note)
    else:
        git("notes", "--ref=review", "add", "-f", "-F", "-", c, inp=note)
if MODE != "append":
    for c in existing - set(wanted):
        git("notes", "--ref=review", "remove", c)
git("config", "notes.displayRef", "refs/notes/review")
print(len(wanted), "notes", file=sys.stderr)
