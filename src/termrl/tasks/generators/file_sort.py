"""file-sort: sort a generated inbox of files into folders by extension.

Level 2 nests the inbox and asks for flattened, lower-cased names; level 3 adds empty files to
delete and duplicate contents to keep once.
"""

from __future__ import annotations

import hashlib
import random

from termrl.tasks.generators._common import WORDS, Family, Instance, bullet_list, python_script, render

CATEGORIES = {
    "images": (["images", "pictures", "img"], ["jpg", "png", "gif"]),
    "documents": (["docs", "documents", "papers"], ["txt", "md", "pdf"]),
    "data": (["data", "datasets", "tables"], ["csv", "json", "xml"]),
    "archives": (["archives", "packed", "bundles"], ["zip", "tar", "7z"]),
    "code": (["code", "scripts", "src"], ["py", "sh", "js"]),
}
UNMAPPED = ["log", "bak", "tmp", "ini", "old"]
SUBDIRS = ["2024", "misc", "from-phone", "Work", "old stuff", "x"]

SOLVE = """
import hashlib, shutil
from pathlib import Path
MAP, RECURSIVE, LOWER, DEDUP, IGNORE_CASE = @@MAP@@, @@RECURSIVE@@, @@LOWER@@, @@DEDUP@@, @@IGNORE_CASE@@
inbox = Path("/app/inbox")
found = inbox.rglob("*") if RECURSIVE else inbox.iterdir()
files = sorted((p for p in found if p.is_file()), key=lambda p: p.relative_to(inbox).as_posix())
seen = set()
for path in files:
    ext = path.suffix[1:].lower() if IGNORE_CASE else path.suffix[1:]
    if ext not in MAP:
        continue
    if DEDUP:
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if not data or digest in seen:
            path.unlink()
            continue
        seen.add(digest)
    dest = Path("/app/sorted") / MAP[ext] / (path.name.lower() if LOWER else path.name)
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(path), str(dest))
"""

TESTS = """
import hashlib
from pathlib import Path

SORTED = @@SORTED@@
REMAINING = @@REMAINING@@
GONE = @@GONE@@


def _tree(root):
    root = Path(root)
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in root.rglob("*") if p.is_file()}


def test_sorted_file_names():
    assert sorted(_tree("/app/sorted")) == sorted(SORTED)


def test_sorted_file_contents():
    tree = _tree("/app/sorted")
    for name, digest in SORTED.items():
        assert tree.get(name) == digest, name


def test_other_files_stay_in_inbox():
    tree = _tree("/app/inbox")
    for name, digest in REMAINING.items():
        assert tree.get(name) == digest, name


def test_moved_files_left_the_inbox():
    assert sorted(_tree("/app/inbox")) == sorted(REMAINING)


def test_deleted_files_are_gone():
    for name in GONE:
        assert not Path("/app/inbox", name).exists(), name
        assert not any(Path("/app/sorted").rglob(Path(name).name)), name
"""


def _content(rng: random.Random) -> str:
    return "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9))) for _ in range(rng.randint(1, 6))) + "\n"


