"""file-sort: sort a generated inbox of files into folders.

A seed picks the structure of the problem, not only its values:

- the **classification**: by extension (a seed-chosen mapping, case-insensitive), by what the file really
  is (its content: PNG/JPEG/GIF, PDF, ZIP/gzip, JSON, other text; names and extensions can lie), by the date
  written in the file name (several notations, into ``YYYY/MM`` folders) or by the project prefix of the name;
- the **renaming**: names kept, lower-cased, or turned into slugs;
- the **failure modes** (levels 2-3): nested sub-folders to flatten, name collisions (numbered or first one
  wins), empty files, duplicate contents, hidden files to leave alone, and a manifest of the moves to write.

Level 3 classifies by content (without the file signatures) or by date (without listing the notations):
the agent has to inspect the files. The reference solution is composed from the
pieces chosen (walk, classifier, steps, renaming, collision policy, manifest); each wrong solution swaps
one piece for a plausible mistake that the generated inbox is checked to expose.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from dataclasses import dataclass, field

from termrl.tasks.generators._common import WORDS, Family, Instance, bullet_list, python_script, render

CATEGORIES = {
    "images": (["images", "pictures", "img"], ["jpg", "png", "gif"]),
    "documents": (["docs", "documents", "papers"], ["pdf", "txt", "md"]),
    "data": (["data", "datasets", "tables"], ["csv", "json", "xml"]),
    "archives": (["archives", "packed", "bundles"], ["zip", "gz", "7z"]),
    "code": (["code", "scripts", "src"], ["py", "sh", "js"]),
}
UNMAPPED = ["log", "bak", "tmp", "ini", "old"]
SUBDIRS = ["2024", "misc", "from-phone", "Work", "old stuff", "x"]
CONTENT_KINDS = ["image", "pdf", "archive", "json", "text"]
CONTENT_FOLDERS = {"image": ["images", "pictures"], "pdf": ["pdfs", "documents"], "archive": ["archives", "packed"],
                   "json": ["json", "data"], "text": ["text", "notes"]}
PROJECTS = ["apollo", "borealis", "cygnus", "draco", "eridani", "fornax", "gemini", "hydra"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DATE_NOTATIONS = ["compact", "iso", "dotted", "month_name"]


@dataclass
class File:
    path: str  # relative to the inbox
    data: bytes
    kind: str = "text"  # what it really is (content classification)
    date: tuple[int, int] | None = None  # (year, month) written in the name
    project: str | None = None


@dataclass
class Spec:
    scheme: str  # extension | content | date | project
    mapping: dict[str, str] = field(default_factory=dict)  # ext/kind/project -> folder
    rename: str = "keep"  # keep | lower | slug
    recursive: bool = False
    collisions: str = "none"  # none | suffix | first
    empty: bool = False
    dedup: bool = False
    hidden: bool = False
    manifest: bool = False
    notations: list[str] = field(default_factory=list)


# --- contents ---------------------------------------------------------------------------------------------------------

def _text(rng: random.Random) -> str:
    return "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9))) for _ in range(rng.randint(1, 5))) + "\n"


def _noise(rng: random.Random, n: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(n))


def _content(kind: str, rng: random.Random, ext: str = "") -> bytes:
    if kind == "image":
        return rng.choice([b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", b"GIF89a"]) + _noise(rng, 40)
    if kind == "pdf":
        return b"%PDF-1.4\n" + _text(rng).encode() + b"%%EOF\n"
    if kind == "archive":
        if rng.random() < 0.5:
            return b"PK\x03\x04" + _noise(rng, 40)
        return gzip.compress(_text(rng).encode(), mtime=0)
    if kind == "json":
        return json.dumps({rng.choice(WORDS): rng.randint(1, 999) for _ in range(3)}).encode() + b"\n"
    return _text(rng).encode()


# --- the model ---------------------------------------------------------------------------------------------------------

def _is_hidden(path: str) -> bool:
    return path.rsplit("/", 1)[-1].startswith(".")


def _classify(spec: Spec, f: File, mistake: str | None) -> str | None:
    name = f.path.rsplit("/", 1)[-1]
    if spec.scheme == "extension":
        ext = name.rsplit(".", 1)[1] if "." in name.lstrip(".") else ""
        return spec.mapping.get(ext if mistake == "case_sensitive" else ext.lower())
    if spec.scheme == "content":
        if mistake == "trust_extension":
            ext = name.rsplit(".", 1)[1].lower() if "." in name.lstrip(".") else ""
            kind = {"png": "image", "jpg": "image", "gif": "image", "pdf": "pdf", "zip": "archive", "gz": "archive",
                    "json": "json"}.get(ext, "text")
        else:
            kind = f.kind
        return spec.mapping.get(kind) if f.data else None
    if spec.scheme == "project":
        prefix = name.split("_", 1)[0].split("-", 1)[0]
        return spec.mapping.get(prefix if mistake == "case_sensitive" else prefix.lower())
    if f.date is None:
        return None
    year, month = f.date
    if mistake == "month_first" and _dotted_swap(name):
        year, month = _dotted_swap(name)
    return f"{year}/{month}" if mistake == "unpadded_month" else f"{year:04d}/{month:02d}"


def _dotted_swap(name: str) -> tuple[int, int] | None:
    """The (year, month) a month-first reading of a ``DD.MM.YYYY`` name gives, when that is a valid date."""
    import re

    m = re.search(r"(\d{2})\.(\d{2})\.(\d{4})", name)
    if not m or int(m.group(1)) > 12 or m.group(1) == m.group(2):
        return None
    return int(m.group(3)), int(m.group(1))


def _new_name(spec: Spec, name: str, mistake: str | None = None) -> str:
    if mistake == "no_rename":
        return name
    if spec.rename == "lower":
        return name.lower()
    if spec.rename == "slug":
        return name.lower().replace(" ", "_")
    return name


def _answer(spec: Spec, files: list[File], mistake: str | None = None) -> dict:
    by_path = sorted(files, key=lambda f: f.path)
    sorted_tree: dict[str, str] = {}
    remaining: dict[str, str] = {}
    gone: list[str] = []
    manifest: list[list[str]] = []
    seen: set[str] = set()
    for f in by_path:
        digest = hashlib.sha256(f.data).hexdigest()
        top = "/" not in f.path
        if (not spec.recursive or mistake == "top_level_only") and not top:
            remaining[f.path] = digest
            continue
        if spec.hidden and _is_hidden(f.path) and mistake != "move_hidden":
            remaining[f.path] = digest
            continue
        if spec.empty and not f.data and mistake != "keep_empty":
            gone.append(f.path)
            continue
        folder = _classify(spec, f, mistake)
        if folder is None:
            remaining[f.path] = digest
            continue
        if spec.dedup and mistake != "keep_duplicates":
            if digest in seen:
                gone.append(f.path)
                continue
            seen.add(digest)
        name = _new_name(spec, f.path.rsplit("/", 1)[-1], mistake)
        dest = f"{folder}/{name}"
        if dest in sorted_tree and mistake != "overwrite":
            if spec.collisions == "first":
                remaining[f.path] = digest
                continue
            stem, dot, ext = name.rpartition(".")
            if not dot:
                stem, ext = ext, ""
            n = 2
            while f"{folder}/{stem}-{n}{dot}{ext}" in sorted_tree:
                n += 1
            dest = f"{folder}/{stem}-{n}{dot}{ext}"
        sorted_tree[dest] = digest
        manifest.append([f.path, dest])
    if mistake == "unsorted_manifest":
        manifest.sort(key=lambda r: r[1])
    return {"sorted": sorted_tree, "remaining": remaining, "gone": gone,
            "manifest": manifest if spec.manifest else None}


# --- the reference solution ------------------------------------------------------------------------------------------------

CONTENT_CLASSIFIER = """
def kind_of(data):
    if data.startswith((b"\\x89PNG\\r\\n\\x1a\\n", b"\\xff\\xd8\\xff", b"GIF87a", b"GIF89a")):
        return "image"
    if data.startswith(b"%PDF-"):
        return "pdf"
    if data.startswith((b"PK\\x03\\x04", b"\\x1f\\x8b")):
        return "archive"
    try:
        json.loads(data.decode("utf-8"))
        return "json"
    except ValueError:
        return "text"
