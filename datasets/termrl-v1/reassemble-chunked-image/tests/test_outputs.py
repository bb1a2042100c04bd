import hashlib
import json
import os
from pathlib import Path

OUT = Path("/app/out")
UNUSED = ['part-24fb6ba3.bin', 'part-93ba429d.bin', 'part-b44a487d.bin']


def manifest():
    return json.loads(Path("/app/upload/manifest.json").read_text())


def test_image_size():
    m = manifest()
    img = OUT / m["file"]
    assert img.is_file()
    assert img.stat().st_size == m["size"]


def test_image_checksum():
    m = manifest()
    assert hashlib.sha256((OUT / m["file"]).read_bytes()).hexdigest() == m["sha256"]


def test_image_chunks_in_order():
    m = manifest()
    data = (OUT / m["file"]).read_bytes()
    for c in m["chunks"]:
        part = data[c["index"] * m["chunk_size"]: c["index"] * m["chunk_size"] + c["size"]]
        assert hashlib.sha256(part).hexdigest() == c["sha256"], c["index"]


def test_unused_list():
    assert (OUT / "unused_chunks.txt").read_text().split() == UNUSED


def test_upload_untouched():
    assert len(os.listdir("/app/upload/chunks")) == 16
    assert hashlib.sha256(Path("/app/upload/manifest.json").read_bytes()).hexdigest() == "8cbf3efaeb6e8cafa2679d9d6a6e6dee932d89800c6ad6d8bb81d81af4cc130c"
