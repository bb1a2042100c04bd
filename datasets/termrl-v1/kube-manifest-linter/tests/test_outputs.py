"""/app/kubelint on manifest sets generated here: a valid baseline (which must pass clean), then
faults injected into distinct documents, each with the finding(s) it must cause and no others."""
import copy
import json
import os
import random
import subprocess

RNG = random.Random(os.urandom(8))
TOOL = "/app/kubelint"


def word(n=3):
    return "".join(RNG.choice("bdfgklmnprstvz") + RNG.choice("aeiou") for _ in range(n))


def q_cpu():
    req = RNG.choice([("250m", 0.25), ("100m", 0.1), ("0.5", 0.5), ("1", 1.0)])
    lim = RNG.choice([x for x in [("500m", 0.5), ("1", 1.0), ("1.5", 1.5), ("2000m", 2.0)] if x[1] >= req[1]])
    return req[0], lim[0]


def q_mem():
    req = RNG.choice([("128Mi", 128 * 2**20), ("200M", 200 * 10**6), ("1000k", 10**6), ("64Mi", 64 * 2**20)])
    lim = RNG.choice([x for x in [("256Mi", 256 * 2**20), ("1G", 10**9), ("1Gi", 2**30), ("300000000", 3 * 10**8)]
                      if x[1] >= req[1]])
    return req[0], lim[0]


def image(app):
    return RNG.choice([f"{app}:1.{RNG.randint(0, 9)}", f"registry.local:5000/team/{app}:v{RNG.randint(1, 9)}",
                       f"lib/{app}@sha256:{'ab' * 32}", f"ghcr.io/org/{app}:2024.{RNG.randint(1, 12)}"])


def meta(name, ns, labels=None):
    m = {"name": name}
    if ns != "default" or RNG.random() < 0.3:
        m["namespace"] = ns
    if labels:
        m["labels"] = labels
    return m


def baseline():
    """list of [doc, role-info] entries; every document valid and every rule satisfied"""
    docs = []
    namespaces = ["default"] + RNG.sample(["shop", "ops", "edge"], RNG.randint(0, 2))
    apps = []
    for ns in namespaces:
        for _ in range(RNG.randint(1, 3)):
            app = word()
            keys = [word(2).upper() for _ in range(2)]
            cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(f"cm-{app}", ns),
                  "data": {k: word() for k in keys}}
            cpu_r, cpu_l = q_cpu()
            mem_r, mem_l = q_mem()
            cport = RNG.choice([8080, 3000, 5000])
            container = {"name": app, "image": image(app), "imagePullPolicy": RNG.choice(["Always", "IfNotPresent"]),
                         "ports": [{"name": "http", "containerPort": cport}, {"name": "metrics", "containerPort": 9100}],
                         "env": [{"name": "MODE", "value": "prod"},
                                 {"name": "CFG_" + keys[0], "valueFrom": {"configMapKeyRef": {"name": f"cm-{app}", "key": keys[0]}}}],
                         "envFrom": [{"configMapRef": {"name": f"cm-{app}"}}],
                         "resources": {"requests": {"cpu": cpu_r, "memory": mem_r}, "limits": {"cpu": cpu_l, "memory": mem_l}}}
            containers = [container]
            if RNG.random() < 0.4:
                containers.append({"name": "sidecar", "image": image("proxy"), "args": ["--quiet"]})
            dep = {"apiVersion": "apps/v1", "kind": "Deployment",
                   "metadata": meta(app, ns, {"app.kubernetes.io/name": app}),
                   "spec": {"replicas": RNG.randint(1, 5), "selector": {"matchLabels": {"app": app}},
                            "template": {"metadata": {"labels": {"app": app, "tier": RNG.choice(["web", "api"])}},
                                         "spec": {"containers": containers}}}}
            svc = {"apiVersion": "v1", "kind": "Service", "metadata": meta(f"{app}-svc", ns),
                   "spec": {"selector": {"app": app},
                            "ports": [{"name": "web", "port": 80, "targetPort": "http"}, {"port": 9100},
                                      {"port": 8000 + RNG.randint(0, 99), "targetPort": cport}]}}
            docs += [cm, dep, svc]
            apps.append((cm, dep, svc))
    standalones = []
    for _ in range(3):
        name = "batch-" + word(2)
        st = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta(name, RNG.choice(namespaces)),
              "spec": {"replicas": 1, "selector": {"matchLabels": {"job": name}},
                       "template": {"metadata": {"labels": {"job": name}},
                                    "spec": {"restartPolicy": "OnFailure",
                                             "containers": [{"name": "job", "image": image(name),
                                                             "ports": [{"containerPort": 7000}]}]}}}}
        docs.append(st)
        standalones.append(st)
    return docs, apps, standalones


