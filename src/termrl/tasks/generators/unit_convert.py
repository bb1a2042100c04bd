"""unit-convert: aggregate generated measurements written in mixed units, per item and dimension.

A seed picks the structure of the problem, not only its values:

- the **input format**: CSV with separate quantity and unit columns (names vary), CSV with one
  ``12.5 km`` reading column, JSON lines, or ``key=value`` log lines;
- the **dimensions**: length, mass, volume, duration, data size (decimal ``kB`` vs binary ``KiB``) and
  temperature (an affine scale), 1 to 3 of them;
- how units and numbers are written (levels 2-3): names and plurals as well as symbols, any letter case, a
  decimal comma or thousands separators;
- the **aggregation** (sum, mean or largest for amounts; mean, highest or lowest for temperatures), the
  output unit of each dimension, the decimals and the output format (CSV or JSON);
- invalid rows to skip and count (levels 2-3).

At level 3 the instruction gives the unit definitions but not how the data writes them (names, plurals,
case) nor its number notation: the agent has to inspect the data. The reference solution is composed
from the pieces chosen; each wrong solution swaps one piece for a plausible mistake that the generated
data is checked to expose.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import random
from dataclasses import dataclass, field

from termrl.tasks.generators._common import WORDS, Family, Instance, python_script, render

# dimension -> base unit, {unit: (factor, offset)} with base = value * factor + offset
DIMENSIONS = {
    "length": ("m", {"mm": (0.001, 0), "cm": (0.01, 0), "m": (1.0, 0), "km": (1000.0, 0), "in": (0.0254, 0),
                     "ft": (0.3048, 0), "yd": (0.9144, 0), "mi": (1609.344, 0)}),
    "mass": ("kg", {"g": (0.001, 0), "kg": (1.0, 0), "t": (1000.0, 0), "lb": (0.45359237, 0),
                    "oz": (0.028349523125, 0)}),
    "volume": ("l", {"ml": (0.001, 0), "l": (1.0, 0), "m3": (1000.0, 0), "gal": (3.785411784, 0),
                     "floz": (0.0295735295625, 0)}),
    "duration": ("s", {"ms": (0.001, 0), "s": (1.0, 0), "min": (60.0, 0), "h": (3600.0, 0), "d": (86400.0, 0)}),
    "data": ("B", {"B": (1.0, 0), "kB": (1e3, 0), "MB": (1e6, 0), "GB": (1e9, 0), "KiB": (1024.0, 0),
                   "MiB": (1048576.0, 0), "GiB": (1073741824.0, 0)}),
    "temperature": ("C", {"C": (1.0, 0.0), "F": (5 / 9, -32 * 5 / 9), "K": (1.0, -273.15)}),
}
ALIASES = {
    "mm": ["millimetre", "millimeters"], "cm": ["centimetre", "centimeters"], "m": ["metre", "meters"],
    "km": ["kilometre", "kilometers"], "in": ["inch", "inches"], "ft": ["foot", "feet"], "yd": ["yard", "yards"],
    "mi": ["mile", "miles"], "g": ["gram", "grams"], "kg": ["kilogram", "kilos"], "t": ["tonne", "tonnes"],
    "lb": ["lbs", "pounds"], "oz": ["ounce", "ounces"], "ml": ["millilitre", "milliliters"],
    "l": ["litre", "liters"], "m3": ["cubic metre", "cubic meters"], "gal": ["gallon", "gallons"],
    "floz": ["fl oz", "fluid ounces"], "ms": ["millisecond", "msec"], "s": ["sec", "seconds"],
    "min": ["mins", "minutes"], "h": ["hr", "hours"], "d": ["day", "days"], "B": ["byte", "bytes"],
    "kB": ["kilobyte", "kilobytes"], "MB": ["megabyte", "megabytes"], "GB": ["gigabyte", "gigabytes"],
    "KiB": ["kibibyte", "kibibytes"], "MiB": ["mebibyte", "mebibytes"], "GiB": ["gibibyte", "gibibytes"],
    "C": ["degC", "celsius"], "F": ["degF", "fahrenheit"], "K": ["kelvin", "kelvins"],
}
TARGETS = {"length": ["m", "km", "ft", "mi"], "mass": ["kg", "lb", "g"], "volume": ["l", "ml", "gal"],
           "duration": ["s", "min", "h"], "data": ["B", "kB", "MiB", "MB"], "temperature": ["C", "F", "K"]}
RANGES = {"length": (0.1, 900), "mass": (0.1, 400), "volume": (0.1, 300), "duration": (1, 600), "data": (1, 900),
          "temperature": (-20, 45)}
FORMATS = ["columns", "combined", "jsonl", "log"]
BAD_UNITS = ["parsec", "furlong", "cubit", "?"]


@dataclass
class Spec:
    fmt: str
    cols: dict[str, str]
    dims: list[str]
    agg: str  # sum | mean | max (amounts)
    temp_agg: str  # mean | max | min
    targets: dict[str, str]
    decimals: int
    aliases: bool
    number: str  # plain | comma | thousands
    invalid: bool
    output: str  # csv | json


@dataclass
class Row:
    item: str
    dim: str | None
    unit: str | None  # canonical unit, None for an invalid row
    value: float | None
    qty_text: str
    unit_text: str


def _lookup() -> dict[str, tuple[str, str]]:
    """Every way of writing a unit (lower case) -> (dimension, canonical unit)."""
    table = {}
    for dim, (_, units) in DIMENSIONS.items():
        for unit in units:
            for text in [unit, *ALIASES[unit]]:
                table[text.lower()] = (dim, unit)
    return table


def _number_text(spec: Spec, x: float, rng: random.Random) -> str:
    text = f"{x:.{rng.choice([0, 1, 2, 3])}f}"
    if spec.number == "thousands" and abs(x) >= 1000:
        text = f"{x:,.2f}"
    if spec.number == "comma":
        text = text.replace(".", ",")
    return text


# --- the model ---------------------------------------------------------------------------------------------------------

def _unit(dim: str, unit: str, mistake: str | None) -> tuple[float, float]:
    """(factor, offset) of ``unit`` to its dimension's base unit, as ``mistake`` (if any) gets it wrong."""
    factor, offset = DIMENSIONS[dim][1][unit]
    if mistake == "binary_prefix" and unit in ("kB", "MB", "GB"):
        factor = {"kB": 1024.0, "MB": 1048576.0, "GB": 1073741824.0}[unit]
    if mistake == "imperial_gallon" and unit == "gal":
        factor = 4.54609
    if mistake == "no_offset":
        offset = 0.0
    return factor, offset


