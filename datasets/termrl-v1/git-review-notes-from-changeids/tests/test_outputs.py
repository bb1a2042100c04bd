import hashlib
import json
import subprocess

REPO = "/app/repo"
TIPS = {"refs/heads/main": "c32e4fe22bfa99312d27ce2e8d0df2f766281920",
        "refs/heads/release/1.0": "0845a04cc4ac1fd2c97f2bfdad5373e45772f4b3",
        "refs/notes/commits": "3347d6306de0cdd7daa8908f483e2a9f05ee1e64"}
# the tests' own copy of /app/reviews.jsonl
REVIEWS = [json.loads(line) for line in """
{"change": "Id1889d48c89d26ae9db2b36fe24e4c5d370a6dce", "patchset": 1, "label": "Code-Review", "value": 0, "by": "Bo Lindqvist <bo@example.se>", "url": "https://review.example.org/c/queue/+/1042"}
{"change": "Ie5a540a7ebc5db4d8b9f7b2dd74d3de44038bb51", "patchset": 2, "label": "Code-Review", "value": 2, "by": "Bo Lindqvist <bo@example.se>", "url": "https://review.example.org/c/queue/+/1099"}
{"change": "I8caf3384f2304302a1216d838e09f66c6a5b660c", "patchset": 1, "label": "Code-Review", "value": 0, "by": "Bo Lindqvist <bo@example.se>", "url": "https://review.example.org/c/queue/+/1002"}
{"change": "Id1889d48c89d26ae9db2b36fe24e4c5d370a6dce", "patchset": 3, "label": "Code-Review", "value": -1, "by": "Chidi Eze <chidi@example.ng>", "url": "https://review.example.org/c/queue/+/1042"}
{"change": "I8caf3384f2304302a1216d838e09f66c6a5b660c", "patchset": 1, "label": "Verified", "value": 1, "by": "CI Bot <ci@example.org>", "url": "https://review.example.org/c/queue/+/1002"}
{"change": "I1f079a2cbeb8947d1e1caf6bbf6824121541ce31", "patchset": 2, "label": "Code-Review", "value": -1, "by": "Bo Lindqvist <bo@example.se>", "url": "https://review.example.org/c/queue/+/1003"}
{"change": "Ic97cf0b769f9abf9bce5ab0ea3ac2b9aa2742842", "patchset": 1, "label": "Code-Review", "value": 0, "by": "Chidi Eze <chidi@example.ng>", "url": "https://review.example.org/c/queue/+/1011"}
{"change": "Ie5a540a7ebc5db4d8b9f7b2dd74d3de44038bb51", "patchset": 1, "label": "Code-Review", "value": 2, "by": "Dora Kiss <dora@example.hu>", "url": "https://review.example.org/c/queue/+/1099"}
{"change": "Id1889d48c89d26ae9db2b36fe24e4c5d370a6dce", "patchset": 1, "label": "Code-Review", "value": 1, "by": "Chidi Eze <chidi@example.ng>", "url": "https://review.example.org/c/queue/+/1042"}
{"change": "Id1889d48c89d26ae9db2b36fe24e4c5d370a6dce", "patchset": 2, "label": "Code-Review", "value": -1, "by": "Bo Lindqvist <bo@example.se>", "url": "https://review.example.org/c/queue/+/1042"}
{"change": "I52cf5619c4e78d9027996e7579c54d5a8bd37a81", "patchset": 1, "label": "Code-Review", "value": 2, "by": "Ana Silva <ana@example.pt>", "url": "https://review.example.org/c/queue/+/1009"}
{"change": "I54b1d043db716686e3fd1f5c5b978a104326ca9e", "patchset": 1, "label": "Verified", "value": 1, "by": "CI Bot <ci@example.org>", "url": "https://review.example.org/c/queue/+/1001"}
{"change": "Ic97cf0b769f9abf9bce5ab0ea3ac2b9aa2742842", "patchset": 2, "label": "Verified", "value": -1, "by": "CI Bot <ci@example.org>", "url": "https://review.example.org/c/queue/+/1011"}
{"change": "Id1889d48c89d26ae9db2b36fe24e4c5d370a6dce", "patchset": 4, "label": "Verified", "value": 1, "by": "CI Bot <ci@example.org>", "url": "https://review.example.org/c/queue/+/1042"}
{"change": "Id1889d48c89d26ae9db2b36fe24e4c5d370a6dce", "patchset": 3, "label": "Verified", "value": -1, "by": "CI Bot <ci@example.org>", "url": "https://review.example.org/c/queue/+/1042"}
{"change": "Ic8e4b383d70deb44c8888271e5be4de2adbe6f21", "patchset": 2, "label": "Code-Review", "value": 2, "by": "Chidi Eze <chidi@example.ng>", "url": "https://review.example.org/c/queue/+/1008"}
{"change": "I8caf3384f2304302a1216d838e09f66c6a5b660c", "patchset": 1, "label": "Code-Review", "value": -1, "by": "Dora Kiss <dora@example.hu>", "url": "https://review.example.org/c/queue/+/1002"}
{"change": "I52cf5619c4e78d9027996e7579c54d5a8bd37a81", "patchset": 1, "label": "Code-Review", "value": 1, "by": "Chidi Eze <chidi@example.ng>", "url": "https://review.example.org/c/queue/+/1009"}
{"change": "I52cf5619c4e78d9027996e7579c54d5a8bd37a81", "patchset": 2, "label": "Code-Review", "value": 0, "by": "Dora Kiss <dora@example.hu>", "url": "https://review.example.org/c/queue/+/1009"}
{"change": "Iaeca67df33539b18b43af26a7e613b890f300cf3", "patchset": 1, "label": "Verified", "value": 1, "by": "CI Bot <ci@example.org>", "url": "https://review.example.org/c/queue/+/1007"}
{"change": "I957aa46a2b6801881bb1031d3bf8bdb6104c451e", "patchset": 3, "label": "Code-Review", "value": 2, "by": "Chidi Eze <chidi@example.ng>", "url": "https://review.example.org/c/queue/+/1006"}
{"change": "Ic97cf0b769f9abf9bce5ab0ea3ac2b9aa2742842", "patchset": 2, "label": "Code-Review", "value": 0, "by": "Bo Lindqvist <bo@example.se>", "url": "https://review.example.org/c/queue/+/1011"}
{"change": "I52cf5619c4e78d9027996e7579c54d5a8bd37a81", "patchset": 2, "label": "Code-Review", "value": 0, "by": "Bo Lindqvist <bo@example.se>", "url": "https://review.example.org/c/queue/+/1009"}
{"change": "I1f079a2cbeb8947d1e1caf6bbf6824121541ce31", "patchset": 3, "label": "Code-Review", "value": -2, "by": "Ana Silva <ana@example.pt>", "url": "https://review.example.org/c/queue/+/1003"}
{"change": "I1f079a2cbeb8947d1e1caf6bbf6824121541ce31", "patchset": 2, "label": "Code-Review", "value": 1, "by": "Dora Kiss <dora@example.hu>", "url": "https://review.example.org/c/queue/+/1003"}
{"change": "I54b1d043db716686e3fd1f5c5b978a104326ca9e", "patchset": 1, "label": "Code-Review", "value": -1, "by": "Dora Kiss <dora@example.hu>", "url": "https://review.example.org/c/queue/+/1001"}
{"change": "Ic97cf0b769f9abf9bce5ab0ea3ac2b9aa2742842", "patchset": 4, "label": "Verified", "value": 1, "by": "CI Bot <ci@example.org>", "url": "https://review.example.org/c/queue/+/1011"}
{"change": "I1f079a2cbeb8947d1e1caf6bbf6824121541ce31", "patchset": 1, "label": "Code-Review", "value": 0, "by": "Ana Silva <ana@example.pt>", "url": "https://review.example.org/c/queue/+/1003"}
{"change": "Ic97cf0b769f9abf9bce5ab0ea3ac2b9aa2742842", "patchset": 3, "label": "Code-Review", "value": 0, "by": "Ana Silva <ana@example.pt>", "url": "https://review.example.org/c/queue/+/1011"}
{"change": "I17ece379939f699754119c1973861cf36419035d", "patchset": 2, "label": "Code-Review", "value": 1, "by": "Chidi Eze <chidi@example.ng>", "url": "https://review.example.org/c/queue/+/1012"}
{"change": "Iaeca67df33539b18b43af26a7e613b890f300cf3", "patchset": 1, "label": "Code-Review", "value": 0, "by": "Dora Kiss <dora@example.hu>", "url": "https://review.example.org/c/queue/+/1007"}
{"change": "Id1889d48c89d26ae9db2b36fe24e4c5d370a6dce", "patchset": 1, "label": "Verified", "value": 1, "by": "CI Bot <ci@example.org>", "url": "https://review.example.org/c/queue/+/1042"}
{"change": "I1f079a2cbeb8947d1e1caf6bbf6824121541ce31", "patchset": 1, "label": "Code-Review", "value": 2, "by": "Chidi Eze <chidi@example.ng>", "url": "https://review.example.org/c/queue/+/1003"}
{"change": "Ic97cf0b769f9abf9bce5ab0ea3ac2b9aa2742842", "patchset": 4, "label": "Code-Review", "value": 1, "by": "Ana Silva <ana@example.pt>", "url": "https://review.example.org/c/queue/+/1011"}
{"change": "I957aa46a2b6801881bb1031d3bf8bdb6104c451e", "patchset": 1, "label": "Code-Review", "value": -1, "by": "Ana Silva <ana@example.pt>", "url": "https://review.example.org/c/queue/+/1006"}
{"change": "I957aa46a2b6801881bb1031d3bf8bdb6104c451e", "patchset": 2, "label": "Code-Review", "value": 1, "by": "Bo Lindqvist <bo@example.se>", "url": "https://review.example.org/c/queue/+/1006"}
{"change": "Ie5a540a7ebc5db4d8b9f7b2dd74d3de44038bb51", "patchset": 1, "label": "Code-Review", "value": 0, "by": "Bo Lindqvist <bo@example.se>", "url": "https://review.example.org/c/queue/+/1099"}
{"change": "Ie5a540a7ebc5db4d8b9f7b2dd74d3de44038bb51", "patchset": 1, "label": "Code-Review", "value": -2, "by": "Ana Silva <ana@example.pt>", "url": "https://review.example.org/c/queue/+/1099"}
{"change": "I54b1d043db716686e3fd1f5c5b978a104326ca9e", "patchset": 1, "label": "Code-Review", "value": -2, "by": "Bo Lindqvist <bo@example.se>", "url": "https://review.example.org/c/queue/+/1001"}
{"change": "I1f079a2cbeb8947d1e1caf6bbf6824121541ce31", "patchset": 2, "label": "Verified", "value": -1, "by": "CI Bot <ci@example.org>", "url": "https://review.example.org/c/queue/+/1003"}
{"change": "Iaeca67df33539b18b43af26a7e613b890f300cf3", "patchset": 2, "label": "Code-Review", "value": -1, "by": "Ana Silva <ana@example.pt>", "url": "https://review.example.org/c/queue/+/1007"}
{"change": "Id1889d48c89d26ae9db2b36fe24e4c5d370a6dce", "patchset": 3, "label": "Code-Review", "value": 0, "by": "Ana Silva <ana@example.pt>", "url": "https://review.example.org/c/queue/+/1042"}
{"change": "Ic97cf0b769f9abf9bce5ab0ea3ac2b9aa2742842", "patchset": 1, "label": "Verified", "value": 1, "by": "CI Bot <ci@example.org>", "url": "https://review.example.org/c/queue/+/1011"}
{"change": "I957aa46a2b6801881bb1031d3bf8bdb6104c451e", "patchset": 1, "label": "Code-Review", "value": 1, "by": "Bo Lindqvist <bo@example.se>", "url": "https://review.example.org/c/queue/+/1006"}
{"change": "Ic97cf0b769f9abf9bce5ab0ea3ac2b9aa2742842", "patchset": 2, "label": "Code-Review", "value": 2, "by": "Dora Kiss <dora@example.hu>", "url": "https://review.example.org/c/queue/+/1011"}
{"change": "Ie2b925a529d2f20728ec2bd818c7e6f7ea9a7c46", "patchset": 1, "label": "Code-Review", "value": 1, "by": "Chidi Eze <chidi@example.ng>", "url": "https://review.example.org/c/queue/+/1005"}
{"change": "I17ece379939f699754119c1973861cf36419035d", "patchset": 1, "label": "Code-Review", "value": 2, "by": "Dora Kiss <dora@example.hu>", "url": "https://review.example.org/c/queue/+/1012"}
{"change": "Ic8e4b383d70deb44c8888271e5be4de2adbe6f21", "patchset": 1, "label": "Verified", "value": -1, "by": "CI Bot <ci@example.org>", "url": "https://review.example.org/c/queue/+/1008"}
{"change": "I17ece379939f699754119c1973861cf36419035d", "patchset": 1, "label": "Code-Review", "value": 1, "by": "Ana Silva <ana@example.pt>", "url": "https://review.example.org/c/queue/+/1012"}
{"change": "Ie2b925a529d2f20728ec2bd818c7e6f7ea9a7c46", "patchset": 2, "label": "Code-Review", "value": 1, "by": "Dora Kiss <dora@example.hu>", "url": "https://review.example.org/c/queue/+/1005"}
{"change": "Id1889d48c89d26ae9db2b36fe24e4c5d370a6dce", "patchset": 2, "label": "Code-Review", "value": 0, "by": "Dora Kiss <dora@example.hu>", "url": "https://review.example.org/c/queue/+/1042"}""".strip().splitlines()]


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc.stdout