CONT = ["spec", "template", "spec", "containers", 0]


def schema_fault(st):
    kind = RNG.randrange(7)
    if kind == 0:
        st["spec"]["replicas"] = "3"
        return [("schema", ["spec", "replicas"])]
    if kind == 1:
        st["spec"]["replicas"] = -1
        return [("schema", ["spec", "replicas"])]
    if kind == 2:
        st["spec"]["template"]["spec"]["containers"][0]["imagePullPolicy"] = "Sometimes"
        return [("schema", CONT + ["imagePullPolicy"])]
    if kind == 3:
        st["spec"]["replica"] = 2
        return [("schema", ["spec", "replica"])]
    if kind == 4:
        del st["spec"]["template"]["spec"]["containers"][0]["image"]
        return [("schema", CONT + ["image"])]
    if kind == 5:
        st["metadata"]["name"] = "Batch_" + word(2)
        return [("schema", ["metadata", "name"])]
    st["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] = 70000
    st["spec"]["template"]["spec"]["containers"][0]["args"] = ["--once", 5]
    return [("schema", CONT + ["ports", 0, "containerPort"]), ("schema", CONT + ["args", 1])]


def ptr(path):
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def build(tmp_path, n_faults):
    docs, apps, standalones = baseline()
    expected = []  # (doc object, rule, path)
    extra = []
    RNG.shuffle(apps)
    all_apps = list(apps)
    for st in RNG.sample(standalones, min(n_faults, RNG.randint(0, 3))):
        expected += [(st, r, p) for r, p in schema_fault(st)]
    pool = ["invalid_matched", "selector", "no_match", "target_name", "target_default", "missing_cm", "missing_key",
            "envfrom", "cpu", "mem_units", "image", "image_port", "duplicate", "unknown_kind"]
    RNG.shuffle(pool)
    for fault in pool[:n_faults]:
        if fault in ("duplicate", "unknown_kind"):
            if fault == "duplicate":
                d = copy.deepcopy(RNG.choice([a[0] for a in all_apps] + [a[2] for a in all_apps]))
                extra.append(d)
                expected.append((d, "duplicate", []))
            else:
                d = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s-" + word()}, "data": {}}
                extra.append(d)
                expected.append((d, "unknown-kind", ["kind"]))
            continue
        if not apps:
            break
        cm, dep, svc = apps.pop()
        c0 = dep["spec"]["template"]["spec"]["containers"][0]
        if fault == "invalid_matched":
            dep["spec"]["replicas"] = True
            expected += [(dep, "schema", ["spec", "replicas"]), (svc, "service-no-match", ["spec", "selector"])]
        elif fault == "selector":
            dep["spec"]["selector"]["matchLabels"]["app"] += "-v2"
            expected.append((dep, "selector-mismatch", ["spec", "selector", "matchLabels"]))
        elif fault == "no_match":
            svc["spec"]["selector"]["tier"] = "db"
            expected.append((svc, "service-no-match", ["spec", "selector"]))
        elif fault == "target_name":
            svc["spec"]["ports"][0]["targetPort"] = "https"
            expected.append((svc, "target-port", ["spec", "ports", 0, "targetPort"]))
        elif fault == "target_default":
            svc["spec"]["ports"].append({"name": "tls", "port": 8443})
            expected.append((svc, "target-port", ["spec", "ports", 3, "port"]))
        elif fault == "missing_cm":
            c0["env"][1]["valueFrom"]["configMapKeyRef"]["name"] = "cm-" + word()
            expected.append((dep, "missing-configmap", CONT + ["env", 1, "valueFrom", "configMapKeyRef", "name"]))
        elif fault == "missing_key":
            c0["env"][1]["valueFrom"]["configMapKeyRef"]["key"] = "NOPE_" + word(1).upper()
            expected.append((dep, "missing-key", CONT + ["env", 1, "valueFrom", "configMapKeyRef", "key"]))
        elif fault == "envfrom":
            other = [a[0] for a in apps if a[0]["metadata"].get("namespace", "default") != dep["metadata"].get("namespace", "default")]
            c0["envFrom"][0]["configMapRef"]["name"] = other[0]["metadata"]["name"] if other else "cm-" + word()
            expected.append((dep, "missing-configmap", CONT + ["envFrom", 0, "configMapRef", "name"]))
        elif fault == "cpu":
            c0["resources"]["requests"]["cpu"], c0["resources"]["limits"]["cpu"] = "1500m", "1"
            expected.append((dep, "resources", CONT + ["resources", "limits", "cpu"]))
        elif fault == "mem_units":
            c0["resources"]["requests"]["memory"], c0["resources"]["limits"]["memory"] = "1Gi", "1000M"
            expected.append((dep, "resources", CONT + ["resources", "limits", "memory"]))
        elif fault == "image":
            c0["image"] = RNG.choice([f"{c0['name']}:latest", f"docker.io/{c0['name']}"])
            expected.append((dep, "image-tag", CONT + ["image"]))
        elif fault == "image_port":
            c0["image"] = f"registry.local:5000/team/{c0['name']}"
            expected.append((dep, "image-tag", CONT + ["image"]))
    # files: a few, some holding a single object; the last one a list that also takes the extra documents
    RNG.shuffle(docs)
    d = tmp_path / f"m{RNG.randrange(10**9)}"
    d.mkdir()
    files, i = [], 0
    while i < len(docs):
        n = RNG.choice([1, 2, 4, 6])
        files.append(docs[i:i + n])
        i += n
    files[-1] = files[-1] + extra
    where = {}
    for fi, chunk in enumerate(files):
        fn = f"{fi * 10 + 10:03d}-{word(2)}.json"
        last = fi == len(files) - 1
        if len(chunk) == 1 and not last and RNG.random() < 0.7:
            (d / fn).write_text(json.dumps(chunk[0], indent=2))
        else:
            (d / fn).write_text(json.dumps(chunk, indent=RNG.choice([None, 2])))
        for j, doc in enumerate(chunk):
            where[id(doc)] = (fn, j)
    (d / "README.txt").write_text("not a manifest\n")
    exp = sorted(f"{where[id(doc)][0]}:{where[id(doc)][1]}:{rule}:{ptr(path)}" for doc, rule, path in expected)
    return d, exp


def run(d):
    return subprocess.run([TOOL, str(d)], capture_output=True, text=True, timeout=120)


def check(tmp_path, n_faults, rounds):
    for _ in range(rounds):
        d, exp = build(tmp_path, n_faults)
        r = run(d)
        got = r.stdout.splitlines()
        assert got == exp, f"findings differ\n got: {got}\n expected: {exp}\n dir: {d}"
        assert r.returncode == (1 if exp else 0), f"exit {r.returncode} with {len(exp)} findings; {r.stderr}"


def test_valid_sets_are_clean(tmp_path):
    check(tmp_path, 0, 6)


def test_single_faults(tmp_path):
    check(tmp_path, 1, 25)


def test_several_faults(tmp_path):
    check(tmp_path, 4, 12)


def test_many_faults(tmp_path):
    check(tmp_path, 9, 8)


def test_unit_arithmetic(tmp_path):
    """limits equal to requests in other units are fine; smaller ones are not"""
    for req, lim, bad in [("1Gi", "1073741824", False), ("1G", "1000M", False), ("1000k", "1M", False),
                          ("2Gi", "2048Mi", False), ("1Gi", "1024M", True), ("500m", "0.5", False), ("0.25", "200m", True)]:
        d = tmp_path / f"u{RNG.randrange(10**9)}"
        d.mkdir()
        res = "memory" if req[-1] in "iGMk4" else "cpu"
        doc = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "u"},
               "spec": {"selector": {"matchLabels": {"a": "u"}},
                        "template": {"metadata": {"labels": {"a": "u"}},
                                     "spec": {"containers": [{"name": "u", "image": "u:1",
                                                              "resources": {"requests": {res: req}, "limits": {res: lim}}}]}}}}
        (d / "a.json").write_text(json.dumps(doc))
        r = run(d)
        exp = [f"a.json:0:resources:/spec/template/spec/containers/0/resources/limits/{res}"] if bad else []
        assert r.stdout.splitlines() == exp, (req, lim, r.stdout)
