"""csv-to-json: convert a generated shipments export to JSON by stated rules.

A seed picks the structure of the problem, not only its values:

- the **input format**: comma CSV (quoted fields), semicolon CSV, TSV, pipe-separated, JSON lines,
  fixed-width columns or ``key: value`` record blocks; its encoding (UTF-8, UTF-8 with a BOM, Latin-1)
  and, at the hardest level, gzip compression;
- the **source columns' names and order**, and how each value is written (ids as ``42``/``SH-00042``/``#42``,
  names as ``First Last`` or ``Last, First``, weights with a decimal point, a decimal comma or a unit,
  dates in seven notations, flags as ``Y/N``, ``yes/no``, ``1/0``, ``true/false`` or ``x``, prices plain, with a
  currency or in cents);
- the **output**: which fields with which key names, the filter, the sort order, and the shape (array,
  object keyed by id, JSON lines);
- the **failure modes** in the data (levels 2-3): empty values, damaged records to count, superseded
  duplicate ids.

At level 3 the instruction does not say the format, the encoding, the compression or the date notation:
the agent has to inspect the file to find them out. The reference solution is composed from the
pieces chosen (reader, converters, dedup, filter, sort, writer), and each wrong solution swaps one piece
for a plausible mistake that the generated data is checked to expose.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone

from termrl.tasks.generators._common import CITIES, FIRST_NAMES, LAST_NAMES, Family, Instance, python_script, render

STATUSES = ["delivered", "in_transit", "returned", "lost"]
ACCENTED_FIRST = ["Zoë", "José", "Renée", "Jürgen", "Søren", "Inês", "Célia", "Bjørn"]
ACCENTED_LAST = ["Müller", "Gómez", "Ødegaard", "Lefèvre", "Straße", "Çelik", "Håkansson"]
ACCENTED_CITIES = ["Malmö", "Zürich", "Genève", "Kraków", "Tromsø", "Bogotá"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

FIELDS = ["id", "customer", "weight", "shipped", "express", "status", "city", "price"]
SOURCE_NAMES = {
    "id": ["shipment_id", "ref", "order_no", "id", "tracking"],
    "customer": ["customer", "client", "consignee", "recipient"],
    "weight": ["weight_kg", "weight", "mass", "kg"],
    "shipped": ["shipped_on", "ship_date", "dispatched", "date"],
    "express": ["express", "priority", "is_express", "rush"],
    "status": ["status", "state", "stage"],
    "city": ["city", "dest_city", "destination", "town"],
    "price": ["price", "amount", "cost", "charge"],
}
OUTPUT_NAMES = {
    "customer": ["customer", "client", "buyer", "name"],
    "weight": ["weight_kg", "weight", "kg", "mass_kg"],
    "shipped": ["shipped_on", "date", "ship_date", "shipped"],
    "express": ["express", "priority", "is_express"],
    "city": ["city", "destination", "to"],
    "price": ["price", "amount", "cost_eur"],
}
STYLES = {
    "id": ["plain", "prefixed", "hash"],
    "customer": ["plain", "last_first"],
    "weight": ["point", "comma", "unit"],
    "shipped": ["iso", "dmy", "mdy", "dotted", "text", "epoch", "mixed"],
    "express": ["yn", "yesno", "10", "truefalse", "x"],
    "status": ["lower", "mixed_case"],
    "city": ["plain"],
    "price": ["plain", "currency", "cents"],
}
FORMATS = ["csv", "semicolon", "tsv", "pipe", "jsonl", "fixed", "records"]
EXTENSIONS = {"csv": "csv", "semicolon": "csv", "tsv": "tsv", "pipe": "txt", "jsonl": "jsonl", "fixed": "txt",
              "records": "txt"}
DELIMITERS = {"csv": ",", "semicolon": ";", "tsv": "\t", "pipe": "|"}


@dataclass
class Spec:
    fmt: str
    encoding: str  # utf-8 | utf-8-sig | latin-1
    gz: bool
    src: dict[str, str]  # field -> column name in the file
    columns: list[str]  # fields in file order
    styles: dict[str, str]
    out: dict[str, str]  # output fields (not id) -> key
    filter: tuple  # () | ("status", value) | ("min_weight", x) | ("month", "YYYY-MM") | ("express",)
    sort: str  # weight | price | shipped | id
    shape: str  # array | object | jsonl
    nulls: bool
    damaged: bool
    dedup: bool
    blank_lines: bool = False


@dataclass
class Row:
    truth: dict  # field -> true value (None for missing weight/price)
    raw: dict = field(default_factory=dict)  # field -> text in the file
    damaged: bool = False


# --- rendering the file -----------------------------------------------------------------------------------------

def _num(x: float, comma: bool = False) -> str:
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return text.replace(".", ",") if comma else text


def _raw_value(spec: Spec, name: str, value, rng: random.Random):
    """How ``value`` of field ``name`` is written in the file (a str; a JSON value for jsonl)."""
    style = spec.styles[name]
    jsonl = spec.fmt == "jsonl"
    if name == "id":
        if style == "plain":
            return value if jsonl else str(value)
        return f"SH-{value:05d}" if style == "prefixed" else f"#{value}"
    if name == "customer":
        first, last = value
        return f"{first} {last}" if style == "plain" else f"{last}, {first}"
    if name == "weight":
        if value is None:
            return None if jsonl else ""
        if style == "unit":
            grams = round(value * 1000)
            return f"{grams} g" if value < 1 or rng.random() < 0.3 else f"{_num(value)} kg"
        return value if jsonl else _num(value, style == "comma")
    if name == "shipped":
        if style == "mixed":
            style = rng.choice(["iso", "dmy", "text"])
        if style == "epoch":
            stamp = datetime(value.year, value.month, value.day, tzinfo=timezone.utc) + timedelta(
                seconds=rng.randint(0, 86_399))
            return int(stamp.timestamp()) if jsonl else str(int(stamp.timestamp()))
        return {"iso": value.isoformat(), "dmy": value.strftime("%d/%m/%Y"), "mdy": value.strftime("%m/%d/%Y"),
                "dotted": value.strftime("%d.%m.%Y"),
                "text": f"{value.day} {MONTHS[value.month - 1]} {value.year}"}[style]
    if name == "express":
        if jsonl:
            return value
        return {"yn": "YN", "yesno": ("yes", "no"), "10": "10", "truefalse": ("true", "false"),
                "x": ("x", "")}[style][0 if value else 1]
    if name == "status":
        if style == "mixed_case":
            return rng.choice([value, value.upper(), value.capitalize()])
        return value
    if name == "city":
        return value
    # price
    if value is None:
        return None if jsonl else ""
    if style == "cents":
        return round(value * 100) if jsonl else str(round(value * 100))
    if style == "currency":
        if spec.styles["weight"] == "comma":
            whole, cents = f"{value:,.2f}".split(".")
            return f"{whole.replace(',', '.')},{cents} EUR"
        return f"${value:,.2f}"
    return value if jsonl else f"{value:.2f}"


def _render_file(spec: Spec, rows: list[Row], rng: random.Random) -> bytes:
    names = [spec.src[f] for f in spec.columns]
    lines: list[str] = []
    if spec.fmt in DELIMITERS:
        buf = io.StringIO()
        if spec.fmt in ("csv", "semicolon"):
            writer = csv.writer(buf, delimiter=DELIMITERS[spec.fmt], lineterminator="\n")
            writer.writerow(names)
            for row in rows:
                values = [row.raw[f] for f in spec.columns]
                writer.writerow(values[:rng.randint(2, len(values) - 2)] if row.damaged else values)
            lines = buf.getvalue().splitlines()
        else:
            sep = DELIMITERS[spec.fmt]
            lines.append(sep.join(names))
            for row in rows:
                values = [row.raw[f] for f in spec.columns]
                lines.append(sep.join(values[:rng.randint(2, len(values) - 2)] if row.damaged else values))
    elif spec.fmt == "jsonl":
        for row in rows:
            item = {spec.src[f]: row.raw[f] for f in spec.columns}
            text = json.dumps(item, ensure_ascii=False)
            if row.damaged:
                if rng.random() < 0.5:
                    text = text[:rng.randint(10, len(text) - 5)]
                else:
                    item.pop(spec.src[rng.choice([f for f in spec.columns if f != "id"])])
                    text = json.dumps(item, ensure_ascii=False)
            lines.append(text)
    elif spec.fmt == "fixed":
        widths = [max(len(n), *(len(r.raw[f]) for r in rows)) + rng.randint(2, 4)
                  for n, f in zip(names, spec.columns)]
        total = sum(widths)
        lines.append("".join(n.ljust(w) for n, w in zip(names, widths)))
        for row in rows:
            line = "".join(row.raw[f].ljust(w) for f, w in zip(spec.columns, widths))
            lines.append(line[:rng.randint(widths[0] + 1, total - widths[-1] - 1)].rstrip() if row.damaged else line)
    else:  # records
        blocks = []
        for row in rows:
            order = list(spec.columns)
            rng.shuffle(order)
            if row.damaged:
                order.remove(rng.choice([f for f in order if f != "id"]))
            blocks.append("\n".join(f"{spec.src[f]}: {row.raw[f]}".rstrip() for f in order))
        lines = "\n\n".join(blocks).split("\n")
    if spec.blank_lines:
        for _ in range(rng.randint(1, 3)):
            lines.insert(rng.randint(2, len(lines)), "")
        lines.append("")
    data = ("\n".join(lines) + "\n").encode(spec.encoding)
    return gzip.compress(data, mtime=0) if spec.gz else data


# --- the reference answer (a model of the rules, independent of the solution code) ---------------------------------

def _convert(spec: Spec, row: Row, mistake: str | None) -> dict:
    t = dict(row.truth)
    first, last = t["customer"]
    name = f"{first} {last}"
    if mistake == "name_unflipped":
        name = row.raw["customer"]
    if mistake == "utf8_replace":
        name = name.encode("latin-1").decode("utf-8", "replace")
        t["city"] = t["city"].encode("latin-1").decode("utf-8", "replace")
    t["customer"] = name
    if mistake == "missing_as_zero":
        t["weight"] = 0.0 if t["weight"] is None else t["weight"]
        t["price"] = 0.0 if t["price"] is None else t["price"]
    if mistake == "no_unit_convert" and t["weight"] is not None and str(row.raw["weight"]).endswith(" g"):
        t["weight"] = float(round(t["weight"] * 1000))
    if mistake in ("month_first", "day_first"):
        day: date = t["shipped"]
        raw = str(row.raw["shipped"])
        if "/" in raw or "." in raw:
            if day.day <= 12:
                t["shipped"] = date(day.year, day.day, day.month)
    t["shipped"] = t["shipped"].isoformat()
    if mistake == "bool_truthy":
        t["express"] = str(row.raw["express"]) != ""
    t["_status"] = str(row.raw["status"]) if mistake == "case_sensitive_status" else t["status"]
    t["_raw_date"] = str(row.raw["shipped"])
    return t


def _passes(spec: Spec, t: dict, mistake: str | None = None) -> bool:
    kind = spec.filter[0] if spec.filter and mistake != "no_filter" else None
    if kind == "status":
        return t["_status"] == spec.filter[1]
    if kind == "min_weight":
        return t["weight"] is not None and t["weight"] >= spec.filter[1]
    if kind == "month":
        return t["shipped"].startswith(spec.filter[1])
    if kind == "express":
        return t["express"] is True
    return True


def _sort(spec: Spec, recs: list[dict], mistake: str | None) -> None:
    key = spec.sort
    if mistake == "string_sort":
        if key in ("weight", "price"):
            recs.sort(key=lambda r: r["id"])
            recs.sort(key=lambda r: "" if r[key] is None else str(r[key]), reverse=True)
        elif key == "id":
            recs.sort(key=lambda r: str(r["id"]))
        else:
            recs.sort(key=lambda r: (r["_raw_date"], r["id"]))
        return
    if key in ("weight", "price"):
        recs.sort(key=lambda r: (r[key] is None, -(r[key] or 0), r["id"]))
    elif key == "id":
        recs.sort(key=lambda r: r["id"])
    else:
        recs.sort(key=lambda r: (r["shipped"], r["id"]))


def _answer(spec: Spec, rows: list[Row], mistake: str | None = None) -> dict:
    recs = [_convert(spec, r, mistake) for r in rows if not r.damaged]
    rejected = sum(r.damaged for r in rows)
    if spec.dedup:
        if mistake == "filter_before_dedup":
            recs = [r for r in recs if _passes(spec, r, mistake)]
        latest: dict[int, dict] = {}
        for r in recs:
            if mistake == "first_wins":
                latest.setdefault(r["id"], r)
            else:
                latest[r["id"]] = r
        recs = list(latest.values())
    recs = [r for r in recs if _passes(spec, r, mistake)]
    _sort(spec, recs, mistake)
    objects = []
    for r in recs:
        obj = {"id": r["id"]}
        for f, key in spec.out.items():
            key = spec.src[f] if mistake == "source_keys" else key
            value = r[f]
            obj[key] = round(value, 6) if isinstance(value, float) else value
        objects.append(obj)
    return {"rows": objects, "rejected": rejected if spec.damaged else None}


# --- the reference solution, composed from pieces ------------------------------------------------------------------

def _reader(spec: Spec, mistake: str | None) -> str:
    blank = "rejected += 1\n        continue" if mistake == "count_blank" else "continue"
    if spec.fmt in DELIMITERS:
        quoting = ", quoting=csv.QUOTE_NONE" if spec.fmt in ("tsv", "pipe") else ""
        return f"""