"""

TRUST_EXTENSION = """
def kind_of(data):
    ext = path.suffix[1:].lower()
    return {"png": "image", "jpg": "image", "gif": "image", "pdf": "pdf", "zip": "archive", "gz": "archive",
            "json": "json"}.get(ext, "text")
"""

DATE_PATTERNS = {
    "compact": ('r"(?<!\\d)(\\d{4})(\\d{2})\\d{2}_\\d{6}"', "int(m.group(1)), int(m.group(2))"),
    "iso": ('r"(\\d{4})-(\\d{2})-\\d{2}"', "int(m.group(1)), int(m.group(2))"),
    "dotted": ('r"(\\d{2})\\.(\\d{2})\\.(\\d{4})"', "int(m.group(3)), int(m.group(2))"),
    "month_name": ('r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)(\\d{4})"',
                   "int(m.group(2)), MONTHS.index(m.group(1)) + 1"),
}


def _solution(spec: Spec, mistake: str | None = None) -> str:
    body = "import csv, hashlib, json, re, shutil\nfrom pathlib import Path\n"
    body += f"MAP = {spec.mapping!r}\ninbox, target = Path('/app/inbox'), Path('/app/sorted')\n"
    if spec.scheme == "content":
        body += (TRUST_EXTENSION if mistake == "trust_extension" else CONTENT_CLASSIFIER).strip("\n") + "\n"
    if spec.scheme == "date":
        body += f"MONTHS = {MONTHS!r}\n\ndef folder_of(name):\n"
        for notation in spec.notations:
            pattern, value = DATE_PATTERNS[notation]
            if notation == "dotted" and mistake == "month_first":
                value = "int(m.group(3)), int(m.group(1)) if int(m.group(1)) <= 12 else int(m.group(2))"
            body += f"    m = re.search({pattern}, name)\n    if m:\n        year, month = {value}\n"
            body += ("        return f'{year}/{month}'\n" if mistake == "unpadded_month"
                     else "        return f'{year:04d}/{month:02d}'\n")
        body += "    return None\n"
    walk = "inbox.rglob('*')" if spec.recursive and mistake != "top_level_only" else "inbox.iterdir()"
    body += f"files = sorted((p for p in {walk} if p.is_file()), key=lambda p: p.relative_to(inbox).as_posix())\n"
    body += "seen, moves = set(), []\nfor path in files:\n    data = path.read_bytes()\n"
    if spec.hidden and mistake != "move_hidden":
        body += "    if path.name.startswith('.'):\n        continue\n"
    if spec.empty and mistake != "keep_empty":
        body += "    if not data:\n        path.unlink()\n        continue\n"
    if spec.scheme == "extension":
        ext = "path.suffix[1:]" if mistake == "case_sensitive" else "path.suffix[1:].lower()"
        body += f"    folder = MAP.get({ext})\n"
    elif spec.scheme == "content":
        body += "    folder = MAP.get(kind_of(data)) if data else None\n"
    elif spec.scheme == "project":
        prefix = "path.name.split('_', 1)[0].split('-', 1)[0]"
        body += f"    folder = MAP.get({prefix if mistake == 'case_sensitive' else prefix + '.lower()'})\n"
    else:
        body += "    folder = folder_of(path.name)\n"
    body += "    if folder is None:\n        continue\n"
    if spec.dedup and mistake != "keep_duplicates":
        body += ("    digest = hashlib.sha256(data).hexdigest()\n    if digest in seen:\n        path.unlink()\n"
                 "        continue\n    seen.add(digest)\n")
    name = {"keep": "path.name", "lower": "path.name.lower()", "slug": "path.name.lower().replace(' ', '_')"}[
        "keep" if mistake == "no_rename" else spec.rename]
    body += f"    dest = target / folder / {name}\n"
    if mistake != "overwrite":
        if spec.collisions == "first":
            body += "    if dest.exists():\n        continue\n"
        elif spec.collisions == "suffix":
            body += ("    n = 2\n    while dest.exists():\n"
                     f"        stem, dot, ext = {name}.rpartition('.')\n"
                     "        if not dot:\n            stem, ext = ext, ''\n"
                     "        dest = target / folder / f'{stem}-{n}{dot}{ext}'\n        n += 1\n")
    body += ("    dest.parent.mkdir(parents=True, exist_ok=True)\n    shutil.move(str(path), str(dest))\n"
             "    moves.append([path.relative_to(inbox).as_posix(), dest.relative_to(target).as_posix()])\n")
    if spec.manifest:
        if mistake == "unsorted_manifest":
            body += "moves.sort(key=lambda m: m[1])\n"
        body += ("with open('/app/manifest.csv', 'w', newline='') as fh:\n    writer = csv.writer(fh, lineterminator='\\n')\n"
                 "    writer.writerow(['source', 'destination'])\n    writer.writerows(moves)\n")
    return python_script(body)


TESTS = """
import csv
import hashlib
from pathlib import Path

