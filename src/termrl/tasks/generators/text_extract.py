"""text-extract: write an extractor for documents of mixed formats, each with its own parts that do not count.

A seed draws the structure of the problem:

- the **document formats** (1 at level 1, 2 at level 2, 3 at level 3) from plain notes with comment
  lines, CSV exports where only one column counts, chat exports (JSON Lines) with deleted messages, HTML
  pages (comments and scripts do not count, entities such as ``&#64;`` must be decoded), e-mails (only
  the body counts, quoted replies do not, bodies are often base64 or quoted-printable), Markdown (fenced
  code blocks do not count) and gzip-compressed logs;
- the **targets** (1 at level 1, 2 at level 2, 3 at level 3) from ids of a seed-drawn scheme, e-mail
  addresses, a money total in one of three written styles, and dates in one of three written styles
  (impossible dates do not count);
- near-miss decoys for every target, and real-looking items placed only where text does not count.

At level 3 the instruction gives the rules of every format but not which ones are present: the agent has
to inspect the files (some encoded) to find out. The agent writes ``/app/extract.py DOCS OUT``; the tests
also run it on hidden documents. The reference solution is composed of one reader per format present and
one extractor per target, so different seeds need different programs.
"""

from __future__ import annotations

import base64
import csv
import gzip
import hashlib
import html
import io
import json
import quopri
import random
from dataclasses import dataclass, field
from datetime import date, timedelta

from termrl.tasks.generators._common import FIRST_NAMES, LAST_NAMES, WORDS, Family, Instance, render

FILLER = ["please check", "as discussed", "see", "follow up on", "customer asked about", "escalated",
          "closed", "re-opened", "waiting for", "duplicate of"]
# one string, not a module-level word list: the diversity measure would blank such words as pool names
MONTH_NAMES = "January February March April May June July August September October November December"
LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"

# --- formats: rules, renderers, reference readers, mistaken readers ----------------------------------------

# format -> file name ending (formats are dict keys, not a module-level word list, which the diversity measure
# would blank as names)
SUFFIX = {"notes": ".txt", "csv": ".csv", "chat": ".jsonl", "html": ".html", "email": ".eml",
          "markdown": ".md", "gzlog": ".log.gz"}
RULES = {
    "notes": "`*.txt`: plain text; a line starting with `#` is a comment and does not count.",
    "csv": "`*.csv`: a CSV export with a header row (fields may be quoted and hold commas and line breaks); only "
           "the column named `COLUMN` counts.",
    "chat": "`*.jsonl`: a chat export, one JSON object per line with keys `from`, `text` and `deleted`; only the "
            "`text` of messages whose `deleted` is `false` counts.",
    "html": "`*.html`: a web page; only its text counts, with character references decoded (`&#64;` is `@`, "
            "`&amp;` is `&`); tags, `<!-- comments -->` and the content of `<script>` elements do not count.",
    "email": "`*.eml`: an e-mail message; only its body counts (not the headers), decoded as its "
             "`Content-Transfer-Encoding` says (base64, quoted-printable or plain); body lines starting with `>` "
             "quote an earlier mail and do not count.",
    "markdown": "`*.md`: Markdown; text inside fenced code blocks (between lines starting with three backticks) "
                "does not count.",
    "gzlog": "`*.log.gz`: a gzip-compressed text log; every line of the uncompressed text counts.",
}