reader = csv.reader(io.StringIO(text), delimiter={DELIMITERS[spec.fmt]!r}{quoting})
header = next(reader)
for values in reader:
    if not values:
        {blank}
    if len(values) != len(header):
        rejected += 1
        continue
    rows.append(dict(zip(header, values)))
"""
    if spec.fmt == "jsonl":
        return f"""
for line in text.splitlines():
    if not line.strip():
        {blank}
    try:
        item = json.loads(line)
    except ValueError:
        rejected += 1
        continue
    if sorted(item) != sorted(COLUMNS):
        rejected += 1
        continue
    rows.append({{k: "" if v is None else str(v).lower() if isinstance(v, bool) else str(v) for k, v in item.items()}})
"""
    if spec.fmt == "fixed":
        return f"""
lines = text.splitlines()
header = lines[0]
spans = [(m.start(), m.group()) for m in re.finditer(r"\\S+", header)]
for line in lines[1:]:
    if not line.strip():
        {blank}
    if len(line) < len(header):
        rejected += 1
        continue
    ends = [start for start, _ in spans[1:]] + [None]
    rows.append({{name: line[start:end].strip() for (start, name), end in zip(spans, ends)}})
"""
    return """
for block in re.split(r"\\n\\s*\\n", text):
    if not block.strip():
        continue
    item = {}
    for line in block.splitlines():
        key, _, value = line.partition(":")
        item[key.strip()] = value.strip()
    if sorted(item) != sorted(COLUMNS):
        rejected += 1
        continue
    rows.append(item)
