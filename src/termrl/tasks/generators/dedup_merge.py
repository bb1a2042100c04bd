"""dedup-merge: merge contact exports from several systems into one record per contact.

A seed picks the structure of the problem, not only its values:

- the **sources**: 1 to 4 systems, each with its own file format (CSV, TSV, JSON lines, a JSON array), its
  own column names and its own timestamp notation (``2024-03-05 14:22:00``, ISO 8601 with a UTC offset,
  Unix seconds, ``05/03/2024 14:22``, ``20240305T142200Z``, ``03/05/2024 02:22 PM``);
- the **identity** of a contact: the email (case-insensitive; at higher levels also ignoring ``+tags``) or
  a customer number written differently by each system (``C-0042``, ``42``, ``000042``);
- the **merge policy**: the newest record wins, the newest non-empty value per field wins, or a source
  ranking decides;
- **deletions** (levels 2-3): a ``status`` tombstone on the winning record, or a suppression list;
  records without a key to skip, and a merge report to write;
- the output fields, their order and the sort order.

At level 3 the instruction does not say the sources' formats or timestamp notations: the agent has to
inspect each file. The reference solution is composed from per-source readers and time parsers, the key
function, the policy and the deletion step; each wrong solution swaps one piece for a plausible mistake
that the generated data is checked to expose.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from termrl.tasks.generators._common import CITIES, FIRST_NAMES, LAST_NAMES, Family, Instance, python_script, render

SOURCES = ["crm", "shop", "support", "newsletter", "billing"]
DOMAINS = ["mail.test", "corp.test", "post.test", "inbox.test"]
COLUMN_NAMES = {
    "email": ["email", "e_mail", "mail", "email_address"],
    "cid": ["customer_id", "cid", "account", "customer_no"],
    "name": ["name", "full_name", "contact"],
    "city": ["city", "town", "location"],
    "phone": ["phone", "tel", "mobile"],
    "updated": ["updated", "modified", "last_change", "ts"],
    "status": ["status", "state"],
}
NOTATIONS = ["iso", "offset", "epoch", "dmy", "compact", "mdy12"]
FORMATS = ["csv", "tsv", "jsonl", "json"]
CID_STYLES = ["C-{:04d}", "{}", "{:06d}"]
OUT_FIELDS = ["name", "city", "phone", "updated", "source"]


@dataclass
class Source:
    name: str
    fmt: str
    notation: str
    cols: dict[str, str]  # field -> column name
    cid_style: str
    path: str = ""


@dataclass
class Rec:
    person: int
    source: str
    email: str  # as written
    cid: str  # as written
    name: str
    city: str
    phone: str
    t: datetime  # UTC
    raw_time: str = ""
    notation: str = ""
    status: str = "active"
    order: int = 0  # position in the solution's reading order


@dataclass
class Spec:
    key: str  # email | email_plus | cid
    policy: str  # newest | coalesce | priority
    ranking: list[str]
    deletion: str  # none | tombstone | suppression
    out: list[str]
    sort: str  # name | city | key | updated
    shape: str  # csv | json
    report: bool
    sources: list[Source] = field(default_factory=list)
    suppressed: list[str] = field(default_factory=list)


# --- rendering ------------------------------------------------------------------------------------------------------

def _time_text(t: datetime, notation: str, rng: random.Random) -> str:
    if notation == "iso":
        return t.strftime("%Y-%m-%d %H:%M:%S")
    if notation == "offset":
        local = t.astimezone(timezone(timedelta(minutes=rng.choice([-300, -180, 60, 120, 330, 540]))))
        return local.isoformat()
    if notation == "epoch":
        return str(int(t.timestamp()))
    if notation == "dmy":
        return t.strftime("%d/%m/%Y %H:%M")
    if notation == "compact":
        return t.strftime("%Y%m%dT%H%M%SZ")
    return t.strftime("%m/%d/%Y %I:%M %p")


def _render_source(spec: Spec, source: Source, recs: list[Rec]) -> str:
    fields = [f for f in ("email" if spec.key != "cid" else "cid", "name", "city", "phone", "updated")]
    if spec.deletion == "tombstone":
        fields.append("status")
    if spec.key == "cid" and "email" not in fields:
        fields.insert(1, "email")

    def value(rec: Rec, f: str) -> str:
        return {"email": rec.email, "cid": rec.cid, "name": rec.name, "city": rec.city, "phone": rec.phone,
                "updated": rec.raw_time, "status": rec.status}[f]

    if source.fmt in ("csv", "tsv"):
        buf = io.StringIO()
        writer = csv.writer(buf, delimiter="," if source.fmt == "csv" else "\t", lineterminator="\n")
        writer.writerow([source.cols[f] for f in fields])
        for rec in recs:
            writer.writerow([value(rec, f) for f in fields])
        return buf.getvalue()
    items = []
    for rec in recs:
        item = {}
        for f in fields:
            v: object = value(rec, f)
            if f == "updated" and source.notation == "epoch":
                v = int(v)
            if v == "" and f in ("city", "phone"):
                v = None
            item[source.cols[f]] = v
        items.append(item)
    if source.fmt == "jsonl":
        return "".join(json.dumps(i) + "\n" for i in items)
    return json.dumps(items, indent=2) + "\n"


# --- the reference answer (a model of the rules) -------------------------------------------------------------------

def _key(spec: Spec, rec: Rec, mistake: str | None) -> str:
    if spec.key == "cid":
        digits = "".join(c for c in rec.cid if c.isdigit())
        return rec.cid.strip() if mistake == "raw_key" else (str(int(digits)) if digits else "")
    email = rec.email.strip() if mistake == "raw_key" else rec.email.strip().lower()
    if spec.key == "email_plus" and mistake != "no_plus" and "@" in email:
        local, domain = email.split("@", 1)
        email = local.split("+", 1)[0] + "@" + domain
    return email


def _stamp(spec: Spec, rec: Rec, mistake: str | None):
    if mistake == "string_time":
        return rec.raw_time
    if mistake == "naive_time" and rec.notation == "offset":
        return datetime.fromisoformat(rec.raw_time).replace(tzinfo=timezone.utc)
    return rec.t


def _answer(spec: Spec, recs: list[Rec], mistake: str | None = None) -> dict:
    ordered = sorted(recs, key=lambda r: r.order)
    skipped = 0
    groups: dict[str, list[Rec]] = {}
    for rec in ordered:
        key = _key(spec, rec, mistake)
        if not key and mistake != "empty_key":
            skipped += 1
            continue
        groups.setdefault(key, []).append(rec)
    suppressed = {_key(spec, Rec(0, "", s, s, "", "", "", datetime(2000, 1, 1)), mistake) for s in spec.suppressed}
    rows, dropped = [], 0
    for key, group in groups.items():
        newest = max(group, key=lambda r: _stamp(spec, r, mistake))
        if mistake == "first_wins":
            winner = group[0]
        elif spec.policy == "priority" and mistake != "ignore_priority":
            best = min(spec.ranking.index(r.source) for r in group)
            winner = max((r for r in group if spec.ranking.index(r.source) == best),
                         key=lambda r: _stamp(spec, r, mistake))
        else:
            winner = newest
        stamp = _stamp(spec, winner, mistake)
        values = {"name": winner.name, "city": winner.city, "phone": winner.phone, "source": winner.source,
                  "updated": stamp if isinstance(stamp, str) else stamp.strftime("%Y-%m-%dT%H:%M:%SZ")}
        if spec.policy == "coalesce" and mistake not in ("whole_record", "first_wins"):
            by_time = sorted(group, key=lambda r: _stamp(spec, r, mistake), reverse=True)
            for f in ("name", "city", "phone"):
                values[f] = next((getattr(r, f) for r in by_time if getattr(r, f)), "")
        if mistake != "ignore_deletion":
            if spec.deletion == "tombstone" and winner.status == "deleted":
                dropped += 1
                continue
            if spec.deletion == "suppression" and key in suppressed:
                dropped += 1
                continue
        rows.append({"key": key, **values})
    sort = {"name": lambda r: (r["name"], r["key"]), "city": lambda r: (r["city"], r["name"], r["key"]),
            "key": lambda r: r["key"], "updated": lambda r: (r["updated"], r["key"])}[spec.sort]
    if spec.key == "cid" and spec.sort == "key":
        rows.sort(key=lambda r: int(r["key"]) if r["key"].isdigit() else -1)
    else:
        rows.sort(key=sort)
    if spec.sort == "updated":
        rows.sort(key=lambda r: (r["updated"], r["key"]), reverse=True)
    table = [[r["key"]] + [r[f] for f in spec.out] for r in rows]
    report = {"records": len(recs), "skipped": skipped, "contacts": len(rows), "dropped": dropped}
    return {"rows": table, "report": report if spec.report else None}


# --- the reference solution ------------------------------------------------------------------------------------------

PARSERS = {
    "iso": "datetime.strptime(v, '%Y-%m-%d %H:%M:%S').replace(tzinfo=timezone.utc)",
    "offset": "datetime.fromisoformat(v).astimezone(timezone.utc)",
    "epoch": "datetime.fromtimestamp(int(v), timezone.utc)",
    "dmy": "datetime.strptime(v, '%d/%m/%Y %H:%M').replace(tzinfo=timezone.utc)",
    "compact": "datetime.strptime(v, '%Y%m%dT%H%M%SZ').replace(tzinfo=timezone.utc)",
    "mdy12": "datetime.strptime(v, '%m/%d/%Y %I:%M %p').replace(tzinfo=timezone.utc)",
}
READERS = {
    "csv": "items = list(csv.DictReader(open(PATH, newline='', encoding='utf-8')))",
    "tsv": "items = list(csv.DictReader(open(PATH, newline='', encoding='utf-8'), delimiter='\\t'))",
    "jsonl": "items = [json.loads(line) for line in open(PATH, encoding='utf-8') if line.strip()]",
    "json": "items = json.load(open(PATH, encoding='utf-8'))",
}


def _solution(spec: Spec, out_path: str, mistake: str | None = None) -> str:
    body = "import csv, json, os\nfrom datetime import datetime, timezone\n\n"
    if spec.key == "cid":
        body += ("def key_of(v):\n" + ("    return v.strip()\n" if mistake == "raw_key" else
                                       "    digits = ''.join(c for c in v if c.isdigit())\n"
                                       "    return str(int(digits)) if digits else ''\n"))
    else:
        body += "def key_of(v):\n    v = v.strip()" + ("" if mistake == "raw_key" else ".lower()") + "\n"
        if spec.key == "email_plus" and mistake != "no_plus":
            body += "    if '@' in v:\n        local, domain = v.split('@', 1)\n        v = local.split('+', 1)[0] + '@' + domain\n"
        body += "    return v\n"
    body += "\nrecords = []\n"
    key_field = "cid" if spec.key == "cid" else "email"
    for source in sorted(spec.sources, key=lambda s: s.path):
        parse = PARSERS[source.notation]
        if mistake == "string_time":
            parse = "v"
        elif mistake == "naive_time" and source.notation == "offset":
            parse = "datetime.fromisoformat(v).replace(tzinfo=timezone.utc)"
        body += f"\n# {source.name}: {source.fmt}, times {source.notation}\n"
        body += READERS[source.fmt].replace("PATH", repr(source.path)) + "\nfor item in items:\n"
        body += "    item = {k: '' if v is None else str(v) for k, v in item.items()}\n"
        body += "    v = item[" + repr(source.cols["updated"]) + "]\n"
        body += "    records.append({'key': key_of(item[" + repr(source.cols[key_field]) + "]), 'source': "
        body += repr(source.name) + ",\n"
        body += "                    'name': item[" + repr(source.cols["name"]) + "].strip(), 'city': item["
        body += repr(source.cols["city"]) + "].strip(), 'phone': item[" + repr(source.cols["phone"]) + "].strip(),\n"
        if spec.deletion == "tombstone":
            body += "                    'status': item[" + repr(source.cols["status"]) + "].strip(),\n"
        body += f"                    't': {parse}}})\n"
    body += "\nread = len(records)\n"
    if mistake == "empty_key":
        body += "skipped = 0\n"
    else:
        body += "skipped = sum(1 for r in records if not r['key'])\nrecords = [r for r in records if r['key']]\n"
    body += "groups = {}\nfor r in records:\n    groups.setdefault(r['key'], []).append(r)\n"
    if spec.deletion == "suppression":
        body += ("suppressed = {key_of(line) for line in open('/app/suppress.txt', encoding='utf-8') "
                 "if line.strip()}\n")
    body += "rows, dropped = [], 0\nfor key, group in groups.items():\n"
    body += "    newest = max(group, key=lambda r: r['t'])\n"
    if mistake == "first_wins":
        body += "    winner = group[0]\n"
    elif spec.policy == "priority" and mistake != "ignore_priority":
        body += (f"    RANK = {spec.ranking!r}\n"
                 "    best = min(RANK.index(r['source']) for r in group)\n"
                 "    winner = max((r for r in group if RANK.index(r['source']) == best), key=lambda r: r['t'])\n")
    else:
        body += "    winner = newest\n"
    body += "    row = dict(winner)\n"
    if spec.policy == "coalesce" and mistake not in ("whole_record", "first_wins"):
        body += ("    for f in ('name', 'city', 'phone'):\n"
                 "        row[f] = next((r[f] for r in sorted(group, key=lambda r: r['t'], reverse=True) if r[f]), '')\n")
    if mistake != "ignore_deletion":
        if spec.deletion == "tombstone":
            body += "    if winner['status'] == 'deleted':\n        dropped += 1\n        continue\n"
        elif spec.deletion == "suppression":
            body += "    if key in suppressed:\n        dropped += 1\n        continue\n"
    if mistake == "string_time":
        body += "    row['updated'] = row['t']\n"
    else:
        body += "    row['updated'] = row['t'].strftime('%Y-%m-%dT%H:%M:%SZ')\n"
    body += "    rows.append(row)\n"
    sort = {"name": "rows.sort(key=lambda r: (r['name'], r['key']))",
            "city": "rows.sort(key=lambda r: (r['city'], r['name'], r['key']))",
            "key": "rows.sort(key=lambda r: int(r['key']))" if spec.key == "cid" else "rows.sort(key=lambda r: r['key'])",
            "updated": "rows.sort(key=lambda r: (r['updated'], r['key']), reverse=True)"}[spec.sort]
    body += sort + "\n"
    fields = ["key", *spec.out]
    header = [_key_column(spec), *spec.out]
    body += f"FIELDS, HEADER = {fields!r}, {header!r}\n"
    if spec.shape == "csv":
        body += (f"with open({out_path!r}, 'w', newline='', encoding='utf-8') as fh:\n"
                 "    writer = csv.writer(fh, lineterminator='\\n')\n    writer.writerow(HEADER)\n"
                 "    for r in rows:\n        writer.writerow([r[f] for f in FIELDS])\n")
    else:
        body += (f"json.dump([{{h: r[f] for f, h in zip(FIELDS, HEADER)}} for r in rows], open({out_path!r}, 'w'), "
                 "indent=2)\n")
    if spec.report:
        body += ("json.dump({'records': read, 'skipped': skipped, 'contacts': len(rows), 'dropped': dropped}, "
                 "open('/app/merge_report.json', 'w'), indent=2)\n")
    return python_script(body)


def _key_column(spec: Spec) -> str:
    return "customer_id" if spec.key == "cid" else "email"


TESTS = """
import csv
import hashlib
import json
from pathlib import Path