READERS = {
    "notes": """
def read_notes(path):
    return [line for line in path.read_text().splitlines() if not line.startswith("#")]
""",
    "csv": """
def read_csv(path):
    with path.open(newline="") as fh:
        return [row[COLUMN] for row in csv.DictReader(fh)]
""",
    "chat": """
def read_chat(path):
    messages = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [m["text"] for m in messages if not m["deleted"]]
""",
    "html": """
class PageText(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.in_script = [], False
    def handle_starttag(self, tag, attrs):
        self.in_script = self.in_script or tag == "script"
    def handle_endtag(self, tag):
        self.in_script = self.in_script and tag != "script"
    def handle_data(self, data):
        if not self.in_script:
            self.parts.append(data)

def read_html(path):
    parser = PageText()
    parser.feed(path.read_text())
    parser.close()
    return parser.parts
""",
    "email": """
def read_email(path):
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    body = message.get_body(preferencelist=("plain",)).get_content()
    return [line for line in body.splitlines() if not line.startswith(">")]
""",
    "markdown": """
def read_markdown(path):
    kept, fenced = [], False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            kept.append(line)
    return kept
""",
    "gzlog": """
def read_gzlog(path):
    return gzip.decompress(path.read_bytes()).decode().splitlines()
""",
}
MISTAKEN_READERS = {  # each counts what its format excludes (or misses what it encodes)
    "notes": ("wrong_counts_comment_lines", """
def read_notes(path):
    return path.read_text().splitlines()
"""),
    "csv": ("wrong_counts_every_column", """
def read_csv(path):
    return path.read_text().splitlines()
"""),
    "chat": ("wrong_counts_deleted_messages", """
def read_chat(path):
    return [json.loads(line)["text"] for line in path.read_text().splitlines() if line.strip()]
"""),
    "html": ("wrong_html_as_plain_text", """
def read_html(path):
    return path.read_text().splitlines()
"""),
    "email": ("wrong_raw_email_text", """
def read_email(path):
    return [line for line in path.read_text().splitlines() if not line.startswith(">")]
"""),
    "markdown": ("wrong_counts_code_blocks", """
def read_markdown(path):
    return path.read_text().splitlines()
"""),
    "gzlog": ("wrong_skips_compressed_logs", """
def read_gzlog(path):
    return []
"""),
}

# --- targets ----------------------------------------------------------------------------------------------


@dataclass
class Target:
    kind: str
    style: str
    out: str
    rule: str
    code: str
    mistake: tuple[str, str]
    """(wrong script name, replacement code)."""
    real: list[str] = field(default_factory=list)
    """Item texts as written where they count."""
    hidden_away: list[str] = field(default_factory=list)
    """Valid-looking item texts placed only where text does not count."""
    decoys: list[str] = field(default_factory=list)
    """Near misses that never count."""
    values: list = field(default_factory=list)
    """What the real items stand for (cents, dates), for the expected output."""


def _id_target(rng: random.Random, style: str, prefix: str) -> Target:
    if style == "dash":
        pattern = r"(?<![\w-])" + "PREFIX" + r"-\d{4}-[A-Z]{2}(?![\w-])"
        loose = "PREFIX" + r"-\d{4}-[A-Z]{2}"
        make = lambda: f"{prefix}-{rng.randint(0, 9999):04d}-{rng.choice(LETTERS)}{rng.choice(LETTERS)}"  # noqa: E731
        n, l2 = f"{rng.randint(0, 9999):04d}", "QX"
        decoys = [f"X{prefix}-{n}-{l2}", f"{prefix}-{n}-{l2}C", f"{prefix}-{n[:3]}-{l2}", f"{prefix.lower()}-{n}-qx"]
        rule = (f"An id is `{prefix}-`, exactly 4 digits, `-`, exactly 2 capital letters, as a whole token: no letter, "
                f"digit, `_` or `-` right before or after it (`X{prefix}-1234-AB`, `{prefix}-1234-ABC`, "
                f"`{prefix}-123-AB`, `{prefix.lower()}-1234-ab` are not ids).")
    else:
        pattern = r"(?<![\w#])" + "PREFIX" + r"#\d{5}(?![\w#])"
        loose = "PREFIX" + r"#\d{5}"
        make = lambda: f"{prefix}#{rng.randint(0, 99999):05d}"  # noqa: E731
        n = f"{rng.randint(10000, 99999)}"
        decoys = [f"X{prefix}#{n}", f"{prefix}#{n}7", f"{prefix}#{n[:4]}", f"{prefix.lower()}#{n}"]
        rule = (f"An id is `{prefix}#` and exactly 5 digits, as a whole token: no letter, digit, `_` or `#` right "
                f"before or after it (`X{prefix}#12345`, `{prefix}#123456`, `{prefix}#1234`, "
                f"`{prefix.lower()}#12345` are not ids).")

    def finder(regex: str) -> str:
        head, tail = regex.split("PREFIX")
        return (f"prefix = {prefix!r}\nids = sorted(set(re.findall({head!r} + re.escape(prefix) + {tail!r}, text)))\n"
                "(out / \"ids.txt\").write_text(\"\".join(i + \"\\n\" for i in ids))\n")
    target = Target("ids", style, "ids.txt", rule + " Output: `ids.txt`, every distinct id, sorted, one per line.",
                    finder(pattern), ("wrong_ids_without_boundaries", finder(loose)))
    seen: set[str] = set()
    while len(seen) < 12:
        seen.add(make())
    items = sorted(seen)
    rng.shuffle(items)
    target.real, target.hidden_away = items[:9], items[9:]
    target.decoys = decoys
    return target