def _to_base(dim: str, unit: str, value: float, mistake: str | None) -> float:
    factor, offset = _unit(dim, unit, mistake)
    return value * factor + offset


def _from_base(dim: str, unit: str, value: float, mistake: str | None) -> float:
    if mistake == "no_target":
        return value
    factor, offset = _unit(dim, unit, mistake)
    return (value - offset) / factor


def _parse(spec: Spec, row: Row, mistake: str | None) -> tuple[str, str, float] | None:
    table = _lookup()
    text = row.unit_text.strip()
    if mistake == "case_sensitive":
        exact = {t: v for t, v in ((t, v) for dim, (_, units) in DIMENSIONS.items() for unit in units
                                   for t, v in [(x, (dim, unit)) for x in [unit, *ALIASES[unit]]])}
        hit = exact.get(text)
    elif mistake == "symbols_only":
        hit = table.get(text.lower()) if text.lower() in {u.lower() for _, us in DIMENSIONS.values() for u in us} \
            else None
    else:
        hit = table.get(text.lower())
    if hit is None or hit[0] not in spec.dims:
        return None
    qty = row.qty_text.strip()
    if spec.number == "comma" and mistake != "point_only":
        qty = qty.replace(",", ".")
    elif spec.number == "thousands" and mistake != "point_only":
        qty = qty.replace(",", "")
    try:
        value = float(qty)
    except ValueError:
        return None
    return hit[0], hit[1], value