import pytest

HEADER = @@HEADER@@
EXPECTED = @@EXPECTED@@
SHAPE = @@SHAPE@@
OUTPUT = @@OUTPUT@@
SOURCES_SHA256 = @@SOURCES_SHA256@@


@pytest.fixture(scope="module")
def rows():
    path = Path(OUTPUT)
    assert path.is_file(), OUTPUT + " was not written"
    if SHAPE == "csv":
        lines = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
        assert lines and lines[0] == HEADER, "header must be " + ",".join(HEADER)
        return [list(r) for r in lines[1:] if r]
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, list), "the output must be a JSON array"
    for item in data:
        assert isinstance(item, dict) and sorted(item) == sorted(HEADER), item
    return [[str(item[h]) for h in HEADER] for item in data]


def test_one_row_per_contact(rows):
    keys = [r[0] for r in rows]
    assert len(keys) == len(set(keys)), "a contact appears twice"
    assert sorted(keys) == sorted(r[0] for r in EXPECTED)


def test_merged_values(rows):
    got = {r[0]: r for r in rows}
    for row in EXPECTED:
        assert got.get(row[0]) == row, row[0]


def test_order(rows):
    assert [r[0] for r in rows] == [r[0] for r in EXPECTED]


def test_exports_untouched():
    for path, digest in SOURCES_SHA256.items():
        assert hashlib.sha256(Path(path).read_bytes()).hexdigest() == digest, path
