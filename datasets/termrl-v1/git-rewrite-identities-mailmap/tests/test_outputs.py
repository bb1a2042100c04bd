import json
import re
import subprocess

REPO = "/app/repo"
# the tests' own copy of /app/identities.mailmap (changing that file does not change what is expected)
MAILMAP_TEXT = """# canonical identities, in git's mailmap format
Alice Moreau <alice@corp.example>
Alice Moreau <alice@corp.example> <amoreau@home.example>
Alice Moreau <alice@corp.example> <alice@oldcorp.example>
Ben Okafor <ben@corp.example> <ben@laptop.local>
Chen Wei <chen@corp.example> Chen Wei <dev@corp.example>
Dana Levi <dana@corp.example> Dana Levi <dev@corp.example>
"""
MAILMAP = "/tmp/test-identities.mailmap"
with open(MAILMAP, "w") as _fh:
    _fh.write(MAILMAP_TEXT)
REFS = {"refs/heads/main": "Tidy README", "refs/heads/feature/audit": "Log reservations",
        "refs/heads/release/0.2": "Fix version string", "refs/tags/v0.1": "Add CI configuration",
        "refs/tags/v0.2": "Bump version to 0.2", "refs/tags/v0.2.1": "Fix version string"}
ANNOTATED = {"v0.1": "First tagged version\n", "v0.2.1": "Patch release 0.2.1\n\nPrepared by Dana.\n"}
TRAILER = re.compile(r"^(Signed-off-by|Co-authored-by|Reviewed-by): (.*)$")
# the original commits (oldest first): subject, tree, identities, raw dates, parents (by subject), raw message
ORIGINAL = json.loads(r"""
[
 {
  "subject": "Start the inventory service",
  "tree": "f4c5ca0fb0b13f15ebd4d8c3266bd758e16c007f",
  "author": [
   "A. Moreau",
   "alice@oldcorp.example",
   "1751364420 +0200"
  ],
  "committer": [
   "A. Moreau",
   "alice@oldcorp.example",
   "1751364420 +0200"
  ],
  "parents": [],
  "message": "Start the inventory service\n"
 },
 {
  "subject": "Add stock model",
  "tree": "5d805e990c9115acd61c541bf02b7cbdad008fd3",
  "author": [
   "A. Moreau",
   "alice@oldcorp.example",
   "1751375640 +0200"
  ],
  "committer": [
   "A. Moreau",
   "alice@oldcorp.example",
   "1751375640 +0200"
  ],
  "parents": [
   "Start the inventory service"
  ],
  "message": "Add stock model\n\nSigned-off-by: A. Moreau <alice@oldcorp.example>\n"
 },
 {
  "subject": "Add CI configuration",
  "tree": "ecdfd97bbf07f7e43cf64ac7d93c63236ecaf28e",
  "author": [
   "ci-bot",
   "ci@corp.example",
   "1751440860 +0200"
  ],
  "committer": [
   "ci-bot",
   "ci@corp.example",
   "1751440860 +0200"
  ],
  "parents": [
   "Add stock model"
  ],
  "message": "Add CI configuration\n"
 },
 {
  "subject": "Document the stock model",
  "tree": "1f20d9271aebb5385b337e72d4656d39ef88d2d1",
  "author": [
   "Dana Levi",
   "dev@corp.example",
   "1751528520 +0200"
  ],
  "committer": [
   "Dana Levi",
   "dev@corp.example",
   "1751528520 +0200"
  ],
  "parents": [
   "Add CI configuration"
  ],
  "message": "Document the stock model\n"
 },
 {
  "subject": "Validate quantities",
  "tree": "43e2f9f953f756772689d9787d2706e2cd43daff",
  "author": [
   "alice",
   "amoreau@home.example",
   "1751539740 +0200"
  ],
  "committer": [
   "Alice Moreau",
   "alice@corp.example",
   "1751539740 +0200"
  ],
  "parents": [
   "Document the stock model"
  ],
  "message": "Validate quantities\n\nSigned-off-by: alice <amoreau@home.example>\n"
 },
 {
  "subject": "Reserve items",
  "tree": "48cc18a614bc5d9a0e934b80f1f1f439fd68669b",
  "author": [
   "ben",
   "ben@laptop.local",
   "1751452080 +0200"
  ],
  "committer": [
   "ben",
   "ben@laptop.local",
   "1751452080 +0200"
  ],
  "parents": [
   "Add CI configuration"
  ],
  "message": "Reserve items\n\nSigned-off-by: ben <ben@laptop.local>\n"
 },
 {
  "subject": "Release reservations",
  "tree": "6d6edfa9f7c51b3c46f5e0aa4354b094d4b428a9",
  "author": [
   "ben",
   "ben@laptop.local",
   "1751463300 +0200"
  ],
  "committer": [
   "ben",
   "ben@laptop.local",
   "1751463300 +0200"
  ],
  "parents": [
   "Reserve items"
  ],
  "message": "Release reservations\n\nCo-authored-by: Chen Wei <dev@corp.example>\nSigned-off-by: ben <ben@laptop.local>\n"
 },
 {
  "subject": "Merge branch 'feature/reservations'",
  "tree": "6c64efd4cd07fe1d9e3fec41b0ba6e396efdeb02",
  "author": [
   "Alice Moreau",
   "alice@corp.example",
   "1751550960 +0200"
  ],
  "committer": [
   "Alice Moreau",
   "alice@corp.example",
   "1751550960 +0200"
  ],
  "parents": [
   "Validate quantities",
   "Release reservations"
  ],
  "message": "Merge branch 'feature/reservations'\n"
 },
 {
  "subject": "Bump version to 0.2",
  "tree": "08812b68b64cbb5525f551b4edc5b9edcd468c26",
  "author": [
   "Dana Levi",
   "dana@corp.example",
   "1751635020 +0200"
  ],
  "committer": [
   "Dana Levi",
   "dana@corp.example",
   "1751635020 +0200"
  ],
  "parents": [
   "Merge branch 'feature/reservations'"
  ],
  "message": "Bump version to 0.2\n"
 },
 {
  "subject": "Audit log skeleton",
  "tree": "4500faf3c490e31e97a5e4413d9a019b479be5fa",
  "author": [
   "Chen Wei",
   "dev@corp.example",
   "1751612580 +0200"
  ],
  "committer": [
   "Chen Wei",
   "dev@corp.example",
   "1751612580 +0200"
  ],
  "parents": [
   "Merge branch 'feature/reservations'"
  ],
  "message": "Audit log skeleton\n"
 },
 {
  "subject": "Log reservations",
  "tree": "b6936567eb8e0ca0eadb1869f8d2ea87a9d55622",
  "author": [
   "Chen Wei",
   "dev@corp.example",
   "1751623800 +0200"
  ],
  "committer": [
   "Ben Okafor",
   "ben@corp.example",
   "1751623800 +0200"
  ],
  "parents": [
   "Audit log skeleton"
  ],
  "message": "Log reservations\n\nSigned-off-by: Chen Wei <dev@corp.example>\nReviewed-by: Ben Okafor <ben@corp.example>\n"
 },
 {
  "subject": "Merge branch 'feature/audit'",
  "tree": "dcb1762db78c33964daadaace05d1f68f09e177e",
  "author": [
   "Ben Okafor",
   "ben@corp.example",
   "1751700240 +0200"
  ],
  "committer": [
   "Ben Okafor",
   "ben@corp.example",
   "1751700240 +0200"
  ],
  "parents": [
   "Bump version to 0.2",
   "Log reservations"
  ],
  "message": "Merge branch 'feature/audit'\n"
 },
 {
  "subject": "Tidy README",
  "tree": "947f847e7f04ea0255abd14d506a8e86e01f7212",
  "author": [
   "Ben Okafor",
   "ben@corp.example",
   "1751711460 +0200"
  ],
  "committer": [
   "ci-bot",
   "ci@corp.example",
   "1751711460 +0200"
  ],
  "parents": [
   "Merge branch 'feature/audit'"
  ],
  "message": "Tidy README\n\nSigned-off-by: Ben Okafor <ben@corp.example>\n"
 },
 {
  "subject": "Fix version string",
  "tree": "740dcc623291a1fc63f2696810de1450c40b69af",
  "author": [
   "Dana Levi",
   "dev@corp.example",
   "1751722680 +0200"
  ],
  "committer": [
   "Dana Levi",
   "dev@corp.example",
   "1751722680 +0200"
  ],
  "parents": [
   "Bump version to 0.2"
  ],
  "message": "Fix version string\n\nSigned-off-by: Dana Levi <dev@corp.example>\n"
 }
]
""")


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc.stdout


