"""The acme distributions, built offline here from /app/acme, checked by wheel/sdist contents and by
installing them (all, or a subset) into fresh virtual environments and converting generated data."""
import csv
import io
import json
import os
import random
import re
import shutil
import subprocess
import tarfile
import zipfile

import pytest

SRC = "/app/acme"
DISTS = ["acme-core", "acme-csv", "acme-jsonl"]
RNG = random.Random(os.urandom(8))


def sh(cmd, cwd=None, inp=None):
    return subprocess.run(cmd, shell=True, cwd=cwd, capture_output=True, text=True, timeout=300, input=inp)


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("acme")


@pytest.fixture(scope="module")
def wheels(work):
    out = work / "wheels"
    src = work / "src"
    shutil.copytree(SRC, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "dist", "__pycache__"))
    for d in DISTS:
        r = sh(f"python3 -m pip wheel -q --no-deps --no-build-isolation --no-index -w {out} {src / d}")
        assert r.returncode == 0, f"{d}: {r.stdout[-2000:]}{r.stderr[-2000:]}"
    found = {}
    for w in os.listdir(out):
        name = w.split("-")[0].replace("_", "-")
        found[name] = out / w
    assert sorted(found) == DISTS, os.listdir(out)
    return found


def names(whl):
    with zipfile.ZipFile(whl) as z:
        return z.namelist()


def dist_info_file(whl, fname):
    with zipfile.ZipFile(whl) as z:
        for n in z.namelist():
            if n.endswith(".dist-info/" + fname):
                return z.read(n).decode()
    return ""


def venv(work, name, wheel_paths, dists):
    v = work / name
    r = sh(f"python3 -m venv --without-pip {v}")
    assert r.returncode == 0, r.stderr
    links = " ".join(f"--find-links {p.parent}" for p in {w.parent / 'x': 0 for w in wheel_paths})
    r = sh(f"python3 -m pip --python {v}/bin/python install -q --no-index {links} {' '.join(dists)}")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return v


def records():
    fields = RNG.sample(["id", "name", "city", "note", "amount", "tag", "email"], RNG.randint(3, 5))
    out = []
    for i in range(RNG.randint(4, 9)):
        rec = {}
        for f in fields:
            rec[f] = RNG.choice([str(RNG.randint(0, 9999)), "Zoë", "naïve café", "a,b", 'say "hi"', "",
                                 "ß-" + str(i), "x y"])
        out.append(rec)
    return out


def as_csv(recs):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(recs[0]), lineterminator="\n")
    w.writeheader()
    for r in recs:
        w.writerow(r)
    return buf.getvalue()


def as_jsonl(recs):
    return "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in recs)


def test_wheel_contents(wheels):
    core, csvw, jsonl = (names(wheels[d]) for d in DISTS)
    for nm in (core, csvw, jsonl):
        assert "acme/__init__.py" not in nm and "acme/formats/__init__.py" not in nm, nm
    assert {"acme/core/__init__.py", "acme/core/cli.py", "acme/core/registry.py"} <= set(core)
    assert "acme/formats/csv_fmt.py" in csvw
    assert {"acme/formats/jsonl_fmt.py", "acme/formats/jsonl_data/settings.json"} <= set(jsonl)
    payload = [set(n for n in nm if ".dist-info/" not in n) for nm in (core, csvw, jsonl)]
    assert not (payload[0] & payload[1]) and not (payload[0] & payload[2]) and not (payload[1] & payload[2])
    assert not any("tests/" in n or n.endswith(".pyc") for nm in (core, csvw, jsonl) for n in nm)


