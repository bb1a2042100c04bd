"""build time: a small two-layer OCI layout in /app/sample (fixed content)"""
import gzip, hashlib, io, json, os, tarfile

root = "/app/sample"
os.makedirs(root + "/blobs/sha256", exist_ok=True)


def blob(data):
    dg = hashlib.sha256(data).hexdigest()
    open(f"{root}/blobs/sha256/{dg}", "wb").write(data)
    return {"digest": "sha256:" + dg, "size": len(data)}


def layer(members):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        for name, kind, arg in members:
            ti = tarfile.TarInfo(name)
            ti.mtime = 1700000000
            if kind == "dir":
                ti.type, ti.mode = tarfile.DIRTYPE, 0o755
                tf.addfile(ti)
            elif kind == "file":
                ti.mode, ti.size = 0o644, len(arg)
                tf.addfile(ti, io.BytesIO(arg))
            elif kind == "sym":
                ti.type, ti.linkname = tarfile.SYMTYPE, arg
                tf.addfile(ti)
    return gzip.compress(buf.getvalue(), mtime=0)


l1 = layer([("etc", "dir", None), ("etc/motd", "file", b"hello\n"), ("etc/app.d", "dir", None),
            ("etc/app.d/a.conf", "file", b"a=1\n"), ("bin", "dir", None), ("bin/sh", "sym", "busybox")])
l2 = layer([("etc/.wh.motd", "file", b""), ("etc/app.d/.wh..wh..opq", "file", b""),
            ("etc/app.d/b.conf", "file", b"b=2\n")])
layers = [dict(blob(x), mediaType="application/vnd.oci.image.layer.v1.tar+gzip") for x in (l1, l2)]
cfg = dict(blob(b'{"architecture":"amd64","os":"linux"}'), mediaType="application/vnd.oci.image.config.v1+json")
man = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                  "config": cfg, "layers": layers}).encode()
md = dict(blob(man), mediaType="application/vnd.oci.image.manifest.v1+json",
          platform={"os": "linux", "architecture": "amd64"})
json.dump({"schemaVersion": 2, "manifests": [md]}, open(root + "/index.json", "w"), indent=1)
open(root + "/oci-layout", "w").write('{"imageLayoutVersion": "1.0.0"}')
