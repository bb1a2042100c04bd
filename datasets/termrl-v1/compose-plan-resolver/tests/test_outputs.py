"""/app/composeplan on compose files and env files generated here; the expected resolution is computed
by the rules of the instruction, written out independently here."""
import copy
import json
import os
import random
import string
import subprocess

import pytest
import yaml

RNG = random.Random(os.urandom(8))
TOOL = "/app/composeplan"


def name(prefix="s"):
    return prefix + "".join(RNG.choice(string.ascii_lowercase) for _ in range(5))


def run(compose: dict, tmp_path, env_file=None, env=None, profiles=(), extra=(), raw=None):
    d = tmp_path / name("stack")
    d.mkdir()
    f = d / "compose.yaml"
    f.write_text(raw if raw is not None else yaml.safe_dump(compose, sort_keys=False))
    if env_file is not None:
        (d / ".env").write_text(env_file)
    args = [TOOL] + [x for p in profiles for x in ("--profile", p)] + list(extra) + [str(f)]
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("CP_")}
    r = subprocess.run(args, capture_output=True, text=True, timeout=60, env={**base_env, **(env or {})}, cwd="/")
    return r


# ---- expected values ----
def interp(s, env):
    out, i = "", 0
    while i < len(s):
        c = s[i]
        if c != "$":
            out += c
            i += 1
            continue
        nxt = s[i + 1:i + 2]
        if nxt == "$":
            out, i = out + "$", i + 2
            continue
        if nxt == "{":
            close = s.find("}", i)
            body = s[i + 2:close] if close > 0 else ""
            j = 0
            while j < len(body) and (body[j].isalnum() or body[j] == "_"):
                j += 1
            var, rest = body[:j], body[j:]
            if close < 0 or not var or var[0].isdigit() or (rest and rest[:2] not in (":-", ":?") and rest[:1] not in ("-", "?")):
                out, i = out + c, i + 1
                continue
            val = env.get(var)
            if rest.startswith(":-"):
                out += rest[2:] if not val else val
            elif rest.startswith("-"):
                out += rest[1:] if val is None else val
            elif rest.startswith(":?") and not val:
                raise LookupError(f"error: {var}: {rest[2:]}")
            elif rest.startswith("?") and val is None:
                raise LookupError(f"error: {var}: {rest[1:]}")
            else:
                out += val or ""
            i = close + 1
            continue
        j = i + 1
        while j < len(s) and (s[j].isalnum() or s[j] == "_") and s[j].isascii():
            j += 1
        var = s[i + 1:j]
        if var and not var[0].isdigit():
            out += env.get(var) or ""
            i = j
        else:
            out, i = out + c, i + 1
    return out


def interp_all(v, env):
    if isinstance(v, dict):
        return {k: interp_all(x, env) for k, x in v.items()}
    if isinstance(v, list):
        return [interp_all(x, env) for x in v]
    return interp(v, env) if isinstance(v, str) else v