def _answer(spec: Spec, rows: list[Row], mistake: str | None = None) -> dict:
    groups: dict[tuple[str, str], list[float]] = {}
    skipped = 0
    for row in rows:
        parsed = _parse(spec, row, mistake)
        if parsed is None:
            skipped += 1
            continue
        dim, unit, value = parsed
        groups.setdefault((row.item, dim), []).append(_to_base(dim, unit, value, mistake))
    table = []
    for (item, dim), values in sorted(groups.items()):
        how = spec.temp_agg if dim == "temperature" else spec.agg
        if mistake == "sum_all":
            how = "sum"
        total = {"sum": sum, "max": max, "min": min, "mean": lambda v: sum(v) / len(v)}[how](values)
        unit = spec.targets[dim]
        shown = DIMENSIONS[dim][0] if mistake == "no_target" else unit
        table.append([item, dim, f"{_from_base(dim, unit, total, mistake):.{spec.decimals}f}", shown])
    return {"rows": table, "skipped": skipped if spec.invalid else None}


# --- the reference solution --------------------------------------------------------------------------------------------

READERS = {
    "columns": """
for row in csv.DictReader(open(PATH, newline="", encoding="utf-8")):
    readings.append((row[COLS["item"]], row[COLS["quantity"]], row[COLS["unit"]]))
""",
    "combined": """
for row in csv.DictReader(open(PATH, newline="", encoding="utf-8")):
    number, _, unit = row[COLS["reading"]].strip().partition(" ")
    readings.append((row[COLS["item"]], number, unit))
""",
    "jsonl": """
for line in open(PATH, encoding="utf-8"):
    if line.strip():
        item = json.loads(line)
        readings.append((item[COLS["item"]], str(item[COLS["quantity"]]), item[COLS["unit"]]))
""",
    "log": """
for line in open(PATH, encoding="utf-8"):
    fields = dict(re.findall(r'(\\w+)="([^"]*)"', line))
    if fields:
        readings.append((fields[COLS["item"]], fields[COLS["quantity"]], fields[COLS["unit"]]))
""",
}


