"""Random OCI image layouts and the root filesystem they must unpack to (a model of the layers)."""
import gzip
import hashlib
import io
import json
import os
import random
import tarfile

OCI_INDEX = "application/vnd.oci.image.index.v1+json"
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
L_TAR = "application/vnd.oci.image.layer.v1.tar"
L_GZ = "application/vnd.oci.image.layer.v1.tar+gzip"
L_DOCKER = "application/vnd.docker.image.rootfs.diff.tar.gzip"


class Inode:
    def __init__(self, kind, mode=0o644, uid=0, gid=0, data=b"", target=""):
        self.kind, self.mode, self.uid, self.gid, self.data, self.target = kind, mode, uid, gid, data, target


class Model:
    def __init__(self):
        self.nodes = {}  # rel path -> Inode

    def children(self, d):
        pre = d + "/"
        return [p for p in self.nodes if p.startswith(pre)]

    def remove(self, p):
        for c in self.children(p):
            del self.nodes[c]
        self.nodes.pop(p, None)

    def parents(self, rel):
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            n = self.nodes.get(d)
            if n is None or n.kind != "dir":
                if n is not None:
                    self.remove(d)
                self.nodes[d] = Inode("dir", 0o755)

    def apply(self, entries):
        def norm(name):
            parts = [p for p in name.split("/") if p not in ("", ".")]
            return None if ".." in parts else "/".join(parts)
        for e in entries:
            rel = norm(e["name"])
            if rel is None:
                continue
            d, _, base = rel.rpartition("/")
            if base == ".wh..wh..opq":
                n = self.nodes.get(d)
                if n is not None and n.kind == "dir":
                    for c in self.children(d):
                        del self.nodes[c]
            elif base.startswith(".wh."):
                self.remove((d + "/" if d else "") + base[4:])
        for e in entries:
            rel = norm(e["name"])
            if not rel:
                continue
            base = rel.rpartition("/")[2]
            if base.startswith(".wh."):
                if base == ".wh..wh..opq":
                    self.parents(rel)
                continue
            t = e["type"]
            if t == "fifo":
                continue
            self.parents(rel)
            cur = self.nodes.get(rel)
            if t == "dir":
                if cur is not None and cur.kind == "dir":
                    cur.mode, cur.uid, cur.gid = e["mode"], e["uid"], e["gid"]
                else:
                    if cur is not None:
                        self.remove(rel)
                    self.nodes[rel] = Inode("dir", e["mode"], e["uid"], e["gid"])
            elif t == "file":
                self.remove(rel)
                self.nodes[rel] = Inode("file", e["mode"], e["uid"], e["gid"], data=e["data"])
            elif t == "sym":
                self.remove(rel)
                self.nodes[rel] = Inode("sym", 0o777, e["uid"], e["gid"], target=e["target"])
            elif t == "link":
                self.remove(rel)
                self.nodes[rel] = self.nodes[norm(e["target"])]


