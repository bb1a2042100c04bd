"""/app/ocirootfs on OCI image layouts generated here; the unpacked tree is compared with a model of
the layers (files, modes, owners, symlinks, hard-link groups)."""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import ocigen  # noqa: E402

TOOL = "/app/ocirootfs"
RNG = random.Random(os.urandom(8))


def run(*args):
    return subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, timeout=120)


def assert_tree(dest, model):
    got, got_groups = ocigen.snapshot(dest)
    want, want_groups = ocigen.expected(model)
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    assert not missing and not extra, f"missing {missing[:10]} extra {extra[:10]}"
    for p in sorted(want):
        assert got[p] == want[p], f"{p}: got {got[p][:4]} want {want[p][:4]}"
    assert got_groups == want_groups, f"hard links: got {got_groups} want {want_groups}"


def single(tmp_path, n_layers, platform=False):
    layout = tmp_path / "layout"
    desc, model, layers = ocigen.image(str(layout), RNG, n_layers)
    if platform:
        desc["platform"] = {"os": "linux", "architecture": "amd64"}
    ocigen.write_index(str(layout), [desc])
    return layout, desc, model, layers


def test_single_image(tmp_path):
    layout, desc, model, _ = single(tmp_path, 2)
    r = run(layout, tmp_path / "rootfs")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == desc["digest"]
    assert_tree(tmp_path / "rootfs", model)


def test_whiteouts_opaque_and_replacements(tmp_path):
    for i in range(3):
        sub = tmp_path / str(i)
        sub.mkdir()
        layout, desc, model, _ = single(sub, RNG.randint(3, 5), platform=True)
        r = run(layout, sub / "rootfs")
        assert r.returncode == 0, r.stderr
        assert_tree(sub / "rootfs", model)


def test_opaque_keeps_same_layer_entries(tmp_path):
    layout = tmp_path / "layout"
    base = [{"type": "dir", "name": "etc/conf.d", "mode": 0o755, "uid": 0, "gid": 0},
            {"type": "file", "name": "etc/conf.d/old.conf", "data": b"old", "mode": 0o644, "uid": 0, "gid": 0},
            {"type": "file", "name": "etc/keep", "data": b"k", "mode": 0o600, "uid": 0, "gid": 0},
            {"type": "file", "name": "var/lib/db", "data": b"db", "mode": 0o640, "uid": 7, "gid": 7}]
    top = [{"type": "file", "name": "etc/conf.d/new.conf", "data": b"new" + os.urandom(4), "mode": 0o644, "uid": 0, "gid": 0},
           {"type": "wh", "name": "etc/conf.d/.wh..wh..opq"},
           {"type": "file", "name": "./etc/conf.d/z.conf", "data": b"z", "mode": 0o644, "uid": 0, "gid": 0},
           {"type": "wh", "name": "var/.wh.lib"},
           {"type": "file", "name": "var/run/pid", "data": b"1", "mode": 0o644, "uid": 0, "gid": 0}]
    model = ocigen.Model()
    layers = []
    for ents in (base, top):
        model.apply(ents)
        layers.append(ocigen.layer_blob(str(layout), ents, RNG))
    assert set(model.nodes) >= {"etc/conf.d/new.conf", "etc/conf.d/z.conf"} and "etc/conf.d/old.conf" not in model.nodes
    cfg = dict(ocigen.write_blob(str(layout), b"{}"), mediaType="application/vnd.oci.image.config.v1+json")
    man = json.dumps({"schemaVersion": 2, "mediaType": ocigen.OCI_MANIFEST, "config": cfg, "layers": layers}).encode()
    desc = dict(ocigen.write_blob(str(layout), man), mediaType=ocigen.OCI_MANIFEST)
    ocigen.write_index(str(layout), [desc])
    r = run(layout, tmp_path / "rootfs")
    assert r.returncode == 0, r.stderr
    assert_tree(tmp_path / "rootfs", model)


def multi_platform(tmp_path):
    layout = tmp_path / "layout"
    amd, m_amd, _ = ocigen.image(str(layout), RNG, 2, "amd64")
    arm8, m_arm8, _ = ocigen.image(str(layout), RNG, 2, "arm64")
    arm7, m_arm7, _ = ocigen.image(str(layout), RNG, 2, "arm")
    att, m_att, _ = ocigen.image(str(layout), RNG, 1, "unknown")
    amd["platform"] = {"os": "linux", "architecture": "amd64"}
    arm8["platform"] = {"os": "linux", "architecture": "arm64", "variant": "v8"}
    arm7["platform"] = {"os": "linux", "architecture": "arm", "variant": "v7"}
    att["platform"] = {"os": "unknown", "architecture": "unknown"}
    entries = [att, arm7, arm8, amd]
    RNG.shuffle(entries)
    inner = ocigen.nested_index(str(layout), entries)
    ocigen.write_index(str(layout), [inner])
    return layout, {"amd": (amd, m_amd), "arm8": (arm8, m_arm8), "arm7": (arm7, m_arm7)}