def _email_target(rng: random.Random, style: str, prefix: str) -> Target:
    target = Target(
        "emails", "plain", "emails.txt",
        "An e-mail address is `local@domain`: the local part of letters, digits and `._+-`, the domain two or more "
        "labels of letters, digits and `-` joined by dots (a dot ending a sentence is not part of it). Output: "
        "`emails.txt`, every distinct address in lower case, sorted, one per line.",
        "found = re.findall(r\"[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+\", text)\n"
        "emails = sorted({e.lower() for e in found})\n"
        "(out / \"emails.txt\").write_text(\"\".join(e + \"\\n\" for e in emails))\n",
        ("wrong_emails_case_kept",
         "found = re.findall(r\"[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+\", text)\n"
         "emails = sorted(set(found))\n"
         "(out / \"emails.txt\").write_text(\"\".join(e + \"\\n\" for e in emails))\n"))
    seen: set[str] = set()
    while len(seen) < 10:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        local = rng.choice([f"{first}.{last}", f"{first[0]}{last}", f"{first}+{rng.choice(WORDS)}"])
        seen.add(f"{local}@{rng.choice(WORDS)}.{rng.choice(['test', 'example', 'co.test'])}")
    items = sorted(seen)
    rng.shuffle(items)
    target.real, target.hidden_away = items[:7], items[7:]
    target.decoys = [f"{rng.choice(FIRST_NAMES)} at {rng.choice(WORDS)} dot test", f"@{rng.choice(WORDS)}",
                     f"{rng.choice(WORDS)}@localhost"]
    return target


AMOUNT_STYLES = {
    "eur_prefix": (r"(?<![\w.,])EUR (\d{1,3}(?:,\d{3})*\.\d{2})(?![\d,.])", "{int_commas}.{cents}", "EUR {}",
                   "`EUR 1,234.50` (`EUR`, a space, the number with `,` between thousands and exactly two decimals "
                   "after `.`)", "a.replace(\",\", \"\")", "EUR {bad}", r"EUR (\d+\.\d{2})"),
    "eur_suffix": (r"(?<![\w.,])(\d{1,3}(?:\.\d{3})*,\d{2}) EUR(?!\w)", "{int_dots},{cents}", "{} EUR",
                   "`1.234,50 EUR` (the number with `.` between thousands and exactly two decimals after `,`, a "
                   "space, `EUR`)", "a.replace(\".\", \"\").replace(\",\", \".\")", "{bad} EUR", r"(\d+,\d{2}) EUR"),
    "dollar": (r"(?<![\w.,$])\$(\d{1,3}(?:,\d{3})*\.\d{2})(?![\d,.])", "{int_commas}.{cents}", "${}",
               "`$1,234.50` (`$`, the number with `,` between thousands and exactly two decimals after `.`)",
               "a.replace(\",\", \"\")", "${bad}", r"\$(\d+\.\d{2})"),
}