def change_id(n):
    return "I" + hashlib.sha1(f"change-{n}".encode()).hexdigest()


def commits():
    """(hash, change number or None) for every commit on the branches"""
    out = []
    for h in git("rev-list", "main", "release/1.0").split():
        subject = git("log", "-1", "--format=%s", h).strip()
        n = int(subject.split()[-1]) if subject.startswith("Queue change ") else None
        out.append((h, None if n == 8 else n))
    return out


def expected_note(n):
    entries = [r for r in REVIEWS if r["change"] == change_id(n)]
    if not entries:
        return None
    top = max(r["patchset"] for r in entries)
    entries = sorted((r for r in entries if r["patchset"] == top), key=lambda r: (r["label"], r["by"]))
    lines = [f"Reviewed-on: {entries[0]['url']}"]
    lines += [f"{r['label']}: {('%+d' % r['value']) if r['value'] else '0'} {r['by']}" for r in entries]
    return "\n".join(lines) + "\n"


def note(h):
    proc = subprocess.run(["git", "-C", REPO, "notes", "--ref=review", "show", h], capture_output=True, text=True)
    return proc.stdout if proc.returncode == 0 else None


def test_reviewed_commits_have_their_review():
    checked = 0
    for h, n in commits():
        if n is not None and expected_note(n):
            assert note(h) == expected_note(n), (n, note(h))
            checked += 1
    assert checked == 10