def canonical(ident):
    return git("-c", f"mailmap.file={MAILMAP}", "check-mailmap", ident).strip()


def expected_message(msg):
    lines = []
    for line in msg.split("\n"):
        m = TRAILER.match(line)
        lines.append(f"{m.group(1)}: {canonical(m.group(2))}" if m else line)
    return "\n".join(lines)


def rewritten():
    """subject -> commit info of every commit reachable from the branches and tags now"""
    out = {}
    for h in git("rev-list", "--all").split():
        f = git("log", "-1", "--format=%T%x00%an <%ae>%x00%ad%x00%cn <%ce>%x00%cd%x00%P", "--date=raw", h)
        tree, author, adate, committer, cdate, parents = f.rstrip("\n").split("\x00")
        msg = git("cat-file", "commit", h).split("\n\n", 1)[1]
        subject = msg.split("\n")[0]
        assert subject not in out, f"two commits titled {subject!r} are reachable: old history is still there"
        out[subject] = dict(hash=h, tree=tree, author=author, adate=adate, committer=committer, cdate=cdate,
                            parents=parents.split(), message=msg)
    return out


def test_same_commits_same_trees_same_dates():
    now = rewritten()
    assert sorted(now) == sorted(c["subject"] for c in ORIGINAL)
    for c in ORIGINAL:
        n = now[c["subject"]]
        assert n["tree"] == c["tree"], c["subject"]
        assert n["adate"] == c["author"][2] and n["cdate"] == c["committer"][2], c["subject"]