def _solution(spec: Spec, path: str, out_path: str, mistake: str | None = None) -> str:
    units = {}
    for dim in spec.dims:
        for unit, (factor, offset) in DIMENSIONS[dim][1].items():
            if mistake == "binary_prefix" and unit in ("kB", "MB", "GB"):
                factor = {"kB": 1024.0, "MB": 1048576.0, "GB": 1073741824.0}[unit]
            if mistake == "imperial_gallon" and unit == "gal":
                factor = 4.54609
            if mistake == "no_offset":
                offset = 0.0
            names = [unit] if mistake == "symbols_only" else [unit, *ALIASES[unit]]
            for name in names:
                units[name if mistake == "case_sensitive" else name.lower()] = (dim, unit, factor, offset)
    body = "import csv, json, re\n"
    body += f"COLS = {spec.cols!r}\nUNITS = {units!r}\n"
    if mistake == "no_target":
        body += "TARGET = {dim: (unit, 1.0, 0.0) for dim, unit, factor, offset in UNITS.values() if factor == 1.0 and offset == 0}\n"
    else:
        body += "TARGET = {" + ", ".join(
            f"{dim!r}: ({unit!r}, {units[unit if mistake == 'case_sensitive' else unit.lower()][2]!r}, "
            f"{units[unit if mistake == 'case_sensitive' else unit.lower()][3]!r})"
            for dim, unit in spec.targets.items()) + "}\n"
    body += "readings = []\nPATH = " + repr(path) + "\n" + READERS[spec.fmt].strip("\n") + "\n"
    body += "groups, skipped = {}, 0\nfor item, number, unit in readings:\n"
    lookup = "unit.strip()" if mistake == "case_sensitive" else "unit.strip().lower()"
    body += f"    hit = UNITS.get({lookup})\n"
    clean = {"plain": "number.strip()", "comma": "number.strip().replace(',', '.')",
             "thousands": "number.strip().replace(',', '')"}["plain" if mistake == "point_only" else spec.number]
    body += f"    try:\n        value = float({clean})\n    except ValueError:\n        hit = None\n"
    body += "    if hit is None:\n        skipped += 1\n        continue\n"
    body += "    dim, _, factor, offset = hit\n"
    body += "    groups.setdefault((item, dim), []).append(value * factor + offset)\n"
    aggs = {"sum": "sum(values)", "max": "max(values)", "min": "min(values)", "mean": "sum(values) / len(values)"}
    body += "rows = []\nfor (item, dim), values in sorted(groups.items()):\n"
    if mistake == "sum_all":
        body += "    total = sum(values)\n"
    elif "temperature" in spec.dims and spec.temp_agg != spec.agg:
        body += (f"    total = {aggs[spec.temp_agg]} if dim == 'temperature' else {aggs[spec.agg]}\n")
    else:
        body += f"    total = {aggs[spec.temp_agg if spec.dims == ['temperature'] else spec.agg]}\n"
    body += "    unit, factor, offset = TARGET[dim]\n"
    body += f"    rows.append([item, dim, f'{{(total - offset) / factor:.{spec.decimals}f}}', unit])\n"
    if spec.output == "csv":
        body += (f"with open({out_path!r}, 'w', newline='') as fh:\n    writer = csv.writer(fh, lineterminator='\\n')\n"
                 "    writer.writerow(['item', 'dimension', 'value', 'unit'])\n    writer.writerows(rows)\n")
    else:
        body += ("out = {}\nfor item, dim, value, unit in rows:\n"
                 "    out.setdefault(item, {})[dim] = {'value': float(value), 'unit': unit}\n"
                 f"json.dump(out, open({out_path!r}, 'w'), indent=2)\n")
    if spec.invalid:
        body += "open('/app/skipped.txt', 'w').write(f'{skipped}\\n')\n"
    return python_script(body)


TESTS = """
import csv
import hashlib
import json
from pathlib import Path

import pytest

EXPECTED = @@EXPECTED@@
OUTPUT = @@OUTPUT@@
DECIMALS = @@DECIMALS@@
SOURCE = @@SOURCE@@
SOURCE_SHA256 = @@SOURCE_SHA256@@


@pytest.fixture(scope="module")
def rows():
    path = Path(OUTPUT)
    assert path.is_file(), OUTPUT + " was not written"
    if OUTPUT.endswith(".csv"):
        lines = path.read_text().splitlines()
        assert lines[0] == "item,dimension,value,unit"
        return [tuple(r) for r in csv.reader(lines[1:]) if r]
    data = json.loads(path.read_text())
    out = []
    for item in sorted(data):
        for dim in sorted(data[item]):
            entry = data[item][dim]
            assert sorted(entry) == ["unit", "value"], entry
            assert type(entry["value"]) in (int, float), entry
            out.append((item, dim, repr(entry["value"]), entry["unit"]))
    return out


def test_groups_present(rows):
    assert sorted((r[0], r[1]) for r in rows) == sorted((e[0], e[1]) for e in EXPECTED)


def test_values(rows):
    got = {(r[0], r[1]): r for r in rows}
    for item, dim, value, unit in EXPECTED:
        row = got[(item, dim)]
        assert float(row[2]) == pytest.approx(float(value), abs=1.1 * 10 ** -DECIMALS), (item, dim)


def test_units(rows):
    got = {(r[0], r[1]): r for r in rows}
    for item, dim, value, unit in EXPECTED:
        assert got[(item, dim)][3] == unit, (item, dim)


def test_source_untouched():
    assert hashlib.sha256(Path(SOURCE).read_bytes()).hexdigest() == SOURCE_SHA256
"""