def test_metadata_and_entry_points(wheels):
    meta = dist_info_file(wheels["acme-core"], "METADATA")
    assert "\nVersion: 2.1.0\n" in meta, "acme-core's version must come from acme.core.__version__"
    assert "-2.1.0-" in wheels["acme-core"].name
    for d, ep in (("acme-csv", "csv = acme.formats.csv_fmt:CsvFormat"),
                  ("acme-jsonl", "jsonl = acme.formats.jsonl_fmt:JsonlFormat")):
        eps = dist_info_file(wheels[d], "entry_points.txt")
        assert "[acme.formats]" in eps and ep in eps, eps
        req = re.search(r"^Requires-Dist: (.*)$", dist_info_file(wheels[d], "METADATA"), re.M)
        assert req and re.sub(r"[\s()]", "", req.group(1)) == "acme-core>=2.1", req
    eps = dist_info_file(wheels["acme-core"], "entry_points.txt")
    assert "[console_scripts]" in eps and "acme-convert = acme.core.cli:run" in eps


def test_full_install_converts(work, wheels):
    v = venv(work, "full", list(wheels.values()), DISTS)
    exe = f"{v}/bin/acme-convert"
    r = sh(f"{exe} --version")
    assert r.stdout == "acme-convert 2.1.0\n", r.stderr
    assert sh(f"{exe} --list-formats").stdout == "csv\njsonl\n"
    for _ in range(3):
        recs = records()
        r = sh(f"{exe} --from csv --to jsonl", inp=as_csv(recs))
        assert r.returncode == 0, r.stderr
        assert r.stdout == as_jsonl(recs)
        r = sh(f"{exe} --from jsonl --to csv", inp=as_jsonl(recs))
        assert r.returncode == 0, r.stderr
        assert r.stdout == as_csv(recs)


def test_partial_install_namespace(work, wheels):
    v = venv(work, "partial", [wheels["acme-core"], wheels["acme-jsonl"]], ["acme-jsonl"])
    r = sh(f"{v}/bin/acme-convert --list-formats")
    assert r.returncode == 0 and r.stdout == "jsonl\n", r.stdout + r.stderr
    recs = records()
    r = sh(f"{v}/bin/acme-convert --from jsonl --to jsonl", inp=as_jsonl(recs))
    assert r.stdout == as_jsonl(recs), r.stderr
    r = sh(f"{v}/bin/python -c 'import acme.core, acme.formats.jsonl_fmt, acme.formats; "
           f"print(getattr(acme, \"__file__\", None), len(list(acme.formats.__path__)))'")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == "None", "acme must be a namespace package"
    r = sh(f"{v}/bin/python -c 'import acme.formats.csv_fmt'")
    assert r.returncode != 0


def test_sdists_are_complete(work):
    src = work / "sdsrc"
    shutil.copytree(SRC, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "dist", "__pycache__"))
    out = work / "sdist"
    out.mkdir()
    for d in ("acme-csv", "acme-jsonl"):
        r = sh(f"python3 -c 'from setuptools import build_meta as b; print(b.build_sdist(\"{out}\"))'", cwd=src / d)
        assert r.returncode == 0, r.stderr[-2000:]
        sd = out / r.stdout.strip().splitlines()[-1]
        with tarfile.open(sd) as tf:
            members = tf.getnames()
            top = members[0].split("/")[0]
            tf.extractall(work / "unpacked")
        short = {m.split("/", 1)[1] for m in members if "/" in m}
        test_file = "tests/test_" + d.split("-")[1] + ".py"
        assert test_file in short, sorted(short)
        assert "pyproject.toml" in short and "PKG-INFO" in short
        if d == "acme-jsonl":
            assert "src/acme/formats/jsonl_data/settings.json" in short, sorted(short)
        if d != "acme-jsonl":
            continue
        # a wheel built from the sdist alone has the package data too
        wdir = work / f"from-sdist-{d}"
        r = sh(f"python3 -m pip wheel -q --no-deps --no-build-isolation --no-index -w {wdir} {work / 'unpacked' / top}")
        assert r.returncode == 0, r.stderr[-2000:]
        got = [n for n in names(wdir / os.listdir(wdir)[0]) if ".dist-info/" not in n]
        assert "acme/formats/jsonl_data/settings.json" in got
        assert not any(n.endswith("__init__.py") and n.count("/") == 1 for n in got)
