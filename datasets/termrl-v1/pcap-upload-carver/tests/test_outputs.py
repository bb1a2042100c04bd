import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import pcapgen  # noqa: E402

TOOL = "/app/carve.py"


def carve(tmp_path, seed, **opts):
    blob, manifest, files = pcapgen.build(seed, **opts)
    tmp_path.mkdir(parents=True, exist_ok=True)
    cap = tmp_path / "capture.pcap"
    cap.write_bytes(blob)
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, TOOL, str(cap), str(out)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"carve.py failed: {r.stderr[-2000:]}"
    got = json.loads((out / "manifest.json").read_text())
    on_disk = {p.name: p.read_bytes() for p in out.iterdir() if p.name != "manifest.json"}
    return manifest, files, got, on_disk


def check(tmp_path, seed, **opts):
    manifest, files, got, on_disk = carve(tmp_path, seed, **opts)
    assert isinstance(got, list), "manifest.json must hold a JSON list"
    assert [(m["client"], m["target"]) for m in got] == [(m["client"], m["target"]) for m in manifest], \
        "wrong uploads, or wrong order"
    for g, m in zip(got, manifest):
        assert g == m, f"manifest entry differs for {m['target']}"
    assert sorted(on_disk) == sorted(files), "OUTDIR must hold exactly the recovered files and manifest.json"
    for name, data in files.items():
        assert on_disk[name] == data, f"{name}: content differs"
    return manifest


def test_in_order_content_length_uploads(tmp_path):
    m = check(tmp_path, 101, nconn=2, per_conn=(2, 3), kinds=("plain",))
    assert len(m) >= 4


def test_reordered_and_retransmitted_segments(tmp_path):
    for seed in (202, 203):
        check(tmp_path / str(seed), seed, nconn=3, reorder=True, retrans=True, kinds=("plain", "chunked"))


def test_chunked_and_gzip_bodies(tmp_path):
    m = check(tmp_path, 303, nconn=3, per_conn=(2, 3), kinds=("chunked", "gzip", "gzip-chunked"), reorder=True)
    assert len(m) >= 6


def test_keepalive_with_other_methods(tmp_path):
    m = check(tmp_path, 404, nconn=3, per_conn=(4, 6), kinds=("mixed",), retrans=True)
    assert 1 <= len(m)


def test_big_endian_nanosecond_vlan_capture(tmp_path):
    check(tmp_path, 505, endian=">", nanos=True, vlan=True, reorder=True, kinds=("plain", "gzip"))


def test_linux_cooked_capture_with_ip_options(tmp_path):
    check(tmp_path, 606, link="sll", ipopts=True, retrans=True, kinds=("plain", "chunked"))


def test_sequence_numbers_wrap_around(tmp_path):
    for seed in (707, 708):
        check(tmp_path / str(seed), seed, wrap=True, reorder=True, retrans=True, per_conn=(2, 3),
              kinds=("plain", "chunked"))


def test_reused_client_port(tmp_path):
    m = check(tmp_path, 808, reuse=True, nconn=2, per_conn=(2, 2), kinds=("plain",))
    clients = [x["client"] for x in m]
    assert len(clients) != len(set(clients))


def test_missing_data_makes_upload_incomplete(tmp_path):
    m = check(tmp_path, 909, hole=True, nconn=2, per_conn=(1, 2), kinds=("plain", "chunked"))
    assert [x["complete"] for x in m].count(False) == 1


def test_same_name_uploaded_twice_keeps_the_later(tmp_path):
    m = check(tmp_path, 1010, nconn=3, per_conn=(1, 1), kinds=("plain",),
              extra_names=["ledger.xlsx", "ledger.xlsx", "ledger.xlsx"])
    assert [x["file"] for x in m].count("ledger.xlsx") == 3