"""

REPORT_TEST = """

REPORT = @@REPORT@@


def test_report():
    path = Path("/app/merge_report.json")
    assert path.is_file(), "/app/merge_report.json was not written"
    assert json.loads(path.read_text()) == REPORT
"""


# --- the instance --------------------------------------------------------------------------------------------------------

MISTAKES = ["first_wins", "string_time", "naive_time", "raw_key", "no_plus", "whole_record", "ignore_deletion",
            "ignore_priority", "empty_key"]


def _applicable(spec: Spec) -> list[str]:
    out = ["first_wins", "string_time", "raw_key"]
    if any(s.notation == "offset" for s in spec.sources):
        out.append("naive_time")
    if spec.key == "email_plus":
        out.append("no_plus")
    if spec.policy == "coalesce":
        out.append("whole_record")
    if spec.policy == "priority":
        out.append("ignore_priority")
    if spec.deletion != "none":
        out.append("ignore_deletion")
    if spec.report:
        out.append("empty_key")
    return out


def _spec(rng: random.Random, difficulty: int) -> Spec:
    n_sources = {1: rng.randint(1, 2), 2: rng.randint(2, 3), 3: rng.randint(3, 4)}[difficulty]
    names = rng.sample(SOURCES, n_sources)
    key = rng.choice(["email", "cid"] if difficulty == 1 else ["email", "email_plus", "cid"])
    policies = ["newest", "coalesce"] + (["priority"] if n_sources > 1 else [])
    spec = Spec(key=key, policy=rng.choice(policies), ranking=rng.sample(names, n_sources),
                deletion="none" if difficulty == 1 else rng.choice(["none", "tombstone", "suppression"]),
                out=rng.sample(OUT_FIELDS, rng.randint(2, 4)), sort=rng.choice(["name", "city", "key", "updated"]),
                shape=rng.choice(["csv", "json"]), report=difficulty >= 2)
    if difficulty == 3 and spec.deletion == "none":
        spec.deletion = rng.choice(["tombstone", "suppression"])
    if spec.sort == "city" and "city" not in spec.out:
        spec.out.append("city")
    if spec.sort == "name" and "name" not in spec.out:
        spec.out.append("name")
    spec.out.sort(key=OUT_FIELDS.index)
    shared_notation = rng.choice(NOTATIONS)
    for name in names:
        fmt = rng.choice(FORMATS)
        notation = shared_notation if difficulty == 1 else rng.choice(NOTATIONS)
        cols = {f: rng.choice(options) for f, options in COLUMN_NAMES.items()}
        ext = {"csv": "csv", "tsv": "tsv", "jsonl": "jsonl", "json": "json"}[fmt]
        path = f"/app/exports/{name}.{'export' if difficulty == 3 else ext}"
        spec.sources.append(Source(name, fmt, notation, cols, rng.choice(CID_STYLES), path))
    return spec


def _records(spec: Spec, rng: random.Random, difficulty: int) -> list[Rec]:
    n_people = {1: 10, 2: 14, 3: 18}[difficulty] + rng.randint(0, 4)
    base = datetime(2024, rng.randint(1, 12), rng.randint(1, 28), tzinfo=timezone.utc)
    minutes = rng.sample(range(0, 400 * 24 * 60, 7), 200)
    recs: list[Rec] = []
    used = set()
    for p in range(n_people):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        local = f"{first}.{last}{rng.randint(1, 99)}".lower()
        if local in used:
            continue
        used.add(local)
        email = f"{local}@{rng.choice(DOMAINS)}"
        cid = rng.randint(1, 9999)
        n_versions = 3 if p < 2 else rng.choice([1, 1, 2, 3])
        for v in range(n_versions):
            source = rng.choice(spec.sources)
            shown = email
            if rng.random() < 0.35:
                shown = shown.upper() if rng.random() < 0.4 else shown.capitalize()
            if spec.key == "email_plus" and (p == 0 and v == 1 or rng.random() < 0.25):
                at = shown.index("@")
                shown = f"{shown[:at]}+{source.name}{shown[at:]}"
            if difficulty >= 2 and source.fmt in ("csv", "tsv") and rng.random() < 0.2:
                shown = f" {shown} "
            t = base + timedelta(minutes=minutes.pop())
            rec = Rec(p, source.name, shown, source.cid_style.format(cid), f"{first} {last}",
                      rng.choice(CITIES), f"+{rng.randint(30, 49)} {rng.randint(100, 999)} {rng.randint(1000, 9999)}",
                      t)
            if spec.policy == "coalesce" and v > 0 and rng.random() < 0.4:
                setattr(rec, rng.choice(["city", "phone"]), "")
            if spec.deletion == "tombstone" and v == n_versions - 1 and n_versions > 1 and rng.random() < 0.3:
                rec.status = "deleted"
            recs.append(rec)
    if spec.report:
        for _ in range(rng.randint(1, 3)):
            rec = Rec(-1, rng.choice(spec.sources).name, "", "", f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}",
                      rng.choice(CITIES), "", base + timedelta(minutes=minutes.pop()))
            recs.append(rec)
    for source in spec.sources:  # the day/month order of a source's times shows in its data
        mine = [r for r in recs if r.source == source.name]
        if source.notation in ("dmy", "mdy12") and mine and not any(r.t.day > 12 for r in mine):
            rec = rng.choice(mine)
            rec.t = rec.t.replace(day=rng.randint(13, 28))
    if spec.deletion == "tombstone":
        newest = max((r for r in recs if r.person == 1), key=lambda r: r.t)
        newest.status = "deleted"
    if spec.deletion == "suppression":
        people = sorted({r.person for r in recs if r.person >= 0})
        for p in rng.sample(people, max(2, len(people) // 6)):
            rec = next(r for r in recs if r.person == p)
            text = rec.cid if spec.key == "cid" else rec.email.strip()
            spec.suppressed.append(text.upper() if spec.key != "cid" and rng.random() < 0.5 else text)
    return recs


def _order(spec: Spec, recs: list[Rec], rng: random.Random) -> None:
    """Shuffle each source's records (the oldest version of person 0 first) and number them in reading order."""
    n = 0
    for source in sorted(spec.sources, key=lambda s: s.path):
        mine = [r for r in recs if r.source == source.name]
        rng.shuffle(mine)
        mine.sort(key=lambda r: (r.person != 0, r.t if r.person == 0 else 0))
        for r in mine:
            r.order = n
            n += 1


