#!/usr/bin/env python3
"""ocirootfs: unpack the root filesystem of an image from an OCI image layout (reference)."""
import gzip
import hashlib
import io
import json
import os
import shutil
import stat
import sys
import tarfile
import tempfile

INDEX = "application/vnd.oci.image.index.v1+json"
DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json"
MANIFEST = "application/vnd.oci.image.manifest.v1+json"
DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
TAR = {"application/vnd.oci.image.layer.v1.tar": False,
       "application/vnd.oci.image.layer.v1.tar+gzip": True,
       "application/vnd.docker.image.rootfs.diff.tar.gzip": True}


class Fail(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code


def blob(layout, desc):
    dg = desc.get("digest", "")
    algo, _, hexd = dg.partition(":")
    if algo != "sha256" or len(hexd) != 64:
        raise Fail(3, f"unsupported digest {dg!r}")
    path = os.path.join(layout, "blobs", "sha256", hexd)
    try:
        data = open(path, "rb").read()
    except OSError:
        raise Fail(3, f"missing blob {dg}")
    if hashlib.sha256(data).hexdigest() != hexd or len(data) != desc.get("size"):
        raise Fail(3, f"blob {dg} does not match its descriptor")
    return data


def platform_ok(desc, want):
    p = desc.get("platform")
    if p is None:
        return True
    if p.get("os") != want[0] or p.get("architecture") != want[1]:
        return False
    return len(want) < 3 or p.get("variant") == want[2]


def find_manifest(layout, index, want):
    for d in index.get("manifests", []):
        mt = d.get("mediaType")
        if not platform_ok(d, want):
            continue
        if mt in (INDEX, DOCKER_LIST):
            found = find_manifest(layout, json.loads(blob(layout, d)), want)
            if found:
                return found
        elif mt in (MANIFEST, DOCKER_MANIFEST):
            return d, json.loads(blob(layout, d))
    return None


def norm(name):
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        return None
    return "/".join(parts)


def remove(path):
    if os.path.islink(path) or not os.path.isdir(path):
        if os.path.lexists(path):
            os.unlink(path)
    else:
        shutil.rmtree(path)


def ensure_parents(root, rel):
    cur = root
    for part in rel.split("/")[:-1]:
        cur = os.path.join(cur, part)
        if os.path.islink(cur) or (os.path.lexists(cur) and not os.path.isdir(cur)):
            os.unlink(cur)
        if not os.path.lexists(cur):
            os.mkdir(cur)
            os.chmod(cur, 0o755)
            os.chown(cur, 0, 0)


def apply_layer(root, data, gz):
    if gz:
        data = gzip.decompress(data)
    tf = tarfile.open(fileobj=io.BytesIO(data), mode="r:")
    members = tf.getmembers()
    # whiteouts first: they only ever hide content of the lower layers
    for m in members:
        rel = norm(m.name)
        if rel is None:
            continue
        d, _, base = rel.rpartition("/")
        if base == ".wh..wh..opq":
            target = os.path.join(root, d)
            if os.path.isdir(target) and not os.path.islink(target):
                for child in os.listdir(target):
                    remove(os.path.join(target, child))
        elif base.startswith(".wh."):
            remove(os.path.join(root, d, base[4:]))
    for m in members:
        rel = norm(m.name)
        if rel is None or not rel:
            continue
        base = rel.rpartition("/")[2]
        if base.startswith(".wh."):
            if base == ".wh..wh..opq":
                ensure_parents(root, rel)
            continue
        path = os.path.join(root, rel)
        ensure_parents(root, rel)
        if m.isdir():
            if not (os.path.isdir(path) and not os.path.islink(path)):
                remove(path)
                os.mkdir(path)
        elif m.isreg():
            remove(path)
            with open(path, "wb") as f:
                f.write(tf.extractfile(m).read())
        elif m.issym():
            remove(path)
            os.symlink(m.linkname, path)
        elif m.islnk():
            src = norm(m.linkname)
            remove(path)
            os.link(os.path.join(root, src), path)
            continue  # a hard link shares its target's inode and metadata
        else:
            continue  # devices, fifos: skipped
        os.lchown(path, m.uid, m.gid)
        if not m.issym():
            os.chmod(path, m.mode & 0o7777)


def main(argv):
    args = list(argv)
    plat = "linux/amd64"
    if "--platform" in args:
        i = args.index("--platform")
        if i + 1 >= len(args):
            raise Fail(2, "--platform needs a value")
        plat = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        raise Fail(2, "usage: ocirootfs LAYOUT DEST [--platform OS/ARCH[/VARIANT]]")
    layout, dest = args
    want = plat.split("/")
    if os.path.lexists(dest):
        raise Fail(2, f"{dest} already exists")
    try:
        index = json.load(open(os.path.join(layout, "index.json")))
    except (OSError, ValueError) as e:
        raise Fail(2, f"cannot read index.json: {e}")
    found = find_manifest(layout, index, want)
    if not found:
        raise Fail(2, f"no image for platform {plat}")
    desc, manifest = found
    layers = []
    for ld in manifest.get("layers", []):
        if ld.get("mediaType") not in TAR:
            raise Fail(2, f"unsupported layer type {ld.get('mediaType')}")
        layers.append((blob(layout, ld), TAR[ld["mediaType"]]))
    parent = os.path.dirname(os.path.abspath(dest))
    tmp = tempfile.mkdtemp(dir=parent, prefix=".ocirootfs-")
    try:
        os.chmod(tmp, 0o755)
        for data, gz in layers:
            apply_layer(tmp, data, gz)
        os.rename(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    print(desc["digest"])


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Fail as e:
        print(f"ocirootfs: {e}", file=sys.stderr)
        sys.exit(e.code)
