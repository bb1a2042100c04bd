"""/app/kbuild on kustomization trees generated here (bases, overlays, a middle layer), compared with the
expected rendering; fixed cases pin hashes, merge rules, name nesting and errors."""
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import kbuild_ref  # noqa: E402
import kgen  # noqa: E402

TOOL = "/app/kbuild"
RNG = random.Random(os.urandom(8))


def run(d):
    return subprocess.run([TOOL, str(d)], capture_output=True, text=True, timeout=60)


def render_ok(d):
    r = run(d)
    assert r.returncode == 0, r.stderr
    try:
        return json.loads(r.stdout)
    except ValueError:
        raise AssertionError("output is not JSON:\n" + r.stdout[:2000])


def expected(d):
    res = kbuild_ref.render(str(d))
    out = []
    for x in res:
        x.doc["metadata"]["name"] = x.display()
        out.append(x.doc)

    def key(doc):
        kd = doc.get("kind")
        rank = kbuild_ref.KIND_ORDER.index(kd) if kd in kbuild_ref.KIND_ORDER else len(kbuild_ref.KIND_ORDER)
        return (rank, kd, doc["metadata"].get("namespace", ""), doc["metadata"]["name"])
    return json.loads(json.dumps(sorted(out, key=key)))


def w(path, obj):
    kgen.w(str(path), obj)


def h10(name, data):
    canon = json.dumps({"data": data, "kind": "ConfigMap", "name": name}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode()).hexdigest()[:10]


def test_example(tmp_path):
    shutil.copytree("/tests/example", tmp_path / "ex")
    got = render_ok(tmp_path / "ex/overlays/prod")
    assert got == json.loads((tmp_path / "ex/expected.json").read_text())


def test_generator_hash_and_references(tmp_path):
    key = f"v{RNG.randint(0, 10**6)}"
    (tmp_path / "b/files").mkdir(parents=True)
    (tmp_path / "b/files/app.conf").write_text(f"x = {key}\n")
    dep = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "api"},
           "spec": {"template": {"spec": {
               "containers": [{"name": "api", "image": "api:1", "envFrom": [{"configMapRef": {"name": "conf"}}],
                               "env": [{"name": "A", "valueFrom": {"configMapKeyRef": {"name": "conf", "key": "a"}}},
                                       {"name": "B", "valueFrom": {"configMapKeyRef": {"name": "other", "key": "b"}}}]}],
               "volumes": [{"name": "v", "configMap": {"name": "conf"}}, {"name": "s", "secret": {"secretName": "conf"}}]}}}}
    w(tmp_path / "b/d.json", dep)
    w(tmp_path / "b/kustomization.json", {"resources": ["d.json"], "nameSuffix": "-eu", "configMapGenerator": [
        {"name": "conf", "literals": [f"a={key}", "b=2=3", "a=last"], "files": ["files/app.conf"]}]})
    w(tmp_path / "o/kustomization.json", {"resources": ["../b"], "namePrefix": "p-"})
    data = {"a": "last", "b": "2=3", "app.conf": f"x = {key}\n"}
    name = f"p-conf-eu-{h10('conf', data)}"
    got = render_ok(tmp_path / "o")
    assert [d["kind"] for d in got] == ["ConfigMap", "Deployment"]
    assert got[0]["metadata"]["name"] == name and got[0]["data"] == data
    c = got[1]["spec"]["template"]["spec"]["containers"][0]
    assert got[1]["metadata"]["name"] == "p-api-eu"
    assert c["envFrom"][0]["configMapRef"]["name"] == name
    assert c["env"][0]["valueFrom"]["configMapKeyRef"]["name"] == name
    assert c["env"][1]["valueFrom"]["configMapKeyRef"]["name"] == "other"
    vols = got[1]["spec"]["template"]["spec"]["volumes"]
    assert vols[0]["configMap"]["name"] == name and vols[1]["secret"]["secretName"] == "conf"