def _amount_target(rng: random.Random, style: str, prefix: str) -> Target:
    pattern, shape, wrap, text, normalise, bad, loose = AMOUNT_STYLES[style]
    target = Target(
        "total", style, "total.txt",
        f"An amount is written {text}; anything else (like `12,5` or `1234.5`) is not an amount. Output: "
        "`total.txt`, the sum of all amounts as a plain number with two decimals and no separators, e.g. "
        "`15023.75`.",
        f"total = sum((Decimal({normalise}) for a in re.findall({pattern!r}, text)), Decimal(0))\n"
        "(out / \"total.txt\").write_text(f\"{total:.2f}\\n\")\n",
        ("wrong_total_misses_thousands",
         f"total = sum((Decimal({normalise}) for a in re.findall({loose!r}, text)), "
         "Decimal(0))\n(out / \"total.txt\").write_text(f\"{total:.2f}\\n\")\n"))

    def written(cents: int) -> str:
        whole = cents // 100
        return wrap.format(shape.format(int_commas=f"{whole:,}", int_dots=f"{whole:,}".replace(",", "."),
                                        cents=f"{cents % 100:02d}"))
    values = [rng.randint(100_000, 250_000_000)] + [rng.randint(100, 2_500_000) for _ in range(6)]
    target.real = [written(c) for c in values]
    target.hidden_away = [written(rng.randint(100, 900_000)) for _ in range(3)]
    target.decoys = [bad.format(bad=f"{rng.randint(1, 99)},{rng.randint(0, 9)}"),
                     bad.format(bad=f"{rng.randint(1000, 9999)}.{rng.randint(0, 9)}")]
    target.values = values
    return target


DATE_STYLES = {
    "iso": (r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)", "y, m, d", "{y:04d}-{m:02d}-{d:02d}",
            "`2024-03-05` (year-month-day)"),
    "dotted": (r"(?<![\d.])(\d{2})\.(\d{2})\.(\d{4})(?!\d)", "d, m, y", "{d:02d}.{m:02d}.{y:04d}",
               "`05.03.2024` (day.month.year, two-digit day and month)"),
    "spelled": (r"\b(January|February|March|April|May|June|July|August|September|October|November|December) "
                r"(\d{1,2}), (\d{4})\b", "name, d, y", "{name} {d}, {y}", "`March 5, 2024` (month name, day, "
                "comma, year)"),
}


def _date_target(rng: random.Random, style: str, prefix: str) -> Target:
    pattern, groups, shape, text = DATE_STYLES[style]
    month = "MONTHS.index(name) + 1" if style == "spelled" else "int(m)"
    target = Target(
        "dates", style, "dates.txt",
        f"A date is written {text}; a date that does not exist (like the 30th of February) does not count. "
        "Output: `dates.txt`, every distinct date as `YYYY-MM-DD`, sorted, one per line.",
        f"dates = set()\nfor {groups} in re.findall({pattern!r}, text):\n"
        f"    try:\n        dates.add(date(int(y), {month}, int(d)).isoformat())\n"
        "    except ValueError:\n        pass\n"
        "(out / \"dates.txt\").write_text(\"\".join(d + \"\\n\" for d in sorted(dates)))\n",
        ("wrong_dates_not_checked",
         f"dates = set()\nfor {groups} in re.findall({pattern!r}, text):\n"
         f"    dates.add(f\"{{int(y):04d}}-{{{month}:02d}}-{{int(d):02d}}\")\n"
         "(out / \"dates.txt\").write_text(\"\".join(d + \"\\n\" for d in sorted(dates)))\n"))

    def written(day: date) -> str:
        return shape.format(y=day.year, m=day.month, d=day.day, name=MONTH_NAMES.split()[day.month - 1])
    start = date(2019, 1, 1)
    days = sorted({start + timedelta(days=rng.randrange(2500)) for _ in range(11)})
    rng.shuffle(days)
    target.real = [written(d) for d in days[:8]]
    target.hidden_away = [written(d) for d in days[8:]]
    year = rng.randint(2019, 2025)
    target.decoys = [shape.format(y=year, m=2, d=30, name="February"), shape.format(y=year, m=4, d=31, name="April")]
    target.values = days[:8]
    return target


TARGET_MAKERS = {"ids": _id_target, "emails": _email_target, "total": _amount_target, "dates": _date_target}

# --- documents --------------------------------------------------------------------------------------------