"""


def _converters(spec: Spec, mistake: str | None) -> str:
    s = spec.styles
    out = []
    out.append({"plain": "def conv_id(v):\n    return int(v)",
                "prefixed": "def conv_id(v):\n    return int(v.split('-')[-1])",
                "hash": "def conv_id(v):\n    return int(v.lstrip('#'))"}[s["id"]])
    if s["customer"] == "last_first" and mistake != "name_unflipped":
        out.append("def conv_customer(v):\n    last, first = v.split(',', 1)\n"
                   "    return first.strip() + ' ' + last.strip()")
    else:
        out.append("def conv_customer(v):\n    return v.strip()")
    empty = "    if not v.strip():\n        return " + ("0.0" if mistake == "missing_as_zero" else "None") + "\n"
    if s["weight"] == "unit":
        scale = "" if mistake == "no_unit_convert" else "\n    if unit == 'g':\n        return float(number) / 1000"
        out.append("def conv_weight(v):\n" + empty + "    number, unit = v.split()" + scale
                   + "\n    return float(number)")
    elif s["weight"] == "comma":
        out.append("def conv_weight(v):\n" + empty + "    return float(v.replace(',', '.'))")
    else:
        out.append("def conv_weight(v):\n" + empty + "    return float(v)")
    fmts = {"iso": ["%Y-%m-%d"], "dmy": ["%d/%m/%Y"], "mdy": ["%m/%d/%Y"], "dotted": ["%d.%m.%Y"],
            "text": ["%d %b %Y"], "mixed": ["%Y-%m-%d", "%d/%m/%Y", "%d %b %Y"]}
    if s["shipped"] == "epoch":
        out.append("def conv_shipped(v):\n    return datetime.fromtimestamp(int(v), timezone.utc).date().isoformat()")
    else:
        tries = fmts[s["shipped"]]
        if mistake == "month_first":
            tries = [f.replace("%d/%m", "%m/%d").replace("%d.%m", "%m.%d") for f in tries] + tries
        if mistake == "day_first":
            tries = ["%d/%m/%Y"] + tries
        if len(tries) == 1:
            out.append(f"def conv_shipped(v):\n    return datetime.strptime(v, {tries[0]!r}).date().isoformat()")
        else:
            out.append(f"def conv_shipped(v):\n    for fmt in {tries!r}:\n        try:\n"
                       "            return datetime.strptime(v, fmt).date().isoformat()\n"
                       "        except ValueError:\n            pass\n    raise SystemExit('unknown date ' + v)")
    if mistake == "bool_truthy":
        out.append("def conv_express(v):\n    return bool(v.strip())")
    else:
        out.append({"yn": "def conv_express(v):\n    return v == 'Y'",
                    "yesno": "def conv_express(v):\n    return v.lower() == 'yes'",
                    "10": "def conv_express(v):\n    return v == '1'",
                    "truefalse": "def conv_express(v):\n    return v.lower() == 'true'",
                    "x": "def conv_express(v):\n    return v.strip().lower() == 'x'"}[
            "truefalse" if spec.fmt == "jsonl" else s["express"]])
    if s["status"] == "mixed_case" and mistake != "case_sensitive_status":
        out.append("def conv_status(v):\n    return v.strip().lower()")
    else:
        out.append("def conv_status(v):\n    return v.strip()")
    out.append("def conv_city(v):\n    return v.strip()")
    if s["price"] == "cents":
        out.append("def conv_price(v):\n" + empty + "    return int(v) / 100")
    elif s["price"] == "currency" and s["weight"] == "comma":
        out.append("def conv_price(v):\n" + empty
                   + "    return float(v.replace('EUR', '').strip().replace('.', '').replace(',', '.'))")
    elif s["price"] == "currency":
        out.append("def conv_price(v):\n" + empty + "    return float(v.replace('$', '').replace(',', ''))")
    else:
        out.append("def conv_price(v):\n" + empty + "    return float(v)")
    return "\n".join(out) + "\n"


def _solution(spec: Spec, path: str, out_path: str, mistake: str | None = None) -> str:
    src = {f: spec.src[f] for f in FIELDS}
    if spec.gz:
        read = f"text = gzip.decompress(open({path!r}, 'rb').read())"
    else:
        read = f"text = open({path!r}, 'rb').read()"
    if mistake == "utf8_replace":
        read += ".decode('utf-8', 'replace')"
    elif mistake == "bom_kept":
        read += ".decode('utf-8')"
    else:
        read += f".decode({spec.encoding!r})"
    body = ("import csv, gzip, io, json, os, re\nfrom datetime import datetime, timezone\n"
            f"SRC = {src!r}\nCOLUMNS = list(SRC.values())\n" + _converters(spec, mistake)
            + read + "\nrows, rejected = [], 0\n" + _reader(spec, mistake).strip("\n") + "\n")
    body += "recs = []\nfor row in rows:\n    rec = {f: globals()['conv_' + f](row[SRC[f]]) for f in SRC}\n"
    body += "    rec['_raw_date'] = row[SRC['shipped']]\n    recs.append(rec)\n"
    if spec.filter and mistake != "no_filter":
        kind = spec.filter[0]
        test = {"status": f"r['status'] == {spec.filter[1]!r}" if kind == "status" else "",
                "min_weight": f"r['weight'] is not None and r['weight'] >= {spec.filter[1]!r}"
                if kind == "min_weight" else "",
                "month": f"r['shipped'].startswith({spec.filter[1]!r})" if kind == "month" else "",
                "express": "r['express'] is True"}[kind]
        keep = f"recs = [r for r in recs if {test}]\n"
    else:
        keep = ""
    if spec.dedup:
        if mistake == "filter_before_dedup":
            body += keep
        body += "latest = {}\nfor r in recs:\n" + (
            "    latest.setdefault(r['id'], r)\n" if mistake == "first_wins" else "    latest[r['id']] = r\n")
        body += "recs = list(latest.values())\n"
    body += keep
    key = spec.sort
    if mistake == "string_sort":
        if key in ("weight", "price"):
            body += (f"recs.sort(key=lambda r: r['id'])\n"
                     f"recs.sort(key=lambda r: '' if r[{key!r}] is None else str(r[{key!r}]), reverse=True)\n")
        elif key == "id":
            body += "recs.sort(key=lambda r: str(r['id']))\n"
        else:
            body += "recs.sort(key=lambda r: (r['_raw_date'], r['id']))\n"
    elif key in ("weight", "price"):
        body += f"recs.sort(key=lambda r: (r[{key!r}] is None, -(r[{key!r}] or 0), r['id']))\n"
    elif key == "id":
        body += "recs.sort(key=lambda r: r['id'])\n"
    else:
        body += "recs.sort(key=lambda r: (r['shipped'], r['id']))\n"
    out = {f: spec.src[f] for f in spec.out} if mistake == "source_keys" else spec.out
    body += f"OUT = {out!r}\nobjects = [dict(id=r['id'], **{{k: r[f] for f, k in OUT.items()}}) for r in recs]\n"
    body += "os.makedirs('/app/out', exist_ok=True)\n"
    if spec.shape == "array":
        body += f"json.dump(objects, open({out_path!r}, 'w'), indent=2, ensure_ascii=False)\n"
    elif spec.shape == "object":
        body += ("by_id = {str(o.pop('id')): o for o in objects}\n"
                 f"json.dump(by_id, open({out_path!r}, 'w'), indent=2, ensure_ascii=False)\n")
    else:
        body += (f"with open({out_path!r}, 'w') as fh:\n    for o in objects:\n"
                 "        fh.write(json.dumps(o, ensure_ascii=False) + '\\n')\n")
    if spec.damaged:
        body += "open('/app/out/rejected.txt', 'w').write(f'{rejected}\\n')\n"
    return python_script(body)


TESTS = """
import hashlib
import json
from pathlib import Path