def test_latest_patch_set_only():
    multi = [n for n in range(1, 13) if len({r["patchset"] for r in REVIEWS if r["change"] == change_id(n)}) > 1]
    assert multi
    for h, n in commits():
        if n in multi:
            text = note(h)
            top = max(r["patchset"] for r in REVIEWS if r["change"] == change_id(n))
            assert len(text.splitlines()) == 1 + sum(
                1 for r in REVIEWS if r["change"] == change_id(n) and r["patchset"] == top), n


def test_change_id_comes_from_the_trailer():
    for h, n in commits():
        if n == 5:
            assert note(h).startswith("Reviewed-on: https://review.example.org/c/queue/+/1005\n"), note(h)


def test_no_other_review_notes():
    want = {h for h, n in commits() if n is not None and expected_note(n)}
    have = {line.split()[1] for line in git("notes", "--ref=review", "list").splitlines()}
    assert have == want


def test_cherry_pick_on_release_branch_has_the_note():
    h = git("rev-parse", "release/1.0").strip()
    assert note(h) == expected_note(6)


def test_personal_notes_and_history_untouched():
    for ref, sha in TIPS.items():
        assert git("rev-parse", ref).strip() == sha, ref


def test_git_log_shows_review_notes():
    h = git("rev-parse", "main").strip()
    out = git("log", "-1", h)
    assert "Notes (review):" in out, out
    assert expected_note(12).splitlines()[0] in out