def _sentence(rng: random.Random, item: str) -> str:
    return f"{rng.choice(FIRST_NAMES)}: {rng.choice(FILLER)} {item} ({rng.choice(WORDS)})."


def _render(rng: random.Random, fmt: str, counted: list[str], excluded: list[str], column: str,
            hidden_emails: list[str], first: bool) -> bytes:
    """One document of ``fmt`` in which exactly the ``counted`` sentences count."""
    if fmt == "notes":
        lines = [*counted, *(f"# {x}" for x in excluded)]
        rng.shuffle(lines)
        return ("\n".join(lines) + "\n").encode()
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        other = rng.choice(["ref", "summary", "internal_note"])
        writer.writerow(["row", "author", column, other])
        extra = list(excluded)
        for i, sentence in enumerate(counted):
            body = sentence if rng.random() < 0.6 else f"{sentence}\n{rng.choice(FILLER)}, {rng.choice(WORDS)}"
            writer.writerow([i + 1, rng.choice(LAST_NAMES), body, extra.pop() if extra else rng.choice(WORDS)])
        for x in extra:
            writer.writerow([len(counted) + 1, rng.choice(LAST_NAMES), rng.choice(FILLER), x])
        return buf.getvalue().encode()
    if fmt == "chat":
        rows = [{"from": rng.choice(FIRST_NAMES), "text": s, "deleted": False} for s in counted]
        rows += [{"from": rng.choice(FIRST_NAMES), "text": x, "deleted": True} for x in excluded]
        rng.shuffle(rows)
        return "".join(json.dumps(r) + "\n" for r in rows).encode()
    if fmt == "html":
        def esc(s: str) -> str:
            return html.escape(s).replace("@", "&#64;") if rng.random() < 0.6 else html.escape(s)
        parts = [f"<p>{esc(s)}</p>" for s in counted]
        for x in excluded:
            parts.append(rng.choice([f"<!-- draft: {esc(x)} -->", f"<script>var draft = \"{html.escape(x)}\";</script>"]))
        rng.shuffle(parts)
        return ("<!DOCTYPE html>\n<html><head><title>Notes</title></head><body>\n" + "\n".join(parts)
                + "\n</body></html>\n").encode()
    if fmt == "email":
        body = "\n".join(counted) + "\n\nOn an earlier day someone wrote:\n" + "".join(f"> {x}\n" for x in excluded)
        encoding = "base64" if first else rng.choice(["base64", "quoted-printable", "7bit"])
        if encoding == "base64":
            payload = base64.encodebytes(body.encode()).decode()
        elif encoding == "quoted-printable":
            payload = quopri.encodestring(body.encode()).decode()
        else:
            payload = body
        sender = hidden_emails.pop() if hidden_emails else f"noreply@{rng.choice(WORDS)}.test"
        return (f"From: {rng.choice(FIRST_NAMES)} <{sender}>\nTo: support@{rng.choice(WORDS)}.test\n"
                f"Subject: Re: {rng.choice(FILLER)}\nMIME-Version: 1.0\n"
                f"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: {encoding}\n\n{payload}").encode()
    if fmt == "markdown":
        lines = [f"# {rng.choice(WORDS).title()} notes", ""]
        for s in counted:
            lines += [s, ""]
        if excluded:
            lines += ["```text", *excluded, "```", ""]
        return "\n".join(lines).encode()
    lines = [f"[worker-{rng.randint(1, 9)}] {s}" for s in counted]
    return gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0)