import pytest

EXPECTED = @@EXPECTED@@
KEYS = @@KEYS@@
SHAPE = @@SHAPE@@
OUTPUT = @@OUTPUT@@
REJECTED = @@REJECTED@@
SOURCE = @@SOURCE@@
SOURCE_SHA256 = @@SOURCE_SHA256@@


@pytest.fixture(scope="module")
def rows():
    path = Path(OUTPUT)
    assert path.is_file(), OUTPUT + " was not written"
    if SHAPE == "jsonl":
        data = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        assert all(isinstance(o, dict) for o in data), "every line must be a JSON object"
        return data
    data = json.loads(path.read_text(encoding="utf-8"))
    if SHAPE == "array":
        assert isinstance(data, list), "the output must be a JSON array"
        return data
    assert isinstance(data, dict), "the output must be a JSON object keyed by id"
    for key, value in data.items():
        assert isinstance(value, dict) and "id" not in value, key
    return [dict(value, id=int(key)) for key, value in data.items()]


def test_kept_records(rows):
    assert sorted(r.get("id") for r in rows) == sorted(r["id"] for r in EXPECTED)


def test_exact_keys(rows):
    for row in rows:
        assert sorted(row) == sorted(KEYS), row


def test_values(rows):
    by_id = {r["id"]: r for r in EXPECTED}
    for row in rows:
        want = by_id[row["id"]]
        for key, value in want.items():
            if isinstance(value, float):
                assert row[key] == pytest.approx(value, abs=1e-6), (row["id"], key)
            else:
                assert row[key] == value, (row["id"], key)