CSV_DECIMALS_TEST = """

def test_order(rows):
    assert [(r[0], r[1]) for r in rows] == [(e[0], e[1]) for e in EXPECTED]


def test_decimals(rows):
    for row in rows:
        assert "." in row[2] and len(row[2].split(".")[1]) == DECIMALS, row
"""

SKIPPED_TEST = """

SKIPPED = @@SKIPPED@@


def test_skipped():
    path = Path("/app/skipped.txt")
    assert path.is_file(), "/app/skipped.txt was not written"
    assert path.read_text().strip() == str(SKIPPED)
"""


# --- the instance -------------------------------------------------------------------------------------------------------

COLUMN_NAMES = {"item": ["item", "sensor", "asset", "part"], "quantity": ["quantity", "qty", "value", "amount"],
                "unit": ["unit", "uom", "units"], "reading": ["reading", "measurement", "measured"]}


def _spec(rng: random.Random, difficulty: int) -> Spec:
    fmt = rng.choice(FORMATS)
    dims = rng.sample(sorted(DIMENSIONS), {1: 1, 2: 2, 3: rng.randint(2, 3)}[difficulty])
    cols = {k: rng.choice(v) for k, v in COLUMN_NAMES.items()}
    number = "plain" if difficulty == 1 else rng.choice(["plain", "comma", "thousands"])
    if number != "plain" and fmt == "columns" and rng.random() < 0.5:
        number = "plain"
    return Spec(fmt=fmt, cols=cols, dims=sorted(dims), agg=rng.choice(["sum", "mean", "max"]),
                temp_agg=rng.choice(["mean", "max", "min"]),
                targets={d: rng.choice(TARGETS[d]) for d in sorted(dims)}, decimals=rng.choice([2, 3, 4]),
                aliases=difficulty >= 2, number=number, invalid=difficulty >= 2,
                output=rng.choice(["csv", "json"]))