def make(rng: random.Random, difficulty: int) -> Instance:
    chosen = rng.sample(sorted(CATEGORIES), {1: 3, 2: 4, 3: 5}[difficulty])
    folders = {cat: rng.choice(CATEGORIES[cat][0]) for cat in chosen}
    mapping = {ext: folders[cat] for cat in chosen for ext in CATEGORIES[cat][1]}
    n_files = {1: 12, 2: 20, 3: 28}[difficulty] + rng.randint(0, 5)

    files: dict[str, str] = {}
    used_names: set[str] = set()
    mapped_paths: list[str] = []
    for i in range(n_files):
        ext = rng.choice(sorted(mapping)) if i < 3 or rng.random() < 0.8 else rng.choice(UNMAPPED)
        if i == 0 or rng.random() < 0.2:
            ext = ext.upper()  # extensions are case-insensitive: the trap at every level
        stem = f"{rng.choice(WORDS)}_{rng.randint(1, 999)}"
        if difficulty >= 2 and rng.random() < 0.4:
            stem = stem.capitalize() if rng.random() < 0.5 else stem.upper()
        name = f"{stem}.{ext}"
        if name.lower() in used_names:
            continue
        used_names.add(name.lower())
        nested = difficulty >= 2 and (i == 1 or rng.random() < 0.5)
        folder = "/".join(rng.sample(SUBDIRS, rng.randint(1, 2))) + "/" if nested else ""
        files[f"inbox/{folder}{name}"] = _content(rng)
        if ext.lower() in mapping:
            mapped_paths.append(f"inbox/{folder}{name}")
    if difficulty == 3:
        # Two empty files and three duplicates of earlier mapped files, under new names.
        for path in rng.sample(mapped_paths, 2):
            files[path] = ""
        for source in rng.sample([p for p in mapped_paths if files[p]], 3):
            ext = rng.choice(sorted(mapping))
            name = f"copy_of_{rng.choice(WORDS)}_{rng.randint(1000, 9999)}.{ext}"
            folder = rng.choice(["", "dups/", "misc/"])
            files[f"inbox/{folder}{name}"] = files[source]

    digest = {p: hashlib.sha256(c.encode()).hexdigest() for p, c in files.items()}
    sorted_tree: dict[str, str] = {}
    remaining: dict[str, str] = {}
    gone: list[str] = []
    seen: set[str] = set()
    for path in sorted(files, key=lambda p: p.removeprefix("inbox/")):
        name = path.rsplit("/", 1)[-1]
        ext = name.rsplit(".", 1)[1].lower()
        if ext not in mapping:
            remaining[path.removeprefix("inbox/")] = digest[path]
        elif difficulty == 3 and (not files[path] or digest[path] in seen):
            gone.append(path.removeprefix("inbox/"))
        else:
            seen.add(digest[path])
            sorted_tree[f"{mapping[ext]}/{name.lower() if difficulty >= 2 else name}"] = digest[path]

    groups = {}
    for ext, folder in mapping.items():
        groups.setdefault(folder, []).append(f"`.{ext}`")
    rules = [f"{', '.join(exts)} -> `/app/sorted/{folder}/`" for folder, exts in groups.items()]
    steps = ["Extensions match case-insensitively (`photo.JPG` is a `.jpg`)."]
    if difficulty >= 2:
        steps += ["Files may be in sub-folders of the inbox, at any depth: every one counts, and it goes straight "
                  "into its target folder (no sub-folders under `/app/sorted/<folder>/`).",
                  "Each moved file's name is lower-cased, extension included (`Beach_12.PNG` -> `beach_12.png`)."]
    if difficulty == 3:
        steps += ["Empty files (0 bytes) with a listed extension are deleted, not moved.",
                  "Files with a listed extension and identical contents are kept once: keep the one whose path "
                  "relative to `/app/inbox` comes first in plain string order, delete the others."]
    instruction = f"""
`/app/inbox/` is a mess of files. Move every file with one of these extensions into its folder:

{bullet_list(rules)}

{bullet_list(steps)}

Files with any other extension stay exactly where they are. File contents must not change.
"""
    params = {"map": mapping, "recursive": difficulty >= 2, "lower": difficulty >= 2, "dedup": difficulty == 3,
              "ignore_case": True}
    mistake = {1: ("wrong_case_sensitive.sh", "ignore_case"), 2: ("wrong_top_level_only.sh", "recursive"),
               3: ("wrong_keeps_duplicates.sh", "dedup")}[difficulty]
    return Instance(
        instruction=instruction,
        files=files,
        solve=python_script(render(SOLVE, **params)),
        wrong={mistake[0]: python_script(render(SOLVE, **{**params, mistake[1]: False}))},
        tests=render(TESTS, sorted=sorted_tree, remaining=remaining, gone=gone),
        answer=sorted_tree,
    )


FAMILY = Family(
    name="file-sort",
    category="file-operations",
    tags=("files", "find", "shell"),
    summary="Sort a generated inbox into folders by extension (nested, renamed, deduplicated at higher levels).",
    make=make,
)
