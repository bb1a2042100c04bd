#!/bin/bash
# Plausible but wrong: documents with schema errors are reported but still serve as targets of the cross-document rules.
set -euo pipefail
cat > /app/kubelint <<'PY'
#!/usr/bin/env python3
"""kubelint DIR: schema and cross-document checks for Deployment/Service/ConfigMap JSON manifests."""
import json
import os
import re
import sys

SCHEMA = json.load(open("/app/schema/manifests.schema.json"))
DEFS = SCHEMA["definitions"]
KINDS = ("Deployment", "Service", "ConfigMap")


def ptr(path):
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def is_type(v, t):
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    if t == "string":
        return isinstance(v, str)
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "boolean":
        return isinstance(v, bool)
    return False


def validate(v, s, path, errs):
    while "$ref" in s:
        s = DEFS[s["$ref"].split("/")[-1]]
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(is_type(v, t) for t in ts):
            errs.append(path)
            return
    if "enum" in s and v not in s["enum"]:
        errs.append(path)
        return
    if isinstance(v, str) and "pattern" in s and not re.search(s["pattern"], v):
        errs.append(path)
    if is_type(v, "number"):
        if "minimum" in s and v < s["minimum"]:
            errs.append(path)
        elif "maximum" in s and v > s["maximum"]:
            errs.append(path)
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                errs.append(path + [k])
        props = s.get("properties", {})
        extra = s.get("additionalProperties", True)
        for k, x in v.items():
            if k in props:
                validate(x, props[k], path + [k], errs)
            elif extra is False:
                errs.append(path + [k])
            elif isinstance(extra, dict):
                validate(x, extra, path + [k], errs)
    if isinstance(v, list):
        if "minItems" in s and len(v) < s["minItems"]:
            errs.append(path)
        if "items" in s:
            for i, x in enumerate(v):
                validate(x, s["items"], path + [i], errs)


def cpu(q):
    return int(q[:-1]) / 1000 if q.endswith("m") else float(q)


MEM = {"k": 1000, "M": 1000 ** 2, "G": 1000 ** 3, "Ki": 1024, "Mi": 1024 ** 2, "Gi": 1024 ** 3}


def mem(q):
    m = re.fullmatch(r"(\d+)([A-Za-z]*)", q)
    return int(m.group(1)) * MEM.get(m.group(2), 1)


def image_ok(img):
    if "@" in img:
        return True
    last = img.rsplit("/", 1)[-1]
    if ":" not in last:
        return False
    return last.rsplit(":", 1)[1] != "latest"


def main():
    d = sys.argv[1]
    findings = []
    docs = []
    for fn in sorted(f for f in os.listdir(d) if f.endswith(".json")):
        data = json.load(open(os.path.join(d, fn)))
        items = data if isinstance(data, list) else [data]
        for i, doc in enumerate(items):
            docs.append((fn, i, doc))

    def add(fn, i, rule, path):
        findings.append(f"{fn}:{i}:{rule}:{ptr(path)}")

    valid, seen = [], set()
    deps_extra = []
    for fn, i, doc in docs:
        kind = doc.get("kind") if isinstance(doc, dict) else None
        if kind not in KINDS:
            add(fn, i, "unknown-kind", ["kind"])
            continue
        errs = []
        validate(doc, DEFS[kind], [], errs)
        if errs:
            for e in errs:
                add(fn, i, "schema", e)
            if kind != "Deployment" or not isinstance(doc.get("spec"), dict):
                continue
            deps_extra.append((doc, doc.get("metadata", {}).get("namespace", "default")))
            continue
        ns = doc["metadata"].get("namespace", "default")
        key = (kind, ns, doc["metadata"]["name"])
        if key in seen:
            add(fn, i, "duplicate", [])
            continue
        seen.add(key)
        valid.append((fn, i, doc, ns))

    cms = {(ns, doc["metadata"]["name"]): doc.get("data", {}) for fn, i, doc, ns in valid if doc["kind"] == "ConfigMap"}
    deps = [(doc, ns) for fn, i, doc, ns in valid if doc["kind"] == "Deployment"] + deps_extra
    for fn, i, doc, ns in valid:
        if doc["kind"] == "Deployment":
            spec = doc["spec"]
            tl = spec["template"]["metadata"]["labels"]
            if any(tl.get(k) != v for k, v in spec["selector"]["matchLabels"].items()):
                add(fn, i, "selector-mismatch", ["spec", "selector", "matchLabels"])
            for ci, c in enumerate(spec["template"]["spec"]["containers"]):
                base = ["spec", "template", "spec", "containers", ci]
                if not image_ok(c["image"]):
                    add(fn, i, "image-tag", base + ["image"])
                res = c.get("resources", {})
                req, lim = res.get("requests", {}), res.get("limits", {})
                for r, conv in (("cpu", cpu), ("memory", mem)):
                    if r in req and r in lim and conv(lim[r]) < conv(req[r]):
                        add(fn, i, "resources", base + ["resources", "limits", r])
                for j, e in enumerate(c.get("env", [])):
                    ref = e.get("valueFrom", {}).get("configMapKeyRef")
                    if ref:
                        p = base + ["env", j, "valueFrom", "configMapKeyRef"]
                        if (ns, ref["name"]) not in cms:
                            add(fn, i, "missing-configmap", p + ["name"])
                        elif ref["key"] not in cms[(ns, ref["name"])]:
                            add(fn, i, "missing-key", p + ["key"])
                for j, e in enumerate(c.get("envFrom", [])):
                    if (ns, e["configMapRef"]["name"]) not in cms:
                        add(fn, i, "missing-configmap", base + ["envFrom", j, "configMapRef", "name"])
        elif doc["kind"] == "Service":
            sel = doc["spec"]["selector"]
            matched = [dd for dd, dns in deps if dns == ns and sel and
                       all(dd["spec"]["template"]["metadata"]["labels"].get(k) == v for k, v in sel.items())]
            if not matched:
                add(fn, i, "service-no-match", ["spec", "selector"])
                continue
            nums, names = set(), set()
            for dd in matched:
                for c in dd["spec"]["template"]["spec"]["containers"]:
                    for p in c.get("ports", []):
                        nums.add(p["containerPort"])
                        if "name" in p:
                            names.add(p["name"])
            for pi, p in enumerate(doc["spec"]["ports"]):
                t = p.get("targetPort", p["port"])
                ok = t in names if isinstance(t, str) else t in nums
                if not ok:
                    add(fn, i, "target-port", ["spec", "ports", pi, "targetPort" if "targetPort" in p else "port"])
    for f in sorted(findings):
        print(f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
PY
chmod +x /app/kubelint