def test_merge_structure_kept():
    now = rewritten()
    by_hash = {v["hash"]: k for k, v in now.items()}
    for c in ORIGINAL:
        assert [by_hash[p] for p in now[c["subject"]]["parents"]] == c["parents"], c["subject"]


def test_identities_canonical():
    now = rewritten()
    for c in ORIGINAL:
        n = now[c["subject"]]
        assert n["author"] == canonical(f"{c['author'][0]} <{c['author'][1]}>"), c["subject"]
        assert n["committer"] == canonical(f"{c['committer'][0]} <{c['committer'][1]}>"), c["subject"]
    # the shared team address belonged to two people
    assert now["Audit log skeleton"]["author"] == "Chen Wei <chen@corp.example>"
    assert now["Document the stock model"]["author"] == "Dana Levi <dana@corp.example>"
    assert now["Add CI configuration"]["author"] == "ci-bot <ci@corp.example>"


def test_messages_and_trailers():
    now = rewritten()
    for c in ORIGINAL:
        assert now[c["subject"]]["message"] == expected_message(c["message"]), c["subject"]


def test_refs_point_to_rewritten_commits():
    now = rewritten()
    refs = git("for-each-ref", "--format=%(refname)").split()
    assert sorted(r for r in refs if r.startswith(("refs/heads/", "refs/tags/"))) == sorted(REFS)
    assert not [r for r in refs if r.startswith("refs/original/")], refs
    for ref, subject in REFS.items():
        assert git("rev-parse", ref + "^{commit}").strip() == now[subject]["hash"], ref
    for tag, message in ANNOTATED.items():
        assert git("cat-file", "-t", f"refs/tags/{tag}").strip() == "tag", tag
        assert git("cat-file", "tag", f"refs/tags/{tag}").split("\n\n", 1)[1] == message
    assert git("cat-file", "-t", "refs/tags/v0.2").strip() == "commit"


def test_clean_and_no_mailmap_committed():
    assert git("symbolic-ref", "--short", "HEAD").strip() == "main"
    assert git("status", "--porcelain", "--untracked-files=all") == ""
    for ref in REFS:
        assert ".mailmap" not in git("ls-tree", "-r", "--name-only", ref).split()