def test_strategic_merge_rules(tmp_path):
    dep = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "w", "labels": {"a": "1", "b": "2"}},
           "spec": {"replicas": 2, "strategy": {"type": "Recreate"},
                    "template": {"spec": {"containers": [
                        {"name": "w", "image": "w:1", "args": ["--a", "--b"],
                         "env": [{"name": "X", "value": "1"}, {"name": "Y", "value": "2"}],
                         "ports": [{"containerPort": 80}]},
                        {"name": "side", "image": "s:1"}]}}}}
    patch = {"kind": "Deployment", "metadata": {"name": "w", "labels": {"b": None, "c": "3"}},
             "spec": {"strategy": None, "template": {"spec": {"containers": [
                 {"name": "side", "$patch": "delete"},
                 {"name": "w", "args": ["--c"], "env": [{"name": "Y", "value": "22"}, {"name": "Z", "value": "3"}],
                  "ports": [{"containerPort": 8080}]},
                 {"name": "new", "image": "n:1", "env": [{"name": "Q", "value": "q", "$patch": "delete"}]}]}}}}
    other = dict(dep, metadata={"name": "other"})
    w(tmp_path / "d.json", [dep, other])
    w(tmp_path / "p.json", patch)
    w(tmp_path / "kustomization.json", {"resources": ["d.json"], "patches": ["p.json"]})
    got = render_ok(tmp_path)
    d = next(x for x in got if x["metadata"]["name"] == "w")
    assert d["metadata"]["labels"] == {"a": "1", "c": "3"}
    assert "strategy" not in d["spec"] and d["spec"]["replicas"] == 2
    cs = d["spec"]["template"]["spec"]["containers"]
    assert [c["name"] for c in cs] == ["w", "new"]
    assert cs[0]["args"] == ["--c"] and cs[0]["ports"] == [{"containerPort": 8080}]
    assert cs[0]["env"] == [{"name": "X", "value": "1"}, {"name": "Y", "value": "22"}, {"name": "Z", "value": "3"}]
    assert cs[1] == {"name": "new", "image": "n:1", "env": [{"name": "Q", "value": "q"}]}
    assert next(x for x in got if x["metadata"]["name"] == "other") == other


def test_nesting_images_and_order(tmp_path):
    w(tmp_path / "base/r.json", [
        {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"}, "spec": {"selector": {"app": "s"}}},
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "s"}, "spec": {"template": {"spec": {
            "containers": [{"name": "a", "image": "host:5000/s"}, {"name": "b", "image": "host:5000/s:3"},
                           {"name": "c", "image": "s:3@sha256:" + "ab" * 32}, {"name": "d", "image": "s2:1"}],
            "initContainers": [{"name": "i", "image": "s:9"}]}}}},
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "zz"}},
        {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "s"}, "data": {}}])
    w(tmp_path / "base/kustomization.json", {"resources": ["r.json"], "namePrefix": "in-", "nameSuffix": "-1",
                                              "namespace": "inner"})
    w(tmp_path / "mid/kustomization.json", {"resources": ["../base"], "namePrefix": "mid-",
                                             "replicas": [{"name": "in-s-1", "count": 7}],
                                             "images": [{"name": "host:5000/s", "newTag": "v2"},
                                                        {"name": "s", "newName": "m/s", "digest": "sha256:" + "cd" * 32}]})
    w(tmp_path / "top/kustomization.json", {"resources": ["../mid"], "nameSuffix": "-top", "namespace": "outer",
                                             "images": [{"name": "m/s", "newTag": "5"}]})
    got = render_ok(tmp_path / "top")
    assert [(d["kind"], d["metadata"]["name"], d["metadata"]["namespace"]) for d in got] == [
        ("Namespace", "mid-in-zz-1-top", "outer"), ("ConfigMap", "mid-in-s-1-top", "outer"),
        ("Service", "mid-in-s-1-top", "outer"), ("Deployment", "mid-in-s-1-top", "outer"),
        ("Job", "mid-in-j-1-top", "outer")]
    d = got[3]
    assert d["spec"]["replicas"] == 7
    imgs = [c["image"] for c in d["spec"]["template"]["spec"]["containers"]]
    assert imgs == ["host:5000/s:v2", "host:5000/s:v2", "m/s:5", "s2:1"]
    assert d["spec"]["template"]["spec"]["initContainers"][0]["image"] == "m/s:5"


def test_errors(tmp_path):
    w(tmp_path / "a/d.json", {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "x"}})
    w(tmp_path / "a/p.json", {"kind": "Service", "metadata": {"name": "y"}, "spec": {}})
    w(tmp_path / "a/kustomization.json", {"resources": ["d.json"], "patches": ["p.json"]})
    r = run(tmp_path / "a")
    assert r.returncode == 1 and r.stderr.strip() and not r.stdout.strip()
    w(tmp_path / "b/kustomization.json", {"resources": ["../a/d.json", "d2.json"]})
    w(tmp_path / "b/d2.json", [{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "x"}}])
    r = run(tmp_path / "b")
    assert r.returncode == 1 and not r.stdout.strip()
    w(tmp_path / "c/kustomization.json", {"resources": ["../nowhere"]})
    assert run(tmp_path / "c").returncode == 1
    w(tmp_path / "d/kustomization.json", {"resources": ["../a/d.json"], "namespace": "n2"})
    w(tmp_path / "e/kustomization.json", {"resources": ["../a/d.json", "../d"]})
    got = render_ok(tmp_path / "e")
    assert [(x["metadata"]["name"], x["metadata"].get("namespace")) for x in got] == [("x", None), ("x", "n2")]


def test_generated_trees(tmp_path):
    for i in range(8):
        root = tmp_path / f"t{i}"
        top = kgen.Tree(RNG, str(root)).build()
        want = expected(top)
        got = render_ok(top)
        assert got == want, f"tree {i}: {top}\n" + json.dumps(got, indent=1)[:3000]
