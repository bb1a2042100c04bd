#!/usr/bin/env python3
"""kbuild: render a kustomization tree kept as JSON (reference)."""
import copy
import hashlib
import json
import os
import sys

KIND_ORDER = ["Namespace", "ConfigMap", "Secret", "Service", "Deployment"]


class Fail(Exception):
    pass


class Res:
    def __init__(self, doc, hashed=None):
        self.doc = doc
        self.hash = hashed  # hash suffix of a generated ConfigMap

    @property
    def kind(self):
        return self.doc.get("kind")

    @property
    def name(self):
        return self.doc["metadata"]["name"]

    def display(self):
        return self.name + ("-" + self.hash if self.hash else "")


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise Fail(f"{path}: {e}")


def merge(target, patch):
    if isinstance(target, dict) and isinstance(patch, dict):
        out = dict(target)
        for k, v in patch.items():
            if k == "$patch":
                continue
            if v is None:
                out.pop(k, None)
            elif k in out:
                out[k] = merge(out[k], v)
            else:
                out[k] = strip(v)
        return out
    if isinstance(target, list) and isinstance(patch, list) and target and \
            all(isinstance(x, dict) and "name" in x for x in target + patch):
        out = [copy.deepcopy(x) for x in target]
        for item in patch:
            idx = next((i for i, x in enumerate(out) if x["name"] == item["name"]), None)
            if item.get("$patch") == "delete":
                if idx is not None:
                    del out[idx]
            elif idx is None:
                out.append(strip(item))
            else:
                out[idx] = merge(out[idx], item)
        return out
    return strip(patch)


def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k != "$patch"}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


def pod_spec(doc):
    return doc.get("spec", {}).get("template", {}).get("spec", {})


def containers(doc):
    ps = pod_spec(doc)
    return ps.get("containers", []) + ps.get("initContainers", [])


def set_image(c, rule):
    img = c.get("image", "")
    base = img.split("@", 1)[0]
    slash, colon = base.rfind("/"), base.rfind(":")
    if colon > slash:
        base = base[:colon]
    if base != rule["name"]:
        return
    new = rule.get("newName", base)
    if "digest" in rule:
        c["image"] = new + "@" + rule["digest"]
    elif "newTag" in rule:
        c["image"] = new + ":" + rule["newTag"]
    else:
        c["image"] = new + img[len(base):]


def cm_refs(doc):
    """(holder dict, key) of every ConfigMap name reference in a Deployment"""
    out = []
    for c in containers(doc):
        for e in c.get("envFrom", []):
            if "configMapRef" in e:
                out.append((e["configMapRef"], "name"))
        for e in c.get("env", []):
            ref = e.get("valueFrom", {}).get("configMapKeyRef")
            if ref is not None:
                out.append((ref, "name"))
    for v in pod_spec(doc).get("volumes", []):
        if "configMap" in v:
            out.append((v["configMap"], "name"))
    return out


def render(d, stack=()):
    d = os.path.realpath(d)
    if d in stack:
        raise Fail(f"{d}: cycle in resources")
    k = load_json(os.path.join(d, "kustomization.json"))
    res = []
    for r in k.get("resources", []):
        p = os.path.join(d, r)
        if os.path.isdir(p):
            res += render(p, stack + (d,))
        else:
            docs = load_json(p)
            for doc in docs if isinstance(docs, list) else [docs]:
                res.append(Res(copy.deepcopy(doc)))
    old_display = {}
    for g in k.get("configMapGenerator", []):
        data = {}
        for lit in g.get("literals", []):
            key, _, val = lit.partition("=")
            data[key] = val
        for f in g.get("files", []):
            with open(os.path.join(d, f), encoding="utf-8") as fh:
                data[os.path.basename(f)] = fh.read()
        canon = json.dumps({"data": data, "kind": "ConfigMap", "name": g["name"]}, sort_keys=True,
                           separators=(",", ":"))
        r = Res({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": g["name"]}, "data": data},
                hashlib.sha256(canon.encode()).hexdigest()[:10])
        old_display[id(r)] = g["name"]
        res.append(r)
    for pf in k.get("patches", []):
        patch = load_json(os.path.join(d, pf))
        pm = patch.get("metadata", {})
        hits = [r for r in res if r.kind == patch.get("kind") and r.name == pm.get("name")
                and ("namespace" not in pm or r.doc["metadata"].get("namespace") == pm["namespace"])]
        if not hits:
            raise Fail(f"{d}: patch {pf} matches no resource")
        for r in hits:
            r.doc = merge(r.doc, patch)
    for rep in k.get("replicas", []):
        for r in res:
            if r.kind == "Deployment" and r.name == rep["name"]:
                r.doc.setdefault("spec", {})["replicas"] = rep["count"]
    for rule in k.get("images", []):
        for r in res:
            if r.kind == "Deployment":
                for c in containers(r.doc):
                    set_image(c, rule)
    pre, suf = k.get("namePrefix", ""), k.get("nameSuffix", "")
    renames = {}
    for r in res:
        before = old_display.get(id(r), r.display())
        r.doc["metadata"]["name"] = pre + r.name + suf
        if r.kind == "ConfigMap":
            renames[before] = r.display()
    for r in res:
        if r.kind == "Deployment":
            for holder, key in cm_refs(r.doc):
                if holder.get(key) in renames:
                    holder[key] = renames[holder[key]]
    ns = k.get("namespace")
    labels = k.get("commonLabels", {})
    ann = k.get("commonAnnotations", {})
    for r in res:
        md = r.doc["metadata"]
        if ns is not None:
            md["namespace"] = ns
        if labels:
            md.setdefault("labels", {}).update(labels)
            if r.kind == "Deployment":
                spec = r.doc.setdefault("spec", {})
                spec.setdefault("selector", {}).setdefault("matchLabels", {}).update(labels)
                spec.setdefault("template", {}).setdefault("metadata", {}).setdefault("labels", {}).update(labels)
            elif r.kind == "Service":
                r.doc.setdefault("spec", {}).setdefault("selector", {}).update(labels)
        if ann:
            md.setdefault("annotations", {}).update(ann)
    return res


def main(argv):
    if len(argv) != 1:
        raise Fail("usage: kbuild DIR")
    res = render(argv[0])
    out, seen = [], set()
    for r in res:
        doc = r.doc
        doc["metadata"]["name"] = r.display()
        ident = (r.kind, doc["metadata"].get("namespace", ""), doc["metadata"]["name"])
        if ident in seen:
            raise Fail(f"duplicate resource {ident}")
        seen.add(ident)
        out.append(doc)

    def key(doc):
        kd = doc.get("kind")
        rank = KIND_ORDER.index(kd) if kd in KIND_ORDER else len(KIND_ORDER)
        return (rank, kd, doc["metadata"].get("namespace", ""), doc["metadata"]["name"])
    out.sort(key=key)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Fail as e:
        print(f"kbuild: {e}", file=sys.stderr)
        sys.exit(1)
