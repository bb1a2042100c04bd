"""Random kustomization trees (a base, overlays, sometimes a middle layer) written as JSON."""
import json
import os


def w(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)


class Tree:
    def __init__(self, rng, root):
        self.r = rng
        self.root = root
        self.n = 0

    def word(self):
        self.n += 1
        return self.r.choice(["web", "api", "db", "cache", "auth", "jobs", "feed"]) + str(self.n)

    def deployment(self, app, cms):
        r = self.r
        c = {"name": app, "image": r.choice([f"registry.local:5000/team/{app}:1.{r.randint(0, 9)}", f"{app}",
                                              f"nginx:1.2{r.randint(0, 9)}", f"ghcr.io/org/{app}@sha256:" + "cd" * 32,
                                              "nginx"]),
             "ports": [{"name": "http", "containerPort": r.choice([80, 8080])},
                       {"name": "metrics", "containerPort": 9100}],
             "env": [{"name": "MODE", "value": "base"}, {"name": "LEVEL", "value": str(r.randint(1, 5))}],
             "args": ["--serve", "--quiet"]}
        if cms:
            cm = r.choice(cms)
            c["envFrom"] = [{"configMapRef": {"name": cm}}]
            c["env"].append({"name": "K", "valueFrom": {"configMapKeyRef": {"name": r.choice(cms), "key": "k"}}})
        containers = [c]
        if r.random() < 0.5:
            containers.append({"name": "sidecar", "image": "envoy:v1.2" + str(r.randint(0, 9)), "args": ["-l", "info"]})
        spec = {"replicas": r.randint(1, 3), "selector": {"matchLabels": {"app": app}},
                "template": {"metadata": {"labels": {"app": app}}, "spec": {"containers": containers}}}
        if cms and r.random() < 0.6:
            spec["template"]["spec"]["volumes"] = [{"name": "conf", "configMap": {"name": r.choice(cms)}}]
        if r.random() < 0.3:
            spec["template"]["spec"]["initContainers"] = [{"name": "init", "image": f"{app}:init", "args": ["migrate"]}]
        return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": app, "labels": {"team": "core"}},
                "spec": spec}

    def service(self, app):
        return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": app},
                "spec": {"selector": {"app": app}, "ports": [{"port": 80, "targetPort": "http"}]}}

    def generator(self, dirpath, name):
        r = self.r
        g = {"name": name, "literals": [f"k={self.word()}", f"{self.word()}={r.randint(0, 99)}"]}
        if r.random() < 0.5:
            fname = f"files/{self.word()}.conf"
            with_dir = os.path.join(dirpath, fname)
            os.makedirs(os.path.dirname(with_dir), exist_ok=True)
            with open(with_dir, "w") as f:
                f.write(f"setting = {r.randint(0, 1000)}\nname = {self.word()}\n")
            g["files"] = [fname]
        return g

    def base(self, path):
        r = self.r
        k = {"resources": []}
        gens = [self.generator(path, f"cfg-{self.word()}") for _ in range(r.randint(1, 2))]
        k["configMapGenerator"] = gens
        cms = [g["name"] for g in gens]
        plain = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": f"static-{self.word()}"},
                 "data": {"k": "v"}}
        cms.append(plain["metadata"]["name"])
        apps = [self.word() for _ in range(r.randint(1, 3))]
        docs = [self.deployment(a, cms) for a in apps]
        w(os.path.join(path, "deploy.json"), docs if len(docs) > 1 or r.random() < 0.5 else docs[0])
        w(os.path.join(path, "svc.json"), [self.service(a) for a in apps] + [plain])
        k["resources"] = ["deploy.json", "svc.json"]
        if r.random() < 0.5:
            k["commonLabels"] = {"app.kubernetes.io/part-of": "shop"}
        if r.random() < 0.3:
            k["namePrefix"] = "b-"
        w(os.path.join(path, "kustomization.json"), k)
        return apps, docs

    def patches_for(self, path, docs, prefix_in):
        r = self.r
        out = []
        for i, d in enumerate(r.sample(docs, min(len(docs), r.randint(1, 2)))):
            name = prefix_in + d["metadata"]["name"]
            cname = d["spec"]["template"]["spec"]["containers"][0]["name"]
            cont = {"name": cname}
            choice = r.sample(["env", "args", "ports", "resources", "delete_sidecar", "add_container", "null_key"], 3)
            spec = {"template": {"spec": {"containers": [cont]}}}
            if "env" in choice:
                cont["env"] = [{"name": "MODE", "value": "patched"}, {"name": "NEW", "value": self.word()}]
            if "args" in choice:
                cont["args"] = ["--verbose"]
            if "ports" in choice:
                cont["ports"] = [{"name": "metrics", "containerPort": 9200}, {"name": "admin", "containerPort": 9901}]
            if "resources" in choice:
                cont["resources"] = {"limits": {"cpu": "500m"}}
            if "delete_sidecar" in choice:
                spec["template"]["spec"]["containers"].append({"name": "sidecar", "$patch": "delete"})
            if "add_container" in choice:
                spec["template"]["spec"]["containers"].append({"name": "logger", "image": "fluent/bit:2.1",
                                                              "args": ["-c", "x"]})
            if "null_key" in choice:
                spec["template"]["metadata"] = {"labels": {"app": d["spec"]["template"]["metadata"]["labels"]["app"]}}
                spec["replicas"] = None
            p = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name}, "spec": spec}
            fn = f"patch-{i}.json"
            w(os.path.join(path, fn), p)
            out.append(fn)
        return out

    def overlay(self, path, inner_rel, docs, prefix_in, extra=True):
        r = self.r
        k = {"resources": [inner_rel]}
        if extra:
            gens = [self.generator(path, f"ov-{self.word()}")]
            k["configMapGenerator"] = gens
            app = self.word()
            w(os.path.join(path, "extra.json"), [self.deployment(app, [gens[0]["name"]]), self.service(app)])
            k["resources"].append("extra.json")
        k["patches"] = self.patches_for(path, docs, prefix_in)
        if r.random() < 0.7:
            k["namePrefix"] = r.choice(["prod-", "dev-", "eu-"])
        if r.random() < 0.4:
            k["nameSuffix"] = r.choice(["-v2", "-x"])
        k["namespace"] = r.choice(["prod", "staging", "team-a"])
        k["commonLabels"] = {"env": r.choice(["prod", "dev"])}
        if r.random() < 0.5:
            k["commonAnnotations"] = {"owner": "ops@example.com"}
        imgs = []
        for d in docs:
            for c in d["spec"]["template"]["spec"]["containers"]:
                img = c["image"]
                base = img.split("@")[0] if "@" in img else (img.rsplit(":", 1)[0] if ":" in img.rsplit("/", 1)[-1] else img)
                imgs.append(base)
        rules = []
        for base in self.r.sample(sorted(set(imgs)), min(len(set(imgs)), 2)):
            rule = {"name": base}
            kind = r.choice(["tag", "name", "digest", "both"])
            if kind in ("tag", "both"):
                rule["newTag"] = f"2.{r.randint(0, 9)}"
            if kind in ("name", "both"):
                rule["newName"] = "mirror.local/" + base.rsplit("/", 1)[-1]
            if kind == "digest":
                rule["digest"] = "sha256:" + "ef" * 32
            rules.append(rule)
        k["images"] = rules
        if r.random() < 0.6:
            k["replicas"] = [{"name": prefix_in + r.choice(docs)["metadata"]["name"], "count": r.randint(4, 9)}]
        w(os.path.join(path, "kustomization.json"), k)
        return k

    def build(self):
        """returns the directory to render"""
        base = os.path.join(self.root, "base")
        apps, docs = self.base(base)
        with open(os.path.join(base, "kustomization.json")) as f:
            pre = json.load(f).get("namePrefix", "")
        if self.r.random() < 0.5:
            mid = os.path.join(self.root, "overlays", "staging")
            k = self.overlay(mid, "../../base", docs, pre, extra=False)
            pre2 = k.get("namePrefix", "") + pre
            suf = k.get("nameSuffix", "")
            docs2 = [dict(d, metadata=dict(d["metadata"], name=d["metadata"]["name"] + suf)) for d in docs]
            top = os.path.join(self.root, "overlays", "prod")
            self.overlay(top, "../staging", docs2, pre2)
            return top
        top = os.path.join(self.root, "overlays", "prod")
        self.overlay(top, "../../base", docs, pre)
        return top