def _documents(rng: random.Random, formats: list[str], targets: list[Target], column: str,
               difficulty: int) -> dict[str, bytes]:
    """Place every real item (some twice) where text counts, the hidden-away items and decoys elsewhere."""
    counted: list[str] = []
    for target in targets:
        for item in target.real:
            counted.append(_sentence(rng, item))
        if target.kind in ("ids", "emails", "dates"):
            counted += [_sentence(rng, item) for item in target.real[:2]]  # repeats
        counted += [_sentence(rng, d) for d in target.decoys]
    rng.shuffle(counted)
    excluded = [_sentence(rng, item) for target in targets for item in target.hidden_away]
    rng.shuffle(excluded)
    header_emails = [x for t in targets if t.kind == "emails" for x in t.hidden_away[:1]]
    # an excluded sentence must land in a format that can hide it (every format but the compressed log)
    hiding = [f for f in formats if f != "gzlog"]  # make() never draws the compressed log alone
    per_format: dict[str, tuple[list[str], list[str]]] = {f: ([], []) for f in formats}
    for i, sentence in enumerate(counted):
        per_format[formats[i % len(formats)]][0].append(sentence)
    for i, sentence in enumerate(excluded):
        per_format[hiding[i % len(hiding)]][1].append(sentence)
    folders = ["", "inbox/", "archive/2024/", "team/", "exports/"] if difficulty == 3 else [""]
    files: dict[str, bytes] = {}
    for fmt, (inside, outside) in per_format.items():
        n_files = 1 if difficulty == 1 else 2
        for k in range(n_files):
            part_in, part_out = inside[k::n_files], outside[k::n_files]
            name = f"{rng.choice(folders)}{rng.choice(WORDS)}-{k + 1}{SUFFIX[fmt]}"
            files[name] = _render(rng, fmt, part_in, part_out, column,
                                  header_emails if fmt == "email" and k == 0 else [], k == 0)
    return files


def _expected(targets: list[Target]) -> dict[str, str]:
    out: dict[str, str] = {}
    for t in targets:
        if t.kind == "ids":
            out[t.out] = "".join(i + "\n" for i in sorted(set(t.real)))
        elif t.kind == "emails":
            out[t.out] = "".join(e + "\n" for e in sorted({e.lower() for e in t.real}))
        elif t.kind == "total":
            cents = sum(t.values)
            out[t.out] = f"{cents // 100}.{cents % 100:02d}\n"
        else:
            out[t.out] = "".join(d.isoformat() + "\n" for d in sorted(set(t.values)))
    return out


SOLVE = """#!/bin/bash
set -euo pipefail
cat > /app/extract.py <<'EOF'
import csv
import email
import email.policy
import gzip
import json
import re
import sys
from datetime import date
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
@@READERS@@
READERS = {@@SUFFIXES@@}

docs, out = Path(sys.argv[1]), Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
parts = []
for path in sorted(p for p in docs.rglob("*") if p.is_file()):
    for suffix, reader in READERS.items():
        if path.name.endswith(suffix):
            parts.extend(reader(path))
text = "\\n".join(parts)
@@TARGETS@@EOF
python3 /app/extract.py /app/docs /app/out
"""

TESTS = """
import base64
import hashlib
import subprocess
from pathlib import Path

import pytest

EXPECTED = @@EXPECTED@@
DOC_SHA256 = @@DOC_SHA256@@
HIDDEN_DOCS = @@HIDDEN_DOCS@@
HIDDEN_EXPECTED = @@HIDDEN_EXPECTED@@


@pytest.fixture(scope="module")
def hidden(tmp_path_factory):
    root = tmp_path_factory.mktemp("hidden")
    for name, data in HIDDEN_DOCS.items():
        (root / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / name).write_bytes(base64.b64decode(data))
    result = subprocess.run(["python3", "/app/extract.py", str(root / "docs"), str(root / "out")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
    return root / "out"


def test_outputs_written():
    assert sorted(p.name for p in Path("/app/out").iterdir() if p.name in EXPECTED) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_output(name):
    got = Path("/app/out", name).read_text()
    assert got == EXPECTED[name], (sorted(set(got.splitlines()) ^ set(EXPECTED[name].splitlines())))


@pytest.mark.parametrize("name", sorted(HIDDEN_EXPECTED))
def test_extractor_on_hidden_documents(hidden, name):
    got = (hidden / name).read_text()
    assert got == HIDDEN_EXPECTED[name], (sorted(set(got.splitlines()) ^ set(HIDDEN_EXPECTED[name].splitlines())))


def test_documents_left_in_place():
    for name, digest in DOC_SHA256.items():
        path = Path("/app/docs", name)
        assert path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == digest, name
"""