SORTED = @@SORTED@@
REMAINING = @@REMAINING@@
GONE = @@GONE@@
MANIFEST = @@MANIFEST@@


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
"""

GONE_TEST = """

def test_deleted_files_are_gone():
    for name in GONE:
        assert not Path("/app/inbox", name).exists(), name
"""

MANIFEST_TEST = """

def test_manifest():
    path = Path("/app/manifest.csv")
    assert path.is_file(), "/app/manifest.csv was not written"
    rows = list(csv.reader(path.read_text().splitlines()))
    assert rows[0] == ["source", "destination"]
    assert [r for r in rows[1:] if r] == MANIFEST
"""


# --- the instance -------------------------------------------------------------------------------------------------------

def _spec(rng: random.Random, difficulty: int) -> Spec:
    # level 3 classifies by what needs looking into: contents without their signatures, or dates written in
    # notations the instruction does not list
    scheme = rng.choice(["extension", "content", "date", "project"] if difficulty < 3 else ["content", "date"])
    spec = Spec(scheme=scheme, rename=rng.choice(["keep", "lower", "slug"]), recursive=difficulty >= 2)
    if scheme == "extension":
        chosen = rng.sample(sorted(CATEGORIES), {1: 3, 2: 4, 3: 5}[difficulty])
        folders = {cat: rng.choice(CATEGORIES[cat][0]) for cat in chosen}
        spec.mapping = {ext: folders[cat] for cat in chosen for ext in CATEGORIES[cat][1]}
    elif scheme == "content":
        kinds = rng.sample(CONTENT_KINDS, rng.randint(3, 4))
        spec.mapping = {k: rng.choice(CONTENT_FOLDERS[k]) for k in kinds}
    elif scheme == "project":
        projects = rng.sample(PROJECTS, rng.randint(2, 4))
        spec.mapping = {p: rng.choice([p, f"proj-{p}", p.capitalize()]) for p in projects}
    else:
        spec.notations = rng.sample(DATE_NOTATIONS, {1: 1, 2: 2, 3: rng.randint(3, 4)}[difficulty])
    if difficulty >= 2:
        spec.collisions = rng.choice(["suffix", "first"])
        spec.manifest = rng.random() < 0.6 or difficulty == 3
        steps = rng.sample(["empty", "dedup", "hidden"], {2: 1, 3: rng.randint(2, 3)}[difficulty])
        for step in steps:
            setattr(spec, step, True)
    return spec


def _name(spec: Spec, rng: random.Random, f_kind: str, ext: str, i: int) -> tuple[str, tuple | None, str | None]:
    stem = f"{rng.choice(WORDS)}_{rng.randint(1, 999)}"
    if rng.random() < 0.3:
        stem = stem.capitalize() if rng.random() < 0.5 else stem.upper()
    if rng.random() < 0.2:
        stem = stem.replace("_", " ")
    date, project = None, None
    if spec.scheme == "date" and (i < 4 or rng.random() < 0.75):
        year, month, day = rng.randint(2019, 2025), rng.randint(1, 12), rng.randint(1, 28)
        notation = spec.notations[i % len(spec.notations)] if i < 4 else rng.choice(spec.notations)
        if notation == "dotted" and (i < 4 or rng.random() < 0.5):
            day = rng.randint(1, 12)
            if day == month:
                day = day % 12 + 1
        date = (year, month)
        stem = {"compact": f"IMG_{year:04d}{month:02d}{day:02d}_{rng.randint(0, 23):02d}{rng.randint(0, 59):02d}{rng.randint(0, 59):02d}",
                "iso": f"scan {year:04d}-{month:02d}-{day:02d}",
                "dotted": f"{day:02d}.{month:02d}.{year:04d} {rng.choice(WORDS)}",
                "month_name": f"report_{MONTHS[month - 1]}{year:04d}"}[notation]
    if spec.scheme == "project" and (i < 3 or rng.random() < 0.75):
        project = rng.choice(sorted(spec.mapping)) if i < 3 or rng.random() < 0.85 else rng.choice(
            [p for p in PROJECTS if p not in spec.mapping])
        shown = project.upper() if i == 0 or rng.random() < 0.25 else project
        stem = f"{shown}{rng.choice(['_', '-'])}{stem}"
    return f"{stem}.{ext}" if ext else stem, date, project if project in spec.mapping else None


def _files(spec: Spec, rng: random.Random, difficulty: int) -> list[File]:
    n = {1: 12, 2: 18, 3: 24}[difficulty] + rng.randint(0, 5)
    files: list[File] = []
    used: set[str] = set()
    exts = sorted(spec.mapping) if spec.scheme == "extension" else ["jpg", "png", "pdf", "txt", "json", "zip", "csv",
                                                                     "md"]
    for i in range(n):
        if spec.scheme == "extension":
            ext = rng.choice(exts) if i < 3 or rng.random() < 0.8 else rng.choice(UNMAPPED)
            if i == 0 or rng.random() < 0.2:
                ext = ext.upper()
            kind = "text"
        else:
            kind = rng.choice(CONTENT_KINDS)
            true_ext = {"image": rng.choice(["png", "jpg", "gif"]), "pdf": "pdf", "archive": rng.choice(["zip", "gz"]),
                        "json": "json", "text": rng.choice(["txt", "md", "csv", "log"])}[kind]
            ext = true_ext
            if spec.scheme == "content" and (i < 2 or rng.random() < 0.3):  # names that lie
                ext = rng.choice(["", "txt", "dat", "bin", rng.choice(["png", "pdf", "json"])])
        name, date, project = _name(spec, rng, kind, ext, i)
        nested = spec.recursive and (i == 1 or rng.random() < 0.5)
        folder = "/".join(rng.sample(SUBDIRS, rng.randint(1, 2))) + "/" if nested else ""
        path = folder + name
        if path.lower() in used:
            continue
        used.add(path.lower())
        data = _content(kind, rng) if spec.scheme != "extension" else _text(rng).encode()
        files.append(File(path, data, kind, date, project))
    movable = [f for f in files if _classify(spec, f, None) is not None]
    if spec.collisions != "none" and movable:
        for src in rng.sample(movable, min(2, len(movable))):  # the same name in another sub-folder
            sub = rng.choice([s for s in SUBDIRS if not src.path.startswith(s)])
            name = src.path.rsplit("/", 1)[-1]
            if f"{sub}/{name}".lower() not in used:
                used.add(f"{sub}/{name}".lower())
                files.append(File(f"{sub}/{name}", _content(src.kind, rng) if spec.scheme != "extension"
                                  else _text(rng).encode(), src.kind, src.date, src.project))
    if spec.empty:
        for src in rng.sample(movable, min(2, len(movable))):
            src.data = b""
    if spec.dedup:
        full = [f for f in movable if f.data]
        for src in rng.sample(full, min(2, len(full))):
            last = src.path.rsplit("/", 1)[-1]
            ext = last.rsplit(".", 1)[1] if "." in last else ""
            name, date, project = _name(spec, rng, src.kind, ext, rng.randint(0, 2))
            path = (rng.choice(["", "dups/", "misc/"]) if spec.recursive else "") + name
            if path.lower() not in used:
                used.add(path.lower())
                files.append(File(path, src.data, src.kind, date, project))
    if spec.hidden:
        for src in rng.sample(movable, min(2, len(movable))):
            name = "." + src.path.rsplit("/", 1)[-1]
            if name.lower() not in used:
                used.add(name.lower())
                files.append(File(name, _content(src.kind, rng) if spec.scheme != "extension"
                                  else _text(rng).encode(), src.kind, src.date, src.project))
    return files


def _applicable(spec: Spec) -> list[str]:
    out = []
    if spec.rename != "keep":
        out.append("no_rename")
    if spec.scheme == "date":
        out.append("unpadded_month")
    if spec.scheme in ("extension", "project"):
        out.append("case_sensitive")
    if spec.recursive:
        out.append("top_level_only")
    if spec.scheme == "content":
        out.append("trust_extension")
    if spec.scheme == "date" and "dotted" in spec.notations:
        out.append("month_first")
    if spec.empty:
        out.append("keep_empty")
    if spec.dedup:
        out.append("keep_duplicates")
    if spec.hidden:
        out.append("move_hidden")
    if spec.collisions != "none":
        out.append("overwrite")
    if spec.manifest:
        out.append("unsorted_manifest")
    return out


def _rules(spec: Spec, difficulty: int) -> list[str]:
    if spec.scheme == "extension":
        groups: dict[str, list[str]] = {}
        for ext, folder in spec.mapping.items():
            groups.setdefault(folder, []).append(f"`.{ext}`")
        return ([f"{', '.join(exts)} -> `/app/sorted/{folder}/`" for folder, exts in groups.items()]
                + ["Extensions match case-insensitively (`photo.JPG` is a `.jpg`). Files with any other extension "
                   "stay where they are."])
    if spec.scheme == "content":
        what = {"image": "images (PNG, JPEG or GIF)", "pdf": "PDF documents", "archive": "archives (ZIP or gzip)",
                "json": "JSON documents (the whole file is valid JSON)",
                "text": "other text files (UTF-8 text that is not valid JSON)"}
        sig = {"image": " — PNG files start with the bytes `89 50 4E 47 0D 0A 1A 0A`, JPEG with `FF D8 FF`, GIF with "
                        "`GIF87a` or `GIF89a`",
               "pdf": " — they start with `%PDF-`", "archive": " — ZIP starts with `PK\\x03\\x04`, gzip with `1F 8B`",
               "json": "", "text": ""}
        out = [f"{what[k]}{sig[k] if difficulty < 3 else ''} -> `/app/sorted/{folder}/`"
               for k, folder in spec.mapping.items()]
        out.append("Classify a file by what it contains, not by its name: names and extensions in this inbox are "
                   "not reliable. Files of any other kind, and empty files, stay where they are.")
        return out
    if spec.scheme == "project":
        out = [f"names starting with `{p}` followed by `_` or `-` -> `/app/sorted/{folder}/`"
               for p, folder in spec.mapping.items()]
        out.append("The project prefix matches case-insensitively (`APOLLO_x.txt` belongs to `apollo`). Files of "
                   "other projects, or without a project prefix, stay where they are.")
        return out
    examples = {"compact": "`IMG_20240305_142200.jpg` (`YYYYMMDD_HHMMSS`)", "iso": "`scan 2024-03-05.pdf`",
                "dotted": "`05.03.2024 notes.txt` (`DD.MM.YYYY`, day first)",
                "month_name": "`report_Mar2024.csv` (month name and year)"}
    out = ["A file whose name contains a date goes to `/app/sorted/YYYY/MM/` for that date's year and month "
           "(`/app/sorted/2024/03/`). Files without a date in their name stay where they are."]
    if difficulty < 3:
        out.append("The names write dates like " + ", ".join(examples[n] for n in spec.notations) + ".")
    else:
        out.append("The names write dates in several notations: find them all (where day and month are both "
                   "numbers, the day comes first unless the year leads).")
    return out


def make(rng: random.Random, difficulty: int) -> Instance:
    spec = _spec(rng, difficulty)
    for _attempt in range(30):
        files = _files(spec, rng, difficulty)
        if not _answer(spec, files)["remaining"]:  # something always stays: the tests check it is left alone
            kind = rng.choice([k for k in CONTENT_KINDS if k not in spec.mapping]) if spec.scheme == "content" \
                else "text"
            files.append(File(f"{rng.choice(WORDS)}_{rng.randint(1, 999)}.{rng.choice(UNMAPPED)}",
                              _content(kind, rng), kind))
        expected = _answer(spec, files)
        exposed = [m for m in _applicable(spec) if _answer(spec, files, m) != expected]
        if exposed and len(expected["sorted"]) >= 3:
            break
    else:  # pragma: no cover
        raise RuntimeError("file-sort: no wrong solution is exposed by the generated inbox")
    mistakes = sorted(rng.sample(exposed, min(2, len(exposed))))

    steps = []
    if spec.recursive:
        steps.append("Files may be in sub-folders of the inbox, at any depth: every one counts, and it goes straight "
                     "into its target folder (no sub-folders of the inbox are recreated).")
    if spec.hidden:
        steps.append("Hidden files (names starting with `.`) are left where they are, whatever they are.")
    if spec.empty:
        steps.append("Empty files (0 bytes) are deleted" + (" (before classifying)" if spec.scheme != "content" else "")
                     + ".")
    if spec.dedup:
        steps.append("Files to move whose contents are identical are kept once: keep the one whose path relative "
                     "to `/app/inbox` comes first in plain string order, delete the others.")
    rename = {"keep": "Moved files keep their names.",
              "lower": "Each moved file's name is lower-cased, extension included (`Beach_12.PNG` -> `beach_12.png`).",
              "slug": "Each moved file's name is lower-cased and its spaces become `_` (`Old Beach.PNG` -> "
                      "`old_beach.png`)."}[spec.rename]
    steps.append(rename)
    if spec.collisions == "suffix":
        steps.append("When a name is already taken in the target folder, add `-2` (then `-3`, ...) before the "
                     "extension (`a.txt` -> `a-2.txt`); files are handled in plain string order of their path "
                     "relative to `/app/inbox`.")
    elif spec.collisions == "first":
        steps.append("When a name is already taken in the target folder, the later file (in plain string order of "
                     "paths relative to `/app/inbox`) stays where it is.")
    if spec.manifest:
        steps.append("Write `/app/manifest.csv`: the header `source,destination`, then one row per moved file (its "
                     "path relative to `/app/inbox`, its new path relative to `/app/sorted`), in plain string order "
                     "of `source`.")
    instruction = f"""
`/app/inbox/` is a mess of files. Move files into folders under `/app/sorted/`:

{bullet_list(_rules(spec, difficulty))}

{bullet_list(steps)}

File contents must not change; files that are not moved or deleted stay exactly where they are.
"""
    tests = TESTS + (GONE_TEST if expected["gone"] else "") + (MANIFEST_TEST if spec.manifest else "")
    return Instance(
        instruction=instruction,
        files={f"inbox/{f.path}": f.data for f in files},
        solve=_solution(spec),
        wrong={f"wrong_{m}.sh": _solution(spec, m) for m in mistakes},
        tests=render(tests, sorted=expected["sorted"], remaining=expected["remaining"], gone=expected["gone"],
                     manifest=expected["manifest"]),
        answer=expected,
    )


FAMILY = Family(
    name="file-sort",
    category="file-operations",
    tags=("files", "find", "shell", "file-types"),
    summary="Sort a generated inbox by extension, content type, date in the name or project prefix (nested, "
            "renamed, colliding, empty, duplicate and hidden files at higher levels).",
    make=make,
)
