import os
import random
import shutil
import subprocess
import tempfile

TOOL = "/app/minipatch.py"
PY = "/usr/bin/python3"
VOCAB = ["x = 1", "y = 2", "", "return x", "pass", "# note", "if x:", "    y += 1", "else:", "z = [x, y]"]


# ---------------------------------------------------------------- reference model of the specification
def _parse(text):
    lines = text.splitlines(keepends=True)
    sections, i = [], 0
    while i < len(lines):
        if not (lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")):
            i += 1
            continue
        names = [lines[i][4:].rstrip("\n").split("\t")[0], lines[i + 1][4:].rstrip("\n").split("\t")[0]]
        i += 2
        hunks = []
        while i < len(lines) and lines[i].startswith("@@"):
            head = lines[i].split("@@")[1].split()
            a, b = (head[0][1:].split(",") + ["1"])[:2]
            c, d = (head[1][1:].split(",") + ["1"])[:2]
            a, b, d = int(a), int(b), int(d)
            i += 1
            old, new, last = [], [], None
            while len(old) < b or len(new) < d or (i < len(lines) and lines[i].startswith("\\")):
                line = lines[i]
                i += 1
                if line.startswith("\\"):
                    if last in ("both", "old"):
                        old[-1] = old[-1][:-1] if old[-1].endswith("\n") else old[-1]
                    if last in ("both", "new"):
                        new[-1] = new[-1][:-1] if new[-1].endswith("\n") else new[-1]
                    continue
                tag, body = line[0], line[1:]
                if tag in " -":
                    old.append(body)
                if tag in " +":
                    new.append(body)
                last = {" ": "both", "-": "old", "+": "new"}[tag]
            hunks.append((a, b, old, new))
        sections.append((names, hunks))
    return sections


def _apply(lines, hunks):
    out, done, offset = [], 0, 0
    for a, b, old, new in hunks:
        start = a if b == 0 else a - 1
        exp = start + offset
        cands = [exp] + [p for dist in range(1, len(lines) + abs(exp) + 2) for p in (exp + dist, exp - dist)]
        where = next((p for p in cands if done <= p and p + len(old) <= len(lines) and lines[p:p + len(old)] == old), None)
        if where is None:
            return None
        out += lines[done:where] + new
        done, offset = where + len(old), where - start
    return out + lines[done:]


def model(lines, patch_text):
    sections = _parse(patch_text)
    assert len(sections) == 1
    return _apply(lines, sections[0][1])


# ---------------------------------------------------------------- helpers
def make_lines(rng, n, vocab=VOCAB):
    return [rng.choice(vocab) + "\n" for _ in range(n)]


def mutate(rng, lines, vocab=VOCAB):
    lines = list(lines)
    for _ in range(rng.randint(1, 5)):
        op = rng.random()
        p = rng.randrange(len(lines) + 1)
        if op < 0.35 or not lines:
            lines[p:p] = make_lines(rng, rng.randint(1, 3), vocab)
        elif op < 0.7:
            del lines[min(p, len(lines) - 1):min(p, len(lines) - 1) + rng.randint(1, 3)]
        else:
            q = min(p, len(lines) - 1)
            lines[q] = rng.choice(vocab) + " # changed\n"
    return lines


def text_of(lines, final_newline=True):
    s = "".join(lines)
    return s if final_newline or not s else s[:-1]


def udiff(old_text, new_text, name, ctx, old_name=None, new_name=None):
    """A git-style diff of one file; old_text/new_text None means /dev/null."""
    tmp = tempfile.mkdtemp()
    paths = []
    for label, text in (("old", old_text), ("new", new_text)):
        if text is None:
            paths.append("/dev/null")
        else:
            with open(f"{tmp}/{label}", "w", newline="") as fh:
                fh.write(text)
            paths.append(f"{tmp}/{label}")
    proc = subprocess.run(["git", "diff", "--no-index", f"-U{ctx}", "--no-color", *paths], capture_output=True,
                          text=True)
    shutil.rmtree(tmp)
    assert proc.returncode in (0, 1), proc.stderr
    out = []
    for line in proc.stdout.splitlines(keepends=True):
        if line.startswith("diff --git "):
            line = f"diff --git a/{name} b/{name}\n"
        elif line.startswith("--- "):
            line = "--- /dev/null\n" if old_text is None else f"--- {old_name or 'a/' + name}\n"
        elif line.startswith("+++ "):
            line = "+++ /dev/null\n" if new_text is None else f"+++ {new_name or 'b/' + name}\n"
        out.append(line)
    return "".join(out)


def run_tool(root, patch_text, *args):
    return subprocess.run([PY, TOOL, *args], cwd=root, input=patch_text, capture_output=True, text=True,
                          env={"PATH": "/nonexistent", "LANG": "C.UTF-8"})


def write(root, name, text):
    path = os.path.join(root, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as fh:
        fh.write(text)


def read(root, name):
    with open(os.path.join(root, name), newline="") as fh:
        return fh.read()


# ---------------------------------------------------------------- tests
def test_patches_apply_exactly():
    rng = random.Random()
    for case in range(15):
        root = tempfile.mkdtemp()
        patch, expect = [], {}
        for f in range(rng.randint(1, 3)):
            name = f"pkg{case}/mod{f}.py"
            old = make_lines(rng, rng.choice([1, 2, rng.randint(3, 40)]))
            new = mutate(rng, old)
            old_t, new_t = text_of(old, rng.random() < 0.8), text_of(new, rng.random() < 0.8)
            if old_t == new_t:
                continue
            write(root, name, old_t)
            expect[name] = new_t
            patch.append(udiff(old_t, new_t, name, rng.choice([0, 1, 3])))
        proc = run_tool(root, "".join(patch), "-p1")
        assert proc.returncode == 0, (proc.stdout, proc.stderr, "".join(patch))
        for name, new_t in expect.items():
            assert read(root, name) == new_t, "".join(patch)
        shutil.rmtree(root)


def test_missing_final_newline():
    rng = random.Random()
    for case in range(12):
        old = make_lines(rng, rng.randint(1, 8))
        new = list(old)
        kind = case % 4
        if kind == 0:  # lines appended after a last line without newline
            old_t, new_t = text_of(old, False), text_of(new + make_lines(rng, 2), rng.random() < 0.5)
        elif kind == 1:  # final newline added
            old_t, new_t = text_of(old, False), text_of(new, True)
        elif kind == 2:  # final newline removed
            old_t, new_t = text_of(old, True), text_of(new, False)
        else:  # last line changed, no newline on either side
            new[-1] = "changed " + new[-1]
            old_t, new_t = text_of(old, False), text_of(new, False)
        root = tempfile.mkdtemp()
        write(root, "f.txt", old_t)
        patch = udiff(old_t, new_t, "f.txt", rng.choice([0, 3]))
        proc = run_tool(root, patch, "-p1")
        assert proc.returncode == 0, (proc.stderr, patch)
        assert read(root, "f.txt") == new_t, patch
        shutil.rmtree(root)


def drifted(rng, old, patch_text, vocab):
    """The old file with lines added and removed outside the hunks' old ranges."""
    keep = set()
    for a, b, _, _ in _parse(patch_text)[0][1]:
        keep.update(range(a - 1, a - 1 + max(b, 1)))
    out = []
    for i, line in enumerate(old):
        if rng.random() < 0.15 and not (i in keep and i - 1 in keep):
            out += make_lines(rng, rng.randint(1, 4), vocab)
        if i in keep or rng.random() > 0.25:
            out.append(line)
    return out


def check_offsets(rng, vocab, cases):
    applied = 0
    for _ in range(cases):
        old = make_lines(rng, rng.randint(25, 60), vocab)
        new = mutate(rng, mutate(rng, old, vocab), vocab)
        if old == new:
            continue
        patch = udiff("".join(old), "".join(new), "m.py", rng.choice([1, 2, 3]))
        moved = drifted(rng, old, patch, vocab)
        expect = model(moved, patch)
        root = tempfile.mkdtemp()
        write(root, "m.py", "".join(moved))
        proc = run_tool(root, patch, "-p1")
        if expect is None:
            assert proc.returncode == 1 and read(root, "m.py") == "".join(moved), (proc.stderr, patch)
        else:
            applied += 1
            assert proc.returncode == 0, (proc.stderr, patch, "".join(moved))
            assert read(root, "m.py") == "".join(expect), (patch, "".join(moved))
        shutil.rmtree(root)
    assert applied >= cases // 3


def test_hunks_found_at_offsets_in_both_directions():
    rng = random.Random()
    vocab = [f"line {i}" for i in range(400)]  # mostly unique lines: the right place is unambiguous
    check_offsets(rng, vocab, 20)


def test_ambiguous_context_follows_placement_rules():
    rng = random.Random()
    check_offsets(rng, ["a", "b", "c", "", "b"], 30)  # very repetitive: the placement order decides


def test_create_and_delete_files():
    rng = random.Random()
    root = tempfile.mkdtemp()
    keep_old = make_lines(rng, 12)
    keep_new = mutate(rng, keep_old)
    gone = text_of(make_lines(rng, rng.randint(1, 9)), rng.random() < 0.5)
    created = text_of(make_lines(rng, rng.randint(1, 9)), rng.random() < 0.5)
    sub = f"docs/d{rng.randint(100, 999)}/new/guide.md"
    write(root, "src/keep.py", "".join(keep_old))
    write(root, "src/gone.py", gone)
    patch = (udiff(None, created, sub, 3) + udiff("".join(keep_old), "".join(keep_new), "src/keep.py", 3)
             + udiff(gone, None, "src/gone.py", 3))
    proc = run_tool(root, patch, "-p1")
    assert proc.returncode == 0, (proc.stderr, patch)
    assert read(root, sub) == created
    assert read(root, "src/keep.py") == "".join(keep_new)
    assert not os.path.exists(os.path.join(root, "src/gone.py"))
    # creating a file that already exists fails and leaves it alone
    proc = run_tool(root, udiff(None, "other\n", "src/keep.py", 3), "-p1")
    assert proc.returncode == 1
    assert read(root, "src/keep.py") == "".join(keep_new)


def test_failed_hunk_leaves_file_untouched():
    rng = random.Random()
    vocab = [f"item {i}" for i in range(300)]
    for _ in range(5):
        root = tempfile.mkdtemp()
        old = make_lines(rng, 60, vocab)
        new = list(old)
        new[5] = "first change\n"
        new[50] = "second change\n"
        other_old = make_lines(rng, 10, vocab)
        other_new = other_old[:4] + ["inserted\n"] + other_old[4:]
        patch = (udiff("".join(old), "".join(new), "a.txt", 3, "x/a.txt", "y/a.txt")
                 + udiff("".join(other_old), "".join(other_new), "b.txt", 3, "x/b.txt", "y/b.txt"))
        damaged = list(old)
        damaged[49] = "someone edited this line\n"  # inside the second hunk's context
        write(root, "a.txt", "".join(damaged))
        write(root, "b.txt", "".join(other_old))
        proc = run_tool(root, patch, "-p1")
        assert proc.returncode == 1
        assert "a.txt: hunk #2 FAILED" in proc.stderr
        assert read(root, "a.txt") == "".join(damaged)
        assert read(root, "b.txt") == "".join(other_new)
        shutil.rmtree(root)


def test_malformed_patch_touches_nothing():
    rng = random.Random()
    root = tempfile.mkdtemp()
    first_old = make_lines(rng, 10)
    first_new = mutate(rng, first_old)
    second = make_lines(rng, 10)
    write(root, "one.txt", "".join(first_old))
    write(root, "two.txt", "".join(second))
    good = udiff("".join(first_old), "".join(first_new), "one.txt", 3)
    for bad in ("--- a/two.txt\n+++ b/two.txt\n@@ -1,5 +1,5 @@\n " + second[0] + "-" + second[1],
                "--- a/two.txt\n+++ b/two.txt\n@@ -1,2 +1,2 @@\n " + second[0] + "*" + second[1] + "+x\n",
                "--- a/two.txt\n+++ b/two.txt\n@@ -one,2 +1,2 @@\n " + second[0]):
        proc = run_tool(root, good + bad, "-p1")
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert read(root, "one.txt") == "".join(first_old)
        assert read(root, "two.txt") == "".join(second)
    # and the same patch without the broken section applies
    assert run_tool(root, good, "-p1").returncode == 0
    assert read(root, "one.txt") == "".join(first_new)


def test_hunk_never_lands_before_the_previous_one():
    rng = random.Random()
    for _ in range(4):
        tok = [f"t{rng.randint(0, 10 ** 9)}_{i}\n" for i in range(12)]
        p, q, r = tok[0], tok[1], tok[2]
        # p q r . . . . . . . . p q .  -- the second hunk's text (p q) also sits before the first hunk's end
        lines = [p, q, r] + tok[3:11] + [p, q] + [tok[11]]
        patch = ("--- a/f.txt\n+++ b/f.txt\n"
                 f"@@ -2,2 +2,2 @@\n {q}-{r}+CHANGED {r}"
                 f"@@ -6,2 +6,2 @@\n-{p}+NEW {p} {q}")
        expect = model(lines, patch)
        assert expect == [p, q, "CHANGED " + r] + tok[3:11] + ["NEW " + p, q, tok[11]]
        root = tempfile.mkdtemp()
        write(root, "f.txt", "".join(lines))
        proc = run_tool(root, patch, "-p1")
        assert proc.returncode == 0, proc.stderr
        assert read(root, "f.txt") == "".join(expect)
        shutil.rmtree(root)