def test_platform_selection(tmp_path):
    layout, imgs = multi_platform(tmp_path)
    for i, (args, key) in enumerate([([], "amd"), (["--platform", "linux/arm64/v8"], "arm8"),
                                     (["--platform", "linux/arm64"], "arm8"), (["--platform", "linux/arm/v7"], "arm7")]):
        dest = tmp_path / f"r{i}"
        r = run(layout, dest, *args)
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == imgs[key][0]["digest"], args
        assert_tree(dest, imgs[key][1])
    dest = tmp_path / "none"
    r = run(layout, dest, "--platform", "linux/s390x")
    assert r.returncode == 2 and not os.path.lexists(dest)


def test_corrupt_blobs_rejected(tmp_path):
    layout, desc, model, layers = single(tmp_path, 3)
    victim = layers[RNG.randrange(1, len(layers))]
    path = layout / "blobs" / "sha256" / victim["digest"].split(":")[1]
    data = bytearray(path.read_bytes())
    data[RNG.randrange(len(data))] ^= 0x20
    path.write_bytes(bytes(data))
    dest = tmp_path / "rootfs"
    r = run(layout, dest)
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert not os.path.lexists(dest)
    leftovers = [p for p in os.listdir(tmp_path) if p != "layout"]
    assert leftovers == [], f"left behind: {leftovers}"
    # a truncated blob whose descriptor still claims the old size
    (tmp_path / "b").mkdir()
    layout2, desc2, _, layers2 = single(tmp_path / "b", 2)
    p2 = layout2 / "blobs" / "sha256" / layers2[-1]["digest"].split(":")[1]
    p2.write_bytes(p2.read_bytes()[:-1])
    r = run(layout2, tmp_path / "b" / "rootfs")
    assert r.returncode == 3 and not os.path.lexists(tmp_path / "b" / "rootfs")


def test_unsafe_paths_specials_and_existing_dest(tmp_path):
    layout = tmp_path / "layout"
    tag = f"escape{RNG.randint(0, 10**6)}"
    ents = [{"type": "file", "name": "ok/file", "data": b"fine", "mode": 0o644, "uid": 0, "gid": 0},
            {"type": "file", "name": f"../{tag}", "data": b"bad", "mode": 0o644, "uid": 0, "gid": 0},
            {"type": "file", "name": f"ok/../../{tag}2", "data": b"bad", "mode": 0o644, "uid": 0, "gid": 0},
            {"type": "fifo", "name": "ok/pipe"},
            {"type": "file", "name": "deep/a/b/c.txt", "data": b"c", "mode": 0o600, "uid": 5, "gid": 6}]
    model = ocigen.Model()
    model.apply(ents)
    lay = ocigen.layer_blob(str(layout), ents, RNG)
    cfg = dict(ocigen.write_blob(str(layout), b"{}"), mediaType="application/vnd.oci.image.config.v1+json")
    man = json.dumps({"schemaVersion": 2, "mediaType": ocigen.OCI_MANIFEST, "config": cfg, "layers": [lay]}).encode()
    ocigen.write_index(str(layout), [dict(ocigen.write_blob(str(layout), man), mediaType=ocigen.OCI_MANIFEST)])
    work = tmp_path / "w"
    work.mkdir()
    r = run(layout, work / "rootfs")
    assert r.returncode == 0, r.stderr
    assert_tree(work / "rootfs", model)
    assert not any(tag in p for p in os.listdir(work)) and not any(tag in p for p in os.listdir(tmp_path))
    assert not os.path.lexists(f"/{tag}") and not os.path.lexists(f"/{tag}2")
    existing = tmp_path / "exists"
    existing.mkdir()
    (existing / "mine").write_text("keep")
    r = run(layout, existing)
    assert r.returncode == 2
    assert os.listdir(existing) == ["mine"]


def test_random_images(tmp_path):
    for i in range(3):
        sub = tmp_path / str(i)
        sub.mkdir()
        layout, imgs = multi_platform(sub)
        r = run(layout, sub / "rootfs", "--platform", "linux/arm/v7")
        assert r.returncode == 0, r.stderr
        assert_tree(sub / "rootfs", imgs["arm7"][1])