def _describe(spec: Spec, source: Source, difficulty: int) -> str:
    fmt = {"csv": "CSV with a header row", "tsv": "tab-separated values with a header row",
           "jsonl": "JSON lines (one object per line)", "json": "a JSON array of objects"}[source.fmt]
    notation = {"iso": "`YYYY-MM-DD HH:MM:SS` in UTC", "offset": "ISO 8601 with a UTC offset "
                "(`2024-03-05T16:22:00+02:00`)", "epoch": "Unix seconds",
                "dmy": "`DD/MM/YYYY HH:MM` in UTC", "compact": "`YYYYMMDDTHHMMSSZ` (UTC)",
                "mdy12": "`MM/DD/YYYY HH:MM AM|PM` in UTC"}[source.notation]
    cols = source.cols
    key = cols["cid"] if spec.key == "cid" else cols["email"]
    what = (f"`{key}` (customer number), `{cols['email']}`" if spec.key == "cid" else f"`{key}` (email)")
    text = (f"`{source.path}` ({fmt}): columns {what}, `{cols['name']}`, `{cols['city']}`, `{cols['phone']}`, "
            f"`{cols['updated']}` (last change, {notation})")
    if spec.deletion == "tombstone":
        text += f", `{cols['status']}` (`active` or `deleted`)"
    return text + "."