def tar_bytes(entries):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tf:
        for e in entries:
            ti = tarfile.TarInfo(e["name"])
            ti.uid, ti.gid, ti.mtime = e.get("uid", 0), e.get("gid", 0), 1700000000
            t = e["type"]
            if t == "dir":
                ti.type, ti.mode = tarfile.DIRTYPE, e["mode"]
                tf.addfile(ti)
            elif t == "file":
                ti.mode, ti.size = e["mode"], len(e["data"])
                tf.addfile(ti, io.BytesIO(e["data"]))
            elif t == "sym":
                ti.type, ti.linkname, ti.mode = tarfile.SYMTYPE, e["target"], 0o777
                tf.addfile(ti)
            elif t == "link":
                ti.type, ti.linkname, ti.mode = tarfile.LNKTYPE, e["target"], 0o644
                tf.addfile(ti)
            elif t == "fifo":
                ti.type, ti.mode = tarfile.FIFOTYPE, 0o644
                tf.addfile(ti)
            elif t == "wh":
                ti.mode, ti.size = 0o644, 0
                tf.addfile(ti, io.BytesIO(b""))
    return buf.getvalue()


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.n = 0

    def word(self):
        self.n += 1
        return self.r.choice(["cfg", "lib", "data", "app", "bin", "log", "tmp", "srv", "x"]) + str(self.n)

    def data(self):
        return os.urandom(self.r.randint(0, 40)) + self.word().encode()

    def own(self):
        return self.r.choice([(0, 0), (0, 0), (1000, 1000), (33, 4)])

    def f(self, name, mode=None):
        u, g = self.own()
        return {"type": "file", "name": name, "data": self.data(), "mode": mode or self.r.choice([0o644, 0o755, 0o600, 0o4755, 0o640]),
                "uid": u, "gid": g}

    def d(self, name, mode=None):
        u, g = self.own()
        return {"type": "dir", "name": name, "mode": mode or self.r.choice([0o755, 0o750, 0o700, 0o1777]), "uid": u, "gid": g}

    def prefix(self, name):
        return self.r.choice(["", "", "./", "/"]) + name

    def base_layer(self):
        es = []
        for d in ["etc", "usr", "usr/bin", "usr/lib", "var", "var/log", "srv", "srv/app", "srv/app/static", "home"]:
            es.append(self.d(d, 0o755))
        for d in ["etc", "usr/bin", "usr/lib", "srv/app", "srv/app/static", "var/log"]:
            for _ in range(self.r.randint(1, 3)):
                es.append(self.f(f"{d}/{self.word()}"))
        es.append(self.f("usr/bin/tool", 0o755))
        es.append({"type": "link", "name": "usr/bin/tool-alias", "target": "usr/bin/tool"})
        es.append({"type": "sym", "name": "usr/lib64", "target": "lib", "uid": 0, "gid": 0})
        es.append({"type": "sym", "name": "etc/alt", "target": "/usr/bin/tool", "uid": 0, "gid": 0})
        es.append(self.f(f"opt/vendor/{self.word()}/run", 0o755))  # parents not in the tar
        for e in es:
            e["name"] = self.prefix(e["name"])
        return es

    def next_layer(self, model, force_opaque=False):
        r = self.r
        es = []
        files = [p for p, n in model.nodes.items() if n.kind == "file"]
        dirs = [p for p, n in model.nodes.items() if n.kind == "dir"]
        used = set()

        def free(p):
            return not any(p == u or p.startswith(u + "/") or u.startswith(p + "/") for u in used)
        ops = ["modify", "whiteout", "whiteout_dir", "opaque", "dir_to_file", "file_to_dir", "hardlink",
               "relink", "sym", "chmod_dir", "add"]
        chosen = r.sample(ops, r.randint(4, 7))
        if force_opaque and "opaque" not in chosen:
            chosen.append("opaque")
        for op in chosen:
            if op == "modify" and files:
                p = r.choice(files)
                if free(p):
                    used.add(p)
                    es.append(self.f(p))
            elif op == "whiteout" and files:
                p = r.choice(files)
                if free(p):
                    used.add(p)
                    d, _, b = p.rpartition("/")
                    es.append({"type": "wh", "name": (d + "/" if d else "") + ".wh." + b})
            elif op == "whiteout_dir":
                cands = [d for d in dirs if "/" in d and model.children(d)]
                if cands:
                    p = r.choice(cands)
                    if free(p):
                        used.add(p)
                        d, _, b = p.rpartition("/")
                        es.append({"type": "wh", "name": d + "/.wh." + b})
            elif op == "opaque":
                cands = [d for d in dirs if model.children(d)]
                if cands:
                    p = r.choice(cands)
                    if free(p):
                        used.add(p)
                        kids = [self.f(f"{p}/{self.word()}") for _ in range(r.randint(1, 2))]
                        marker = {"type": "wh", "name": p + "/.wh..wh..opq"}
                        # the marker's place in the tar does not matter: it hides lower layers only
                        es.extend(kids[:1] + [marker] + kids[1:] if r.random() < 0.6 else [marker] + kids)
            elif op == "dir_to_file":
                cands = [d for d in dirs if "/" in d]
                if cands:
                    p = r.choice(cands)
                    if free(p):
                        used.add(p)
                        es.append(self.f(p))
            elif op == "file_to_dir" and files:
                p = r.choice(files)
                if free(p):
                    used.add(p)
                    es.append(self.d(p))
                    es.append(self.f(f"{p}/{self.word()}"))
            elif op == "hardlink" and files:
                p = r.choice(files)
                d = p.rpartition("/")[0]
                q = (d + "/" if d else "") + self.word() + "-hl"
                if free(p) and free(q):
                    used.update([p, q])
                    es.append({"type": "link", "name": q, "target": self.prefix(p)})
            elif op == "relink":
                linked = [p for p in files if sum(1 for n in model.nodes.values() if n is model.nodes[p]) > 1]
                if linked:
                    p = r.choice(linked)
                    if free(p):
                        used.add(p)
                        es.append(self.f(p))  # replaces this name only: the other link keeps the old data
            elif op == "sym" and files:
                p = r.choice(files)
                if free(p):
                    used.add(p)
                    u, g = self.own()
                    es.append({"type": "sym", "name": p, "target": r.choice(["../x", "/etc/passwd", "dangling"]),
                               "uid": u, "gid": g})
            elif op == "chmod_dir":
                cands = [d for d in dirs if "/" in d]
                if cands:
                    p = r.choice(cands)
                    if free(p):
                        used.add(p)
                        es.append(self.d(p))
            elif op == "add":
                q = f"srv/new{self.n}/{self.word()}/{self.word()}"
                if free(q.split('/')[0] + "/" + q.split('/')[1]):
                    used.add("/".join(q.split("/")[:2]))
                    es.append(self.f(q))
        for e in es:
            e["name"] = self.prefix(e["name"])
        return es