def merged(base, own):
    out = copy.deepcopy(base)
    for k, v in own.items():
        if k in ("ports", "volumes") and isinstance(v, list) and isinstance(out.get(k), list):
            out[k] = [x for n, x in enumerate(out[k] + v) if x not in (out[k] + v)[:n]]
        elif isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merged(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def expected(services, env, profiles):
    svcs = interp_all(services, env)
    cache = {}

    def res(n):
        if n not in cache:
            s = dict(svcs[n])
            ext = s.pop("extends", None)
            cache[n] = merged(res(ext["service"]), s) if ext else s
        return cache[n]

    full = {n: res(n) for n in svcs}
    active = {n: copy.deepcopy(s) for n, s in full.items() if not s.get("profiles") or set(s["profiles"]) & set(profiles)}
    for s in active.values():
        if "depends_on" in s:
            deps = s["depends_on"]
            s["depends_on"] = ({d: {"condition": "service_started"} for d in deps} if isinstance(deps, list) else
                               {d: {"condition": (c or {}).get("condition", "service_started")} for d, c in deps.items()})
    order, done = [], set()
    while len(done) < len(active):
        wave = sorted(n for n, s in active.items() if n not in done and set(s.get("depends_on", {})) <= done)
        order.append(wave)
        done |= set(wave)
    return {"services": active, "order": order}


# ---- random stacks ----
def random_env():
    names = [f"CP_{name('V').upper()}" for _ in range(8)]
    file_vals, proc_vals = {}, {}
    for v in names:
        r = RNG.random()
        if r < 0.25:
            file_vals[v] = RNG.choice(["", name("f")])
        elif r < 0.45:
            proc_vals[v] = RNG.choice(["", name("p")])
        elif r < 0.65:
            file_vals[v], proc_vals[v] = name("f"), RNG.choice(["", name("p")])
    lines = ["# generated", ""]
    for k, v in file_vals.items():
        q = RNG.choice(["", "'", '"'])
        lines.append(f"{k}={q}{v}{q}")
    return names, file_vals, proc_vals, "\n".join(lines) + "\n"


def text(names):
    parts = []
    for _ in range(RNG.randint(1, 3)):
        v = RNG.choice(names)
        parts.append(RNG.choice([f"${v}", f"${{{v}}}", f"${{{v}:-d{RNG.randint(0, 9)}}}", f"${{{v}-e{RNG.randint(0, 9)}}}",
                                 "$$HOME", "lit", "/x/", "a$-", "${}x", "5$ "]))
    return "".join(parts)


def random_stack(names, n=8):
    services = {}
    order = [name() for _ in range(n)]
    for i, s in enumerate(order):
        svc = {"image": text(names) + ":1", "environment": {name("K").upper(): text(names) for _ in range(RNG.randint(0, 3))},
               "ports": RNG.sample(["80", "443", "8080:80", "9000", "${CP_NOPE:-7000}"], RNG.randint(0, 3))}
        if RNG.random() < 0.3:
            svc["volumes"] = RNG.sample(["data:/data", "logs:/logs", "./conf:/etc/app:ro"], RNG.randint(1, 2))
        if RNG.random() < 0.3:
            svc["command"] = [name("c") for _ in range(RNG.randint(1, 3))]
        if i and RNG.random() < 0.4:
            svc["extends"] = {"service": RNG.choice(order[:i])}
        if i and RNG.random() < 0.6:
            deps = RNG.sample(order[:i], RNG.randint(1, min(3, i)))
            svc["depends_on"] = deps if RNG.random() < 0.5 else {
                d: (RNG.choice([{"condition": "service_healthy"}, {"condition": "service_completed_successfully"}, {}, None]))
                for d in deps}
        if not RNG.randint(0, 9):
            svc["replicas"] = RNG.randint(1, 4)
        services[s] = svc
    return services


def check(r, want):
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["order"] == want["order"]
    assert set(got["services"]) == set(want["services"])
    for n in want["services"]:
        assert got["services"][n] == want["services"][n], n
    assert r.stdout.strip() == json.dumps(want, indent=2, sort_keys=True)


@pytest.mark.parametrize("round_", range(4))
def test_random_stacks(tmp_path, round_):
    names, file_vals, proc_vals, env_text = random_env()
    services = random_stack(names)
    real = {k: v for k, v in os.environ.items() if not k.startswith("CP_")}
    env = {**file_vals, **real, **proc_vals}
    check(run({"version": "3.9", "services": services}, tmp_path, env_text, proc_vals), expected(services, env, ()))


def test_interpolation_forms(tmp_path):
    v = {k: f"CP_{k}{RNG.randint(0, 999)}" for k in ("SET", "EMPTY", "UNSET", "BOTH", "QUOTED")}
    env_text = f"{v['EMPTY']}=\n{v['BOTH']}=fromfile\n{v['QUOTED']}='quoted value'\n#{v['UNSET']}=no\n"
    proc = {v["SET"]: "setval", v["BOTH"]: "fromenv"}
    svc = {"image": "img", "environment": {
        "A": f"${v['SET']}/${{{v['SET']}}}", "B": f"${{{v['EMPTY']}:-dflt}}|${{{v['EMPTY']}-dflt}}",
        "C": f"${{{v['UNSET']}:-u1}}|${{{v['UNSET']}-u2}}|${v['UNSET']}|", "D": f"${v['BOTH']}", "E": f"${v['QUOTED']}",
        "F": "$$PATH costs 5$ and ${not valid} $1", "G": 8080, "H": True}}
    r = run({"services": {"app": svc}}, tmp_path, env_text, proc)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)["services"]["app"]["environment"]
    assert got == {"A": "setval/setval", "B": "dflt|", "C": "u1|u2||", "D": "fromenv", "E": "quoted value",
                   "F": "$PATH costs 5$ and ${not valid} $1", "G": 8080, "H": True}
    for form, code in ((f"${{{v['EMPTY']}:?must be set}}", 3), (f"${{{v['UNSET']}?gone}}", 3)):
        r = run({"services": {"app": {"image": form}}}, tmp_path, env_text, proc)
        assert r.returncode == code
        var = v["EMPTY"] if "must" in form else v["UNSET"]
        assert r.stderr.strip() == f"error: {var}: {'must be set' if 'must' in form else 'gone'}"
    r = run({"services": {"app": {"image": f"${{{v['EMPTY']}?fine}}x"}}}, tmp_path, env_text, proc)
    assert r.returncode == 0 and json.loads(r.stdout)["services"]["app"]["image"] == "x"
    alt = tmp_path / "alt.env"
    alt.write_text(f"{v['UNSET']}=from-alt\n")
    r = run({"services": {"app": {"image": f"${v['UNSET']}"}}}, tmp_path, env_text, proc, extra=["--env-file", str(alt)])
    assert json.loads(r.stdout)["services"]["app"]["image"] == "from-alt"