def test_types(rows):
    for row in rows:
        assert type(row["id"]) is int, row
        for key, value in EXPECTED[0].items():
            if isinstance(value, bool):
                assert type(row[key]) is bool, (row["id"], key)
            elif isinstance(value, str):
                assert type(row[key]) is str, (row["id"], key)
            elif row[key] is not None:
                assert type(row[key]) in (int, float), (row["id"], key)


def test_order(rows):
    assert [r["id"] for r in rows] == [r["id"] for r in EXPECTED]


def test_source_untouched():
    assert hashlib.sha256(Path(SOURCE).read_bytes()).hexdigest() == SOURCE_SHA256
"""

REJECTED_TEST = """

def test_rejected_count():
    path = Path("/app/out/rejected.txt")
    assert path.is_file(), "/app/out/rejected.txt was not written"
    assert path.read_text().strip() == str(REJECTED)
"""


# --- the instance ----------------------------------------------------------------------------------------------------

def _spec(rng: random.Random, difficulty: int) -> Spec:
    fmt = rng.choice(FORMATS)
    styles = {f: rng.choice(options) for f, options in STYLES.items()}
    if fmt == "csv" and styles["weight"] == "comma":
        styles["weight"] = "point"
    if fmt == "jsonl":
        styles["weight"] = rng.choice(["point", "unit"])
        styles["express"] = "truefalse"
    if difficulty == 1:
        styles["shipped"] = rng.choice(["iso", "dmy", "mdy", "dotted", "text", "epoch"])
        styles["weight"] = "comma" if styles["weight"] == "comma" else "point"
        styles["status"] = "lower"
    if styles["shipped"] == "mixed" and (difficulty == 3 or rng.random() < 0.5):
        # level 3 does not describe the notation: it must be one, told apart by the data
        styles["shipped"] = rng.choice(["dmy", "mdy"])
    encoding = "utf-8"
    if difficulty >= 2 and fmt != "jsonl":
        encoding = rng.choice(["utf-8", "utf-8-sig", "latin-1"])
    columns = list(FIELDS)
    rng.shuffle(columns)
    if encoding == "utf-8-sig":  # a BOM glued to the first column name breaks every lookup of it
        columns.remove("id")
        columns.insert(0, "id")
    src = {f: rng.choice(SOURCE_NAMES[f]) for f in FIELDS}
    if styles["price"] == "cents":
        src["price"] = rng.choice(["price_cents", "amount_cents", "cents"])
    chosen = rng.sample(["weight", "shipped", "express", "city", "price"], {1: 2, 2: 3, 3: rng.randint(3, 5)}[difficulty])
    out_fields = ["customer"] + sorted(chosen, key=FIELDS.index)
    out = {f: rng.choice(OUTPUT_NAMES[f]) for f in out_fields}
    filt = rng.choice([(), ("status",), ("min_weight",), ("month",), ("express",)])
    sort = rng.choice(["weight", "price", "shipped", "id"])
    shape = rng.choice(["array", "object", "jsonl"])
    damaged = difficulty >= 2
    return Spec(fmt=fmt, encoding=encoding, gz=difficulty == 3 and rng.random() < 0.4, src=src, columns=columns,
                styles=styles, out=out, filter=filt, sort=sort, shape=shape, nulls=difficulty >= 2,
                damaged=damaged, dedup=difficulty == 3 or (difficulty == 2 and rng.random() < 0.4),
                blank_lines=damaged and fmt != "records")


def _rows(spec: Spec, rng: random.Random, difficulty: int) -> list[Row]:
    n = {1: 14, 2: 22, 3: 28}[difficulty] + rng.randint(0, 6)
    ids = rng.sample(range(1, 3000), n)
    ids[0], ids[1] = rng.randint(1, 9), rng.randint(1000, 2999)  # one-digit and four-digit ids side by side
    if ids[0] in ids[2:] or ids[1] in ids[2:]:
        ids = ids[:2] + [i for i in ids[2:] if i not in ids[:2]]
    start = date(2025, rng.randint(1, 12), 1)
    accents = spec.encoding != "utf-8" or difficulty == 3
    rows = []
    for i, sid in enumerate(ids):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        city = rng.choice(CITIES)
        if accents and (i < 2 or rng.random() < 0.2):
            first = rng.choice(ACCENTED_FIRST) if i == 0 or rng.random() < 0.5 else first
            last = rng.choice(ACCENTED_LAST) if i == 1 or rng.random() < 0.5 else last
            city = rng.choice(ACCENTED_CITIES) if rng.random() < 0.4 else city
        weight = round(rng.uniform(10, 80), 2) if i % 2 else round(rng.uniform(0.2, 9.9), rng.choice([1, 2]))
        if i == 1:
            weight = round(rng.uniform(9.0, 9.9), 1)
        if i == 3:
            weight = round(rng.uniform(0.2, 0.95), 2)
        price = round(rng.uniform(2, 2500), 2)
        if i == 2:
            price = round(rng.uniform(1000, 2500), 2)
        if i == 4:
            price = round(rng.uniform(2, 9.9), 2)
        day = start + timedelta(days=rng.randint(0, 150))
        if i in (0, 5):  # a day after the 12th (the day/month order shows) ...
            day = date(day.year, day.month, rng.randint(13, 28))
        if i in (1, 2, 6):  # ... and days that could be months
            day = date(day.year, day.month, rng.randint(1, 12))
            if day.day == day.month:
                day = date(day.year, day.month, day.day % 12 + 1)
        truth = {"id": sid, "customer": (first, last), "weight": weight, "shipped": day,
                 "express": rng.random() < 0.45 if i > 1 else i == 0, "status": rng.choice(STATUSES), "city": city,
                 "price": price}
        if spec.nulls and i > 6 and rng.random() < 0.12:
            truth[rng.choice(["weight", "price"])] = None
        if spec.nulls and i == 7:
            truth["weight" if spec.sort != "price" else "price"] = None
        rows.append(Row(truth))
    return rows


def _filter_value(spec: Spec, rows: list[Row], rng: random.Random) -> tuple:
    kind = spec.filter[0] if spec.filter else None
    if kind == "status":
        counts = {s: sum(r.truth["status"] == s for r in rows) for s in STATUSES}
        return ("status", max(STATUSES, key=lambda s: (counts[s], s)))
    if kind == "min_weight":
        weights = sorted(r.truth["weight"] for r in rows if r.truth["weight"] is not None)
        return ("min_weight", float(round(weights[len(weights) // 3])))
    if kind == "month":
        months: dict[str, int] = {}
        for r in rows:
            key = r.truth["shipped"].strftime("%Y-%m")
            months[key] = months.get(key, 0) + 1
        return ("month", max(sorted(months), key=lambda m: months[m]))
    return spec.filter


def _with_failures(spec: Spec, rows: list[Row], rng: random.Random) -> list[Row]:
    """Add superseded versions and damaged records in file order."""
    out = list(rows)
    if spec.dedup:
        picks = rng.sample(range(len(rows)), max(3, len(rows) // 6))
        for k, j in enumerate(picks):
            old = Row(dict(rows[j].truth))
            # the superseded version differs in the output, and for the first one it passes the filter while
            # the current version does not (filtering before deduplicating keeps the stale record)
            old.truth["weight"] = round(rng.uniform(0.5, 70), 2)
            old.truth["price"] = round(rng.uniform(2, 2500), 2)
            old.truth["city"] = rng.choice(CITIES)
            if k == 0:
                _make_fail_filter(spec, rows[j], rng)
                _make_pass_filter(spec, old, rng)
            out.insert(rng.randint(0, out.index(rows[j])), old)
    if spec.damaged:
        for _ in range(rng.randint(2, 4)):
            bad = Row(dict(rng.choice(rows).truth), damaged=True)
            bad.truth["id"] = rng.randint(3000, 3999)
            out.insert(rng.randint(1, len(out)), bad)
    return out


def _make_pass_filter(spec: Spec, row: Row, rng: random.Random) -> None:
    kind = spec.filter[0] if spec.filter else None
    if kind == "status":
        row.truth["status"] = spec.filter[1]
    elif kind == "min_weight":
        row.truth["weight"] = round(spec.filter[1] + rng.uniform(1, 20), 2)
    elif kind == "month":
        y, m = map(int, spec.filter[1].split("-"))
        row.truth["shipped"] = date(y, m, rng.randint(13, 28))
    elif kind == "express":
        row.truth["express"] = True


def _make_fail_filter(spec: Spec, row: Row, rng: random.Random) -> None:
    kind = spec.filter[0] if spec.filter else None
    if kind == "status":
        row.truth["status"] = rng.choice([s for s in STATUSES if s != spec.filter[1]])
    elif kind == "min_weight":
        row.truth["weight"] = round(rng.uniform(0.1, max(0.2, spec.filter[1] - 0.5)), 2)
    elif kind == "month":
        y, m = map(int, spec.filter[1].split("-"))
        row.truth["shipped"] = date(y + 1, m, rng.randint(13, 28))
    elif kind == "express":
        row.truth["express"] = False


MISTAKES = {
    "string_sort": "sorts the numbers (or dates) as text",
    "missing_as_zero": "writes 0 for an empty value instead of null",
    "first_wins": "keeps the first row of a repeated id instead of the last",
    "filter_before_dedup": "filters before dropping superseded rows",
    "month_first": "reads day-first dates month first",
    "day_first": "reads month-first dates day first",
    "utf8_replace": "decodes Latin-1 text as UTF-8",
    "bom_kept": "keeps the byte-order mark in the first column name",
    "no_unit_convert": "ignores the gram unit",
    "name_unflipped": "leaves `Last, First` names as they are",
    "count_blank": "counts blank lines as rejected records",
    "case_sensitive_status": "compares the status case-sensitively",
    "bool_truthy": "treats every non-empty flag as true",
    "no_filter": "keeps every shipment",
    "source_keys": "keeps the file's column names as keys",
}


def _applicable(spec: Spec) -> list[str]:
    out = ["string_sort"]
    if spec.filter:
        out.append("no_filter")
    if any(spec.src[f] != key for f, key in spec.out.items()):
        out.append("source_keys")
    if spec.nulls:
        out.append("missing_as_zero")
    if spec.dedup:
        out += ["first_wins", "filter_before_dedup"] if spec.filter else ["first_wins"]
    if spec.styles["shipped"] in ("dmy", "dotted", "mixed"):
        out.append("month_first")
    if spec.styles["shipped"] == "mdy":
        out.append("day_first")
    if spec.encoding == "latin-1":
        out.append("utf8_replace")
    if spec.encoding == "utf-8-sig":
        out.append("bom_kept")
    if spec.styles["weight"] == "unit":
        out.append("no_unit_convert")
    if spec.styles["customer"] == "last_first":
        out.append("name_unflipped")
    if spec.blank_lines and spec.damaged:
        out.append("count_blank")
    if spec.styles["status"] == "mixed_case" and spec.filter and spec.filter[0] == "status":
        out.append("case_sensitive_status")
    if spec.fmt != "jsonl" and spec.styles["express"] != "x":
        out.append("bool_truthy")
    return out


def _exposed(spec: Spec, rows: list[Row], expected: dict, mistake: str) -> bool:
    if mistake in ("bom_kept", "count_blank"):
        return True  # a KeyError on the first column / a count off by the blank lines
    return _answer(spec, rows, mistake) != expected


def _describe_format(spec: Spec) -> str:
    cols = ", ".join(f"`{spec.src[f]}`" for f in spec.columns)
    enc = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8 with a byte-order mark", "latin-1": "Latin-1 (ISO-8859-1)"}[
        spec.encoding]
    text = {"csv": "standard CSV (comma-separated, fields quoted when they contain a comma) with a header row",
            "semicolon": "CSV separated by semicolons (`;`) with a header row",
            "tsv": "tab-separated values with a header row (no quoting)",
            "pipe": "values separated by `|` with a header row (no quoting)",
            "jsonl": "JSON lines: one JSON object per line, keyed by column name",
            "fixed": "fixed-width text: a header line names the columns, and each column's values start at the "
                     "same character position as its name in the header (padded with spaces; every line is "
                     "padded to the header's full length)",
            "records": "records of `name: value` lines (in any order), records separated by a blank line"}[spec.fmt]
    return f"It is {text}, encoded in {enc}. Its columns are {cols}."


def _describe_values(spec: Spec) -> list[str]:
    s = spec.styles
    out = [{"plain": "`{id}` is the shipment number (`42`)", "prefixed": "`{id}` is the shipment number, written `SH-00042`",
            "hash": "`{id}` is the shipment number, written `#42`"}[s["id"]].format(id=spec.src["id"]),
           {"plain": "`{c}` is the customer's name, `First Last`",
            "last_first": "`{c}` is the customer's name written `Last, First`"}[s["customer"]].format(
               c=spec.src["customer"]),
           {"point": "`{w}` is the weight in kg with a decimal point",
            "comma": "`{w}` is the weight in kg with a decimal comma (`12,5`)",
            "unit": "`{w}` is the weight with its unit, `kg` or `g` (`12.5 kg`, `850 g`)"}[s["weight"]].format(
               w=spec.src["weight"]),
           {"iso": "`{d}` is the shipping date as `YYYY-MM-DD`", "dmy": "`{d}` is the shipping date as `DD/MM/YYYY`",
            "mdy": "`{d}` is the shipping date as `MM/DD/YYYY`", "dotted": "`{d}` is the shipping date as `DD.MM.YYYY`",
            "text": "`{d}` is the shipping date as `D Mon YYYY` (`4 Mar 2026`)",
            "epoch": "`{d}` is the shipping time as Unix seconds (the date is the UTC date)",
            "mixed": "`{d}` is the shipping date in one of `YYYY-MM-DD`, `DD/MM/YYYY` (day first) or `D Mon YYYY` "
                     "(`4 Mar 2026`), mixed"}[s["shipped"]].format(d=spec.src["shipped"]),
           ("`{e}` is a JSON boolean (express shipment or not)" if spec.fmt == "jsonl" else
            {"yn": "`{e}` is `Y` for an express shipment, `N` otherwise",
             "yesno": "`{e}` is `yes` for an express shipment, `no` otherwise",
             "10": "`{e}` is `1` for an express shipment, `0` otherwise",
             "truefalse": "`{e}` is `true` for an express shipment, `false` otherwise",
             "x": "`{e}` is `x` for an express shipment, empty otherwise"}[s["express"]]).format(e=spec.src["express"]),
           f"`{spec.src['status']}` is the status, one of {', '.join(f'`{x}`' for x in STATUSES)}"
           + (" in any letter case (`Delivered`, `DELIVERED`)" if s["status"] == "mixed_case" else ""),
           f"`{spec.src['city']}` is the destination city",
           {"plain": "`{p}` is the price in EUR with a decimal point",
            "currency": "`{p}` is the price with its currency sign and thousands separators ("
                        + ("`1.234,50 EUR`)" if s["weight"] == "comma" else "`$1,234.50`)"),
            "cents": "`{p}` is the price in cents (`123450` is 1234.50)"}[s["price"]].format(p=spec.src["price"])]
    return out


def _meaning(spec: Spec) -> list[str]:
    """Level 3: what each column means, without saying how it is written."""
    return ["the shipment number", "the customer's name", "the weight", "the shipping date",
            "whether the shipment is express", "the status (" + ", ".join(f"`{x}`" for x in STATUSES) + ")",
            "the destination city", "the price" + (" in cents" if spec.styles["price"] == "cents" else "")]


def make(rng: random.Random, difficulty: int) -> Instance:
    spec = _spec(rng, difficulty)
    for _attempt in range(30):
        base = _rows(spec, rng, difficulty)
        spec.filter = _filter_value(spec, base, rng)
        rows = _with_failures(spec, base, rng)
        for row in rows:
            row.raw = {f: _raw_value(spec, f, row.truth[f], rng) for f in FIELDS}
        expected = _answer(spec, rows)
        if len(expected["rows"]) < 3:
            continue
        exposed = [m for m in _applicable(spec) if _exposed(spec, rows, expected, m)]
        if exposed:
            break
    else:  # pragma: no cover - the data above always exposes a mistake within a few attempts
        raise RuntimeError("csv-to-json: no wrong solution is exposed by the generated data")
    if spec.blank_lines and "count_blank" not in exposed:
        exposed.append("count_blank")
    deep = [m for m in exposed if m not in ("no_filter", "source_keys")]
    mistakes = rng.sample(deep, min(len(deep), 2))
    mistakes = sorted(mistakes + rng.sample([m for m in exposed if m not in deep], min(2 - len(mistakes),
                                                                                        len(exposed) - len(deep))))

    if difficulty == 3:
        path = "/app/data/export.dat"
    else:
        path = f"/app/data/shipments.{EXTENSIONS[spec.fmt]}"
    content = _render_file(spec, rows, rng)
    out_path = f"/app/out/shipments.{'jsonl' if spec.shape == 'jsonl' else 'json'}"
    keys = ["id", *spec.out.values()]

    rules = ["`id`: the shipment number as a JSON integer."]
    rule_text = {
        "customer": "the customer's name as `First Last`, trimmed",
        "weight": "the weight in kilograms as a JSON number" + ("; an empty weight is `null`" if spec.nulls else ""),
        "shipped": "the shipping date as `YYYY-MM-DD`",
        "express": "`true` for an express shipment, else `false`",
        "city": "the destination city, unchanged",
        "price": "the price as a JSON number" + ("; an empty price is `null`" if spec.nulls else ""),
    }
    rules += [f"`{key}`: {rule_text[f]}." for f, key in spec.out.items()]
    kind = spec.filter[0] if spec.filter else None
    value = spec.filter[-1] if spec.filter else None
    if kind == "status":
        keep = f"Keep only the shipments whose status is `{value}`" + (
            " (in any letter case)" if spec.styles["status"] == "mixed_case" else "") + "."
    elif kind == "min_weight":
        keep = (f"Keep only the shipments whose weight is at least {value:g} kg (a shipment without a weight is "
                "left out).")
    elif kind == "month":
        keep = f"Keep only the shipments shipped in {value} (year-month)."
    elif kind == "express":
        keep = "Keep only the express shipments."
    else:
        keep = "Keep every shipment."
    order = {"weight": "by weight, heaviest first (numerically), shipments without a weight last; ties by `id`",
             "price": "by price, highest first (numerically), shipments without a price last; ties by `id`",
             "shipped": "by shipping date, oldest first; ties by `id`",
             "id": "by `id` ascending (numerically)"}[spec.sort]
    shape = {"array": f"`{out_path}`: a JSON array with one object per kept shipment, in this order: {order}.",
             "object": f"`{out_path}`: a JSON object whose keys are the kept shipments' ids as strings "
                       f"(`\"42\"`), in this order: {order}; each value is the shipment's object without `id`.",
             "jsonl": f"`{out_path}`: JSON lines, one object per kept shipment, in this order: {order}."}[spec.shape]
    if spec.shape == "object":
        rules[0] = "`id`: the shipment number (the object's key; as a JSON integer when it is a field)."

    lines = []
    if difficulty < 3:
        lines += [f"`{path}` is an export of shipments. " + _describe_format(spec)
                  + (" It is gzip-compressed." if spec.gz else ""), "",
                  "The columns hold:", "", *(f"- {v};" for v in _describe_values(spec))]
    else:
        lines += [f"`{path}` is an export of shipments from a system nobody documented. Find out its format "
                  "(layout, separator, text encoding, compression) and how each value is written (the date notation "
                  "is the same throughout the file and can be told from the data; times are UTC; weights may carry "
                  "units; names may be written last name first) before converting.", "",
                  "Each record holds " + ", ".join(_meaning(spec)) + "; the column names tell which is which."]
    if spec.damaged:
        lines += ["", "Some records are damaged (cut short, or missing a field): skip them, and write how many there "
                      "were to `/app/out/rejected.txt` (just the number). Blank lines are not records."]
    if spec.dedup:
        lines += ["", "Some shipment numbers appear in more than one record: the **last** one in the file is the "
                      "current version and earlier ones are superseded. Drop superseded records before filtering "
                      "(a shipment is kept or left out by its current version only)."]
    lines += ["", keep, "", "Write " + shape + " Each object has exactly the keys "
              + ", ".join(f"`{k}`" for k in keys) + ":", "", *(f"- {r}" for r in rules), "",
              "Create `/app/out/` if needed. Do not modify the export."]

    source_rel = path.removeprefix("/app/")
    tests = render(TESTS + (REJECTED_TEST if spec.damaged else ""), expected=expected["rows"], keys=keys, shape=spec.shape, output=out_path,
                   rejected=expected["rejected"], source=path, source_sha256=hashlib.sha256(content).hexdigest())
    return Instance(
        instruction="\n".join(lines),
        files={source_rel: content},
        solve=_solution(spec, path, out_path),
        wrong={f"wrong_{m}.sh": _solution(spec, path, out_path, m) for m in mistakes},
        tests=tests,
        answer=expected,
    )


FAMILY = Family(
    name="csv-to-json",
    category="data-processing",
    tags=("csv", "json", "transformation", "encoding"),
    summary="Convert a shipments export (seven formats, three encodings, gzip; values written many ways; damaged "
            "and superseded records) to JSON with seed-chosen fields, filter, order and shape.",
    make=make,
)