def make(rng: random.Random, difficulty: int) -> Instance:
    formats = rng.sample(list(SUFFIX), difficulty)
    if formats == ["gzlog"]:
        formats = ["gzlog", "notes"]  # hidden-away items need a place where text does not count
    kinds = rng.sample(sorted(TARGET_MAKERS), difficulty)
    column = rng.choice(["body", "comment", "description", "message"])
    styles = {"ids": rng.choice(["dash", "hash"]), "emails": "plain", "total": rng.choice(sorted(AMOUNT_STYLES)),
              "dates": rng.choice(sorted(DATE_STYLES))}
    prefix = rng.choice(["INV", "ORD", "TKT", "REQ", "PO", "CASE", "RMA"])
    # the shipped documents and the hidden ones (for the tests) share formats, targets and styles
    targets = [TARGET_MAKERS[k](rng, styles[k], prefix) for k in kinds]
    files = _documents(rng, formats, targets, column, difficulty)
    hidden_targets = [TARGET_MAKERS[k](rng, styles[k], prefix) for k in kinds]
    hidden_files = _documents(rng, formats, hidden_targets, column, difficulty)

    readers = sorted(set(formats))

    def script(wrong_reader: str | None = None, wrong_target: str | None = None) -> str:
        code = "".join((MISTAKEN_READERS[f][1] if f == wrong_reader else READERS[f]).replace("COLUMN", repr(column))
                       for f in readers)
        suffixes = ", ".join(f"{SUFFIX[f]!r}: read_{f}" for f in readers)
        body = "".join(t.mistake[1] if t.kind == wrong_target else t.code for t in targets)
        return SOLVE.replace("@@READERS@@", code).replace("@@SUFFIXES@@", suffixes).replace("@@TARGETS@@", body)

    wrong_format = rng.choice([f for f in readers if f != "gzlog" or len(readers) == 1] or readers)
    wrong_target = rng.choice(targets)
    wrong = {f"{MISTAKEN_READERS[wrong_format][0]}.sh": script(wrong_reader=wrong_format),
             f"{wrong_target.mistake[0]}.sh": script(wrong_target=wrong_target.kind)}
    rules = [RULES[f].replace("COLUMN", column) for f in (SUFFIX if difficulty == 3 else readers)]
    where = {1: "`/app/docs/`", 2: "`/app/docs/`", 3: "`/app/docs/` and its subfolders"}[difficulty]
    formats_line = ("Files of these kinds may be among them (find out which; the name's ending tells the kind):"
                    if difficulty == 3 else "The files:")
    instruction = f"""
Documents are in {where}. Write `/app/extract.py`: `python3 /app/extract.py DOCS OUT` reads every document
under the folder DOCS and writes the files below into the folder OUT (creating it). Then run it:
`python3 /app/extract.py /app/docs /app/out`, and leave the documents in place. The tests also run it on
other documents of the same kinds.

{formats_line}

{chr(10).join(f"- {r}" for r in rules)}

What to extract, from the text that counts (items can appear in several documents; count each once, except
amounts, which all add up):

{chr(10).join(f"- {t.rule}" for t in targets)}
"""
    expected = _expected(targets)
    return Instance(
        instruction=instruction,
        files={f"docs/{name}": data for name, data in files.items()},
        solve=script(),
        wrong=wrong,
        tests=render(TESTS, expected=expected,
                     doc_sha256={name: hashlib.sha256(data).hexdigest() for name, data in files.items()},
                     hidden_docs={n: base64.b64encode(d).decode() for n, d in hidden_files.items()},
                     hidden_expected=_expected(hidden_targets)),
        answer={"formats": formats, "targets": kinds, "expected": expected},
    )


FAMILY = Family(
    name="text-extract",
    category="text-processing",
    tags=("regex", "parsing", "email", "html", "csv", "text"),
    summary="Write an extractor for documents of 1-3 formats (notes, CSV, chat, HTML, e-mail, Markdown, gzip "
            "logs), each with parts that do not count, for 1-3 targets (ids, e-mails, money, dates) with decoys.",
    make=make,
)