def test_extends_merging(tmp_path):
    services = {
        "base": {"image": "b", "ports": ["80", "9000"], "volumes": ["data:/data"], "environment": {"A": "1", "B": "2"},
                 "command": ["run", "base"], "labels": {"tier": {"x": "1", "y": "2"}}},
        "mid": {"extends": {"service": "base"}, "ports": ["9000", "8080"], "environment": {"B": "mid"}, "command": ["mid"],
                "labels": {"tier": {"y": "m"}}},
        "top": {"extends": {"service": "mid"}, "volumes": ["logs:/logs", "data:/data"], "image": "t"},
    }
    check(run({"services": services}, tmp_path), expected(services, {}, ()))
    got = json.loads(run({"services": services}, tmp_path).stdout)["services"]["top"]
    assert got["ports"] == ["80", "9000", "8080"] and got["volumes"] == ["data:/data", "logs:/logs"]
    assert got["labels"] == {"tier": {"x": "1", "y": "m"}} and "extends" not in got
    r = run({"services": {"a": {"extends": {"service": "b"}}, "b": {"extends": {"service": "a"}}}}, tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("error:")
    r = run({"services": {"a": {"extends": {"service": "ghost"}}}}, tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("error:")


def test_profiles_and_dependency_errors(tmp_path):
    services = {"db": {"image": "pg"}, "api": {"image": "api", "depends_on": ["db"]},
                "debug": {"image": "sh", "profiles": ["debug", "ops"], "depends_on": {"api": {"condition": "service_healthy"}}},
                "seed": {"image": "seed", "profiles": ["dev"], "depends_on": ["db"]},
                "admin": {"image": "adm", "profiles": ["ops"], "depends_on": ["debug"]}}
    for profiles in ((), ("ops",), ("dev", "debug"), ("dev", "ops")):
        check(run({"services": services}, tmp_path, profiles=profiles), expected(services, {}, profiles))
    bad = dict(services, api={"image": "api", "depends_on": ["db", "seed"]})
    r = run({"services": bad}, tmp_path)
    assert r.returncode == 2 and r.stderr.strip() == "error: api depends on missing service seed"
    assert run({"services": bad}, tmp_path, profiles=("dev",)).returncode == 0
    r = run({"services": {"a": {"image": "x", "depends_on": ["b"]}, "b": {"image": "y", "depends_on": {"a": {}}}}}, tmp_path)
    assert r.returncode == 2 and r.stderr.strip() == "error: dependency cycle"


def test_example_stack():
    r = subprocess.run([TOOL, "/app/stack/compose.yaml"], capture_output=True, text=True, timeout=60,
                       env={k: v for k, v in os.environ.items() if k not in ("TAG", "REGION", "DB_PASSWORD")})
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["order"] == [["base", "cache", "db"], ["api", "migrate"], ["worker"]]
    assert got["services"]["worker"]["image"] == "registry.local/api:2026.11.3"
    assert got["services"]["worker"]["ports"] == ["9000", "8080:80"]
    assert got["services"]["db"]["environment"]["POSTGRES_PASSWORD"] == "s3cret"
    assert got["services"]["cache"]["command"] == ["redis-server", "--save", "$NEVER"]
    assert got["services"]["api"]["environment"] == {"LOG_LEVEL": "debug", "REGION": "eu-central"}
