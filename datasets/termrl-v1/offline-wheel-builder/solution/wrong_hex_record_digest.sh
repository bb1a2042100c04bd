#!/bin/bash
# Plausible but wrong: RECORD hashes written as hex digests (as sha256sum prints them).
set -euo pipefail
cat > /app/mkwheel <<'PY'
#!/usr/bin/env python3
"""mkwheel SRC OUTDIR: build a pure-Python wheel from a pyproject.toml source tree, reproducibly."""
import base64
import fnmatch
import hashlib
import os
import re
import sys
import time
import tomllib
import zipfile


def norm_extra(n):
    return re.sub(r"[-_.]+", "-", n).lower()


def main():
    src, out = sys.argv[1], sys.argv[2]
    cfg = tomllib.load(open(os.path.join(src, "pyproject.toml"), "rb"))
    proj = cfg["project"]
    tool = cfg.get("tool", {}).get("mkwheel", {})
    pkgs = tool.get("packages", [])
    exclude = tool.get("exclude", [])
    version = proj.get("version")
    if version is None:
        init = os.path.join(src, pkgs[0], "__init__.py")
        m = re.search(r"""^__version__\s*=\s*['"]([^'"]+)['"]""", open(init).read(), re.M)
        version = m.group(1)
    name = proj["name"]
    dist = re.sub(r"[-_.]+", "_", name).lower()
    distinfo = f"{dist}-{version}.dist-info"

    files = {}  # archive path -> (bytes, mode)
    for p in pkgs:
        root = os.path.join(src, p)
        parent = os.path.dirname(os.path.normpath(root))
        for dp, dns, fns in os.walk(root):
            dns[:] = [d for d in dns if d != "__pycache__"]
            for fn in fns:
                if fn.endswith(".pyc"):
                    continue
                full = os.path.join(dp, fn)
                arc = os.path.relpath(full, parent).replace(os.sep, "/")
                if any(fnmatch.fnmatch(arc, pat) for pat in exclude):
                    continue
                mode = 0o755 if os.stat(full).st_mode & 0o100 else 0o644
                files[arc] = (open(full, "rb").read(), mode)

    md = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    if "description" in proj:
        md.append(f"Summary: {proj['description']}")
    if "requires-python" in proj:
        md.append(f"Requires-Python: {proj['requires-python']}")
    for d in proj.get("dependencies", []):
        md.append(f"Requires-Dist: {d}")
    for extra, deps in proj.get("optional-dependencies", {}).items():
        e = norm_extra(extra)
        md.append(f"Provides-Extra: {e}")
        for d in deps:
            if ";" in d:
                req, marker = d.split(";", 1)
                md.append(f'Requires-Dist: {req.strip()}; ({marker.strip()}) and extra == "{e}"')
            else:
                md.append(f'Requires-Dist: {d.strip()}; extra == "{e}"')
    meta = {f"{distinfo}/METADATA": "\n".join(md) + "\n",
            f"{distinfo}/WHEEL": "Wheel-Version: 1.0\nGenerator: mkwheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    groups = {}
    if proj.get("scripts"):
        groups["console_scripts"] = proj["scripts"]
    if proj.get("gui-scripts"):
        groups["gui_scripts"] = proj["gui-scripts"]
    for g, eps in proj.get("entry-points", {}).items():
        groups[g] = eps
    if groups:
        ep = ""
        for g, eps in groups.items():
            ep += f"[{g}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) + "\n"
        meta[f"{distinfo}/entry_points.txt"] = ep
    for k, v in meta.items():
        files[k] = (v.encode(), 0o644)

    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    stamp = time.gmtime(max(epoch, 315532800))[:6]
    order = sorted(a for a in files if not a.startswith(distinfo + "/")) + sorted(a for a in files if a.startswith(distinfo + "/"))
    record = []
    os.makedirs(out, exist_ok=True)
    whl = os.path.join(out, f"{dist}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(whl, "w", zipfile.ZIP_DEFLATED) as z:
        def put(arc, data, mode):
            zi = zipfile.ZipInfo(arc, date_time=stamp)
            zi.external_attr = (0o100000 | mode) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
        for arc in order:
            data, mode = files[arc]
            put(arc, data, mode)
            digest = hashlib.sha256(data).hexdigest()
            record.append(f"{arc},sha256={digest},{len(data)}")
        record.append(f"{distinfo}/RECORD,,")
        put(f"{distinfo}/RECORD", ("\n".join(record) + "\n").encode(), 0o644)
    print(whl)


if __name__ == "__main__":
    main()
PY
chmod +x /app/mkwheel