def write_blob(layout, data):
    dg = hashlib.sha256(data).hexdigest()
    os.makedirs(os.path.join(layout, "blobs", "sha256"), exist_ok=True)
    with open(os.path.join(layout, "blobs", "sha256", dg), "wb") as f:
        f.write(data)
    return {"digest": "sha256:" + dg, "size": len(data)}


def layer_blob(layout, entries, rng):
    raw = tar_bytes(entries)
    mt = rng.choice([L_TAR, L_GZ, L_DOCKER])
    data = raw if mt == L_TAR else gzip.compress(raw, mtime=0)
    return dict(write_blob(layout, data), mediaType=mt)


def image(layout, rng, n_layers, arch="amd64", force_opaque=True):
    """writes the blobs of one image; returns (manifest descriptor, expected model, layer descriptors)"""
    g = Gen(rng)
    model = Model()
    layers = []
    ents = g.base_layer()
    model.apply(ents)
    layers.append(layer_blob(layout, ents, rng))
    for i in range(n_layers - 1):
        ents = g.next_layer(model, force_opaque=force_opaque and i == 0)
        model.apply(ents)
        layers.append(layer_blob(layout, ents, rng))
    cfg = json.dumps({"architecture": arch, "os": "linux", "rootfs": {"type": "layers", "diff_ids": []},
                      "config": {"Cmd": ["/usr/bin/tool"]}}).encode()
    cdesc = dict(write_blob(layout, cfg), mediaType="application/vnd.oci.image.config.v1+json")
    man = json.dumps({"schemaVersion": 2, "mediaType": OCI_MANIFEST, "config": cdesc, "layers": layers},
                     indent=1).encode()
    return dict(write_blob(layout, man), mediaType=OCI_MANIFEST), model, layers


def write_index(layout, manifests):
    with open(os.path.join(layout, "oci-layout"), "w") as f:
        f.write('{"imageLayoutVersion": "1.0.0"}')
    with open(os.path.join(layout, "index.json"), "w") as f:
        json.dump({"schemaVersion": 2, "mediaType": OCI_INDEX, "manifests": manifests}, f, indent=1)


def nested_index(layout, manifests):
    data = json.dumps({"schemaVersion": 2, "mediaType": OCI_INDEX, "manifests": manifests}).encode()
    return dict(write_blob(layout, data), mediaType=OCI_INDEX)


def snapshot(root):
    """what is on disk: path -> tuple, plus hard-link groups"""
    out, inodes = {}, {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if os.path.islink(p):
                out[rel] = ("sym", os.readlink(p), st.st_uid, st.st_gid)
            elif os.path.isdir(p):
                out[rel] = ("dir", st.st_mode & 0o7777, st.st_uid, st.st_gid)
            elif os.path.isfile(p):
                out[rel] = ("file", st.st_mode & 0o7777, st.st_uid, st.st_gid, open(p, "rb").read())
                inodes.setdefault(st.st_ino, set()).add(rel)
            else:
                out[rel] = ("other",)
    return out, sorted(sorted(g) for g in inodes.values() if len(g) > 1)


def expected(model):
    out, groups = {}, {}
    for rel, n in model.nodes.items():
        if n.kind == "sym":
            out[rel] = ("sym", n.target, n.uid, n.gid)
        elif n.kind == "dir":
            out[rel] = ("dir", n.mode, n.uid, n.gid)
        else:
            out[rel] = ("file", n.mode, n.uid, n.gid, n.data)
            groups.setdefault(id(n), set()).add(rel)
    return out, sorted(sorted(g) for g in groups.values() if len(g) > 1)