def _rows(spec: Spec, rng: random.Random, difficulty: int) -> list[Row]:
    items = [f"{w}-{rng.randint(1, 9)}" for w in rng.sample(WORDS, {1: 3, 2: 4, 3: 5}[difficulty])]
    rows = []
    for i in range({1: 16, 2: 26, 3: 34}[difficulty] + rng.randint(0, 8)):
        dim = spec.dims[i % len(spec.dims)] if i < 2 * len(spec.dims) else rng.choice(spec.dims)
        units = sorted(DIMENSIONS[dim][1])
        unit = units[i // len(spec.dims) % len(units)] if i < 2 * len(spec.dims) else rng.choice(units)
        if dim == "data" and i < 2 * len(spec.dims):
            unit = rng.choice(["kB", "MB"])
        if dim == "volume" and i < 2 * len(spec.dims):
            unit = "gal"
        low, high = RANGES[dim]
        value = round(rng.uniform(low, high), rng.choice([0, 1, 2]))
        if dim == "temperature":
            value = round({"C": value, "F": value * 9 / 5 + 32, "K": value + 273.15}[unit], 1)
        if spec.number == "thousands" and i < 2 and dim != "temperature":
            value = round(rng.uniform(1000, 9000), 2)
        text = unit
        if rng.random() < 0.3 or i == 0:
            text = text.upper() if text.upper() != text else text.lower()
        if spec.aliases and (i in (1, 2) or rng.random() < 0.35):
            text = rng.choice(ALIASES[unit])
            if rng.random() < 0.3:
                text = text.capitalize()
        rows.append(Row(items[i % len(items)] if i < len(items) else rng.choice(items), dim, unit, value,
                        _number_text(spec, value, rng), text))
    if spec.invalid:
        for _ in range(rng.randint(2, 5)):
            kind = rng.randrange(3)
            unit = rng.choice(sorted(DIMENSIONS[rng.choice(spec.dims)][1]))
            bad = Row(rng.choice(items), None, None, None, rng.choice(["n/a", "", "?", "12..5"]), unit) if kind == 0 \
                else Row(rng.choice(items), None, None, None, str(rng.randint(1, 99)), rng.choice(BAD_UNITS))
            if kind == 2:  # a unit of a dimension this file does not measure
                other = [d for d in DIMENSIONS if d not in spec.dims]
                bad = Row(rng.choice(items), None, None, None, str(rng.randint(1, 99)),
                          rng.choice(sorted(DIMENSIONS[rng.choice(other)][1])))
            rows.insert(rng.randrange(len(rows) + 1), bad)
    return rows


def _render(spec: Spec, rows: list[Row], rng: random.Random) -> str:
    c = spec.cols
    if spec.fmt == "columns":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow([c["item"], c["quantity"], c["unit"]])
        for r in rows:
            writer.writerow([r.item, r.qty_text, r.unit_text])
        return buf.getvalue()
    if spec.fmt == "combined":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow([c["item"], c["reading"]])
        for r in rows:
            writer.writerow([r.item, f"{r.qty_text} {r.unit_text}"])
        return buf.getvalue()
    if spec.fmt == "jsonl":
        return "".join(json.dumps({c["item"]: r.item, c["quantity"]: r.qty_text, c["unit"]: r.unit_text}) + "\n"
                       for r in rows)
    out = []
    for k, r in enumerate(rows):
        pairs = [(c["item"], r.item), (c["quantity"], r.qty_text), (c["unit"], r.unit_text)]
        rng.shuffle(pairs)
        out.append(f"2025-01-{1 + k % 28:02d}T{k % 24:02d}:00:00Z " + " ".join(f'{k2}="{v}"' for k2, v in pairs))
    return "\n".join(out) + "\n"


def _applicable(spec: Spec) -> list[str]:
    out = ["case_sensitive"]
    if spec.aliases:
        out.append("symbols_only")
    if "data" in spec.dims:
        out.append("binary_prefix")
    if "volume" in spec.dims:
        out.append("imperial_gallon")
    if "temperature" in spec.dims:
        out.append("no_offset")
    if any(spec.targets[d] != DIMENSIONS[d][0] for d in spec.dims):
        out.append("no_target")
    if spec.number != "plain":
        out.append("point_only")
    if spec.agg != "sum" or "temperature" in spec.dims:
        out.append("sum_all")
    return out


def _unit_lines(spec: Spec, difficulty: int) -> list[str]:
    lines = []
    for dim in spec.dims:
        base, units = DIMENSIONS[dim]
        if dim == "temperature":
            defs = "`C` (degrees Celsius), `F` (Fahrenheit: C = (F - 32) * 5/9), `K` (kelvin: C = K - 273.15)"
        else:
            defs = ", ".join(f"`{u}` = {f:.12g} {base}" for u, (f, _) in units.items())
        if dim == "volume":
            defs += " (`gal` and `floz` are US units)"
        text = f"{dim}: {defs}"
        if spec.aliases and difficulty == 2:
            text += "; also written " + ", ".join(f"`{a}`" for u in units for a in ALIASES[u])
        lines.append(text)
    return lines


def make(rng: random.Random, difficulty: int) -> Instance:
    spec = _spec(rng, difficulty)
    for _attempt in range(30):
        rows = _rows(spec, rng, difficulty)
        expected = _answer(spec, rows)
        exposed = [m for m in _applicable(spec) if _answer(spec, rows, m) != expected]
        if exposed:
            break
    else:  # pragma: no cover
        raise RuntimeError("unit-convert: no wrong solution is exposed by the generated data")
    mistakes = sorted(rng.sample(exposed, min(2, len(exposed))))

    ext = {"columns": "csv", "combined": "csv", "jsonl": "jsonl", "log": "log"}[spec.fmt]
    path = f"/app/measurements.{ext}"
    out_path = f"/app/summary.{spec.output}"
    content = _render(spec, rows, rng)
    c = spec.cols
    item, qty, unit, reading = (f"`{c['item']}` (the item)", f"`{c['quantity']}` (the quantity)",
                                f"`{c['unit']}` (the unit)", f"`{c['reading']}` (a number, a space and a unit, `12.5 km`)")
    fmt = {"columns": f"CSV with the columns {item}, {qty} and {unit}",
           "combined": f"CSV with the columns {item} and {reading}",
           "jsonl": f"JSON lines with the keys {item}, {qty} (a string) and {unit}",
           "log": f"log lines with `key=\"value\"` pairs in any order: {item}, {qty} and {unit}"}[spec.fmt]
    numbers = {"plain": "Quantities are plain decimal numbers.",
               "comma": "Quantities use a decimal comma (`12,5`).",
               "thousands": "Quantities may have thousands separators (`1,234.50`)."}[spec.number]
    lines = [f"`{path}` holds measurements: {fmt}.", ""]
    if difficulty < 3:
        lines += [numbers + " Unit names are case-insensitive (`KM` is `km`)"
                  + (", and units may be written by name as listed" if spec.aliases else "") + ". The units:", ""]
    else:
        lines += ["The units below may be written by symbol or by name, singular or plural, in any letter case "
                  "(find out which spellings occur), and the file has its own way of writing numbers. The units:", ""]
    lines += [f"- {u}" for u in _unit_lines(spec, difficulty)]
    if spec.invalid:
        lines += ["", "A row is invalid when its quantity is not a number or its unit is not one of the units above; "
                      "leave invalid rows out and write how many there were to `/app/skipped.txt` (just the number)."]
    aggs = {"sum": "the sum", "mean": "the mean", "max": "the largest value", "min": "the smallest value"}
    amounts = [d for d in spec.dims if d != "temperature"]
    how = []
    if amounts:
        how.append(f"for {', '.join(amounts)}: {aggs[spec.agg]} of the item's readings")
    if "temperature" in spec.dims:
        how.append(f"for temperature: {aggs[spec.temp_agg]} of the item's readings")
    targets = ", ".join(f"{d} in `{u}`" for d, u in spec.targets.items())
    lines += ["", f"For every item and dimension with valid readings compute {'; '.join(how)}, expressed in these "
                  f"units: {targets}; written with exactly {spec.decimals} decimals."]
    if spec.output == "csv":
        lines += [f"Write `{out_path}` with the header `item,dimension,value,unit` and one row per item and "
                  f"dimension (`dimension` is one of {', '.join(f'`{d}`' for d in spec.dims)}, `unit` the output "
                  "unit), sorted by item, then dimension."]
    else:
        lines += [f"Write `{out_path}`: a JSON object mapping each item to an object mapping each of its dimensions "
                  f"({', '.join(f'`{d}`' for d in spec.dims)}) to `{{\"value\": <number>, \"unit\": <output unit>}}`, "
                  f"the value rounded to {spec.decimals} decimals."]
    lines += ["Do not modify the measurements file."]
    tests = TESTS + (CSV_DECIMALS_TEST if spec.output == "csv" else "") + (SKIPPED_TEST if spec.invalid else "")
    return Instance(
        instruction="\n".join(lines),
        files={path.removeprefix("/app/"): content},
        solve=_solution(spec, path, out_path),
        wrong={f"wrong_{m}.sh": _solution(spec, path, out_path, m) for m in mistakes},
        tests=render(tests, expected=expected["rows"], output=out_path, decimals=spec.decimals, source=path,
                     source_sha256=hashlib.sha256(content.encode()).hexdigest(), skipped=expected["skipped"]),
        answer=expected,
    )


FAMILY = Family(
    name="unit-convert",
    category="mathematics",
    tags=("units", "csv", "arithmetic", "parsing"),
    summary="Aggregate measurements (four formats, up to six dimensions incl. temperature and data sizes, units "
            "written many ways) per item in seed-chosen output units.",
    make=make,
)