def make(rng: random.Random, difficulty: int) -> Instance:
    spec = _spec(rng, difficulty)
    for _attempt in range(30):
        spec.suppressed = []
        recs = _records(spec, rng, difficulty)
        for rec in recs:
            source = next(s for s in spec.sources if s.name == rec.source)
            rec.raw_time = _time_text(rec.t, source.notation, rng)
            rec.notation = source.notation
        if len({r.t for r in recs}) < len(recs):
            continue
        _order(spec, recs, rng)
        expected = _answer(spec, recs)
        exposed = [m for m in _applicable(spec) if _answer(spec, recs, m) != expected]
        if exposed and len(expected["rows"]) >= 3:
            break
    else:  # pragma: no cover
        raise RuntimeError("dedup-merge: no wrong solution is exposed by the generated data")
    deep = [m for m in exposed if m not in ("raw_key", "empty_key")]
    mistakes = rng.sample(deep, min(2, len(deep)))
    rest = [m for m in exposed if m not in deep]
    mistakes = sorted(mistakes + rng.sample(rest, min(2 - len(mistakes), len(rest))))

    files: dict[str, str] = {}
    for source in spec.sources:
        files[source.path.removeprefix("/app/")] = _render_source(
            spec, source, sorted((r for r in recs if r.source == source.name), key=lambda r: r.order))
    if spec.deletion == "suppression":
        files["suppress.txt"] = "\n".join(spec.suppressed) + "\n"
    out_path = "/app/contacts.csv" if spec.shape == "csv" else "/app/contacts.json"
    header = [_key_column(spec), *spec.out]

    key_rule = {"email": "A contact is identified by its email, compared case-insensitively and without surrounding "
                         "spaces; write it in lower case.",
                "email_plus": "A contact is identified by its email, compared case-insensitively, without surrounding "
                              "spaces and without a `+tag` in the local part (`ada.berg+shop@mail.test` is "
                              "`ada.berg@mail.test`); write it in that normalised, lower-case form.",
                "cid": "A contact is identified by its customer number; the systems write it differently (`C-0042`, "
                       "`42`, `000042` are all customer 42). Write it as a plain integer (`42`)."}[spec.key]
    policy = {"newest": "When a contact has several records, the one with the latest last-change time wins: take "
                        "every field from it.",
              "coalesce": "When a contact has several records, take each of `name`, `city` and `phone` from the "
                          "newest record (by last-change time) where that field is not empty (empty if none has it); "
                          "`updated` and `source` come from the newest record.",
              "priority": "When a contact has several records, the source ranking decides: "
                          + " > ".join(f"`{s}`" for s in spec.ranking)
                          + "; the record from the highest-ranked source wins (among records from that source, the "
                            "one with the latest last-change time). Take every field from the winning record."}[
        spec.policy]
    rules = [key_rule, policy]
    if spec.report:
        rules.append("Records with an empty key are skipped.")
    if spec.deletion == "tombstone":
        rules.append("A contact whose winning record has status `deleted` is left out entirely.")
    if spec.deletion == "suppression":
        rules.append("`/app/suppress.txt` lists contacts (one key per line, written like the exports write them) "
                     "who must be left out entirely.")
    field_text = {"name": "`name`: the name", "city": "`city`: the city", "phone": "`phone`: the phone number",
                  "updated": "`updated`: the last-change time of the "
                             + ("newest" if spec.policy == "coalesce" else "winning") + " record in UTC as "
                             "`YYYY-MM-DDTHH:MM:SSZ`",
                  "source": "`source`: the name of the system the "
                            + ("newest" if spec.policy == "coalesce" else "winning") + " record came from ("
                            + ", ".join(f"`{s.name}`" for s in spec.sources) + ")"}
    kc = f"`{_key_column(spec)}`"
    order = {"name": f"by `name`, then {kc}", "city": f"by `city`, then `name`, then {kc}", "key":
             f"by {kc}" + (" (numerically)" if spec.key == "cid" else ""),
             "updated": "by `updated`, newest first"}[spec.sort]
    lines = []
    if difficulty < 3:
        lines += ["Contact exports from " + ("one system" if len(spec.sources) == 1 else f"{len(spec.sources)} systems")
                  + " are in `/app/exports/`:", ""]
        lines += [f"- {_describe(spec, s, difficulty)}" for s in sorted(spec.sources, key=lambda s: s.path)]
    else:
        lines += [f"Contact exports from {len(spec.sources)} systems are in `/app/exports/` "
                  f"({', '.join('`' + s.path.rsplit('/', 1)[1] + '`' for s in sorted(spec.sources, key=lambda s: s.path))}"
                  "; the system is the file name without `.export`). Nobody documented them: find out each file's "
                  "format, which column is which (each holds the "
                  + ("customer number, " if spec.key == "cid" else "")
                  + "email, name, city, phone, the time of the last change"
                  + (" and a status, `active` or `deleted`" if spec.deletion == "tombstone" else "")
                  + ") and how each system writes its times (a time without a UTC offset is UTC; a date order can "
                    "be told from the data)."]
    lines += ["", "Merge them into one record per contact:", "", *(f"- {r}" for r in rules), ""]
    if spec.shape == "csv":
        lines.append(f"Write `{out_path}`: CSV with the header `{','.join(header)}` and one row per contact, sorted "
                     f"{order}.")
    else:
        lines.append(f"Write `{out_path}`: a JSON array with one object per contact, with exactly the keys "
                     + ", ".join(f"`{h}`" for h in header) + f" (all strings), sorted {order}.")
    lines += ["", *(f"- {field_text[f]}" for f in spec.out)]
    if spec.report:
        lines += ["", "Also write `/app/merge_report.json`: `{\"records\": <records read from all exports>, "
                      "\"skipped\": <records with an empty key>, \"contacts\": <contacts written>, \"dropped\": "
                      "<contacts left out by the deletion rule>}` (JSON integers)."]
    lines += ["", "Do not modify the exports."]

    digests = {("/app/" + p): hashlib.sha256(c.encode()).hexdigest() for p, c in files.items()}
    tests = TESTS + (REPORT_TEST if spec.report else "")
    return Instance(
        instruction="\n".join(lines),
        files=files,
        solve=_solution(spec, out_path),
        wrong={f"wrong_{m}.sh": _solution(spec, out_path, m) for m in mistakes},
        tests=render(tests, header=header, expected=expected["rows"], shape=spec.shape, output=out_path,
                     sources_sha256=digests, report=expected["report"]),
        answer=expected,
    )


FAMILY = Family(
    name="dedup-merge",
    category="data-processing",
    tags=("csv", "json", "dedup", "merge", "timestamps"),
    summary="Merge contact exports from 1-4 systems (own formats, columns and time notations) into one record per "
            "contact by a seed-chosen key, merge policy and deletion rule.",
    make=make,
)
