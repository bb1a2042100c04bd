"""/app/buildplan on build contexts generated here. Scenario tests state the expected statuses by hand;
the randomized test compares against an independent implementation of the instruction (buildplan_ref.py)."""
import json
import os
import random
import shutil
import stat
import subprocess
import sys

import pytest

TOOL = "/app/buildplan"
REF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "buildplan_ref.py")


def run(ctx, *opts, cache=None, tool=TOOL):
    args = [tool] if tool == TOOL else [sys.executable, tool]
    args += list(opts)
    if cache is not None:
        args += ["--cache", str(cache)]
    args.append(str(ctx))
    r = subprocess.run(args, capture_output=True, text=True, timeout=300, cwd="/")
    return r


def ok(ctx, *opts, cache=None):
    r = run(ctx, *opts, cache=cache)
    assert r.returncode == 0, f"exit {r.returncode}: {r.stderr[-800:]}"
    return r.stdout.splitlines()


def statuses(lines):
    """[(label, status, text)] for step lines only."""
    out = []
    for l in lines:
        label, second, rest = l.split(" ", 2)
        if second != "FROM":
            out.append((label, second, rest))
    return out


def status_of(lines, needle):
    hits = [s for (lab, s, t) in statuses(lines) if needle in f"{lab} {t}"]
    assert len(hits) == 1, f"{needle!r} matched {len(hits)} step lines in:\n" + "\n".join(lines)
    return hits[0]


def write(ctx, files):
    for rel, data in files.items():
        p = ctx / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(data)


# ---------------------------------------------------------------- example

def test_example_context(tmp_path):
    ctx = tmp_path / "ctx"
    shutil.copytree("/app/example/ctx", ctx)
    cache = tmp_path / "c.json"
    with open("/app/example/expected.txt") as f:
        expected = f.read().splitlines()
    first = ok(ctx, cache=cache)
    assert first == expected
    again = ok(ctx, cache=cache)
    assert [l.replace(" BUILD ", " CACHED ") for l in expected] == again
    (ctx / "README.md").write_text("# changed\n")
    (ctx / "docs" / "notes.md").write_text("changed\n")
    assert ok(ctx, cache=cache) == again
    (ctx / "app" / "main.py").write_text('print("orders v2")\n')
    third = ok(ctx, cache=cache)
    built = [(lab, t) for lab, s, t in statuses(third) if s == "BUILD"]
    assert built == [
        ("builder", "COPY app ./app"),
        ("builder", 'RUN python -m compileall app && echo "$BUILD_MODE" > app/MODE'),
        ("3", "COPY --from=builder /wheels /wheels"),
        ("3", "COPY --from=builder /srv/app/app ./app"),
        ("3", "RUN pip install /wheels/*.whl"),
    ], "\n".join(third)


# ---------------------------------------------------------------- .dockerignore

def test_dockerignore_exclusions_and_exceptions(tmp_path):
    rng = random.Random(8101)
    ctx = tmp_path / "ctx"
    w = lambda: "".join(rng.choice("abcdefgh") for _ in range(6))
    n1, n2, n3 = w(), w(), w()
    files = {
        "Dockerfile": "FROM alpine:3.19\nWORKDIR /src\nCOPY lib /src/lib\nCOPY . /all\nRUN make\n",
        ".dockerignore": "\n".join([
            "# generated",
            "**/*.log",
            "  build  ",
            "!build/keep.txt",
            "/secrets*",
            "docs/*.md",
            "! docs/README.md",
            "[ab]?.cfg",
            "./tmp//",
            "lib/**/cache",
            "Dockerfile",
            "",
        ]),
        f"lib/{n1}.py": "x = 1\n",
        f"lib/sub/{n2}.log": "log\n",
        f"lib/deep/cache/{n3}.bin": "bin\n",
        "lib/cache.txt": "lib cache\n",
        "build/out.o": "obj\n",
        "build/keep.txt": "keep\n",
        "secrets.env": "TOKEN=1\n",
        "conf/secrets.env": "TOKEN=2\n",
        "docs/guide.md": "guide\n",
        "docs/README.md": "readme\n",
        "docs/api/ref.md": "ref\n",
        "ax.cfg": "a\n",
        "cx.cfg": "c\n",
        "abc.cfg": "abc\n",
        "tmp/scratch": "s\n",
        "main.c": "int main(){}\n",
    }
    write(ctx, files)
    cache = tmp_path / "c.json"
    base = ok(ctx, cache=cache)
    assert [s for _, s, _ in statuses(base)] == ["BUILD"] * 4

    # (file, included in "COPY . /all", selected by "COPY lib /src/lib")
    cases = [
        (f"lib/{n1}.py", True, True),
        (f"lib/sub/{n2}.log", False, False),
        (f"lib/deep/cache/{n3}.bin", False, False),
        ("lib/cache.txt", True, True),
        ("build/out.o", False, False),
        ("build/keep.txt", True, False),
        ("secrets.env", False, False),
        ("conf/secrets.env", True, False),
        ("docs/guide.md", False, False),
        ("docs/README.md", True, False),
        ("docs/api/ref.md", True, False),
        ("ax.cfg", False, False),
        ("cx.cfg", True, False),
        ("abc.cfg", True, False),
        ("tmp/scratch", False, False),
        ("main.c", True, False),
        ("Dockerfile", False, False),
    ]
    for rel, in_all, in_lib in cases:
        p = ctx / rel
        if rel == "Dockerfile":
            p.write_text(p.read_text() + "LABEL touched=1\n")
        else:
            p.write_text(p.read_text() + "changed\n")
        lines = ok(ctx, cache=cache)
        got = (status_of(lines, "COPY . /all") == "BUILD", status_of(lines, "COPY lib /src/lib") == "BUILD")
        # a change under lib/ re-runs "COPY lib", and then everything after it as well
        assert got == (in_all or in_lib, in_lib), f"after changing {rel}: " + "\n".join(lines)
        assert status_of(lines, "RUN make") == ("BUILD" if (in_all or in_lib) else "CACHED")


def test_file_identity_is_content_and_exec_bit(tmp_path):
    ctx = tmp_path / "ctx"
    write(ctx, {
        "Dockerfile": "FROM debian:12\nCOPY bin/ /usr/local/bin/\nCOPY etc/app.conf /etc/app.conf\nRUN true\n",
        "bin/tool": "#!/bin/sh\necho 1\n",
        "bin/helper": "#!/bin/sh\necho 2\n",
        "etc/app.conf": "a=1\n",
        "other.txt": "x\n",
    })
    cache = tmp_path / "c.json"
    ok(ctx, cache=cache)
    tool = ctx / "bin" / "tool"
    # mode bits other than owner-execute, time stamps and unselected files do not matter
    os.chmod(tool, 0o664)
    os.utime(tool, (1_000_000, 1_000_000))
    (ctx / "other.txt").write_text("y\n")
    lines = ok(ctx, cache=cache)
    assert [s for _, s, _ in statuses(lines)] == ["CACHED"] * 3, "\n".join(lines)
    os.chmod(tool, 0o764)
    lines = ok(ctx, cache=cache)
    assert [s for _, s, _ in statuses(lines)] == ["BUILD"] * 3, "\n".join(lines)
    os.chmod(tool, 0o644)  # back to a state seen before: served from the cache
    lines = ok(ctx, cache=cache)
    assert [s for _, s, _ in statuses(lines)] == ["CACHED"] * 3, "\n".join(lines)
    (ctx / "etc" / "app.conf").write_text("a=2\n")
    lines = ok(ctx, cache=cache)
    assert [s for _, s, _ in statuses(lines)] == ["CACHED", "BUILD", "BUILD"], "\n".join(lines)
    (ctx / "etc" / "app.conf").write_text("a=1\n")
    lines = ok(ctx, cache=cache)
    assert [s for _, s, _ in statuses(lines)] == ["CACHED"] * 3, "\n".join(lines)
    # renaming a selected file changes the selection
    (ctx / "bin" / "helper").rename(ctx / "bin" / "helper2")
    lines = ok(ctx, cache=cache)
    assert [s for _, s, _ in statuses(lines)] == ["BUILD"] * 3, "\n".join(lines)


# ---------------------------------------------------------------- variables

DF_ARGS = """\
ARG BASE_TAG=3.19
ARG UNUSED_GLOBAL=1
FROM alpine:${BASE_TAG} AS deps
ARG MIRROR
RUN apk add gcc
COPY req.txt /req.txt
RUN echo installing

FROM alpine:${BASE_TAG} AS app
ARG BASE_TAG
ENV MODE=prod
COPY src /src
USER nobody
COPY extra /extra
RUN ./build.sh
"""


def _arg_ctx(tmp_path):
    ctx = tmp_path / "ctx"
    write(ctx, {"Dockerfile": DF_ARGS, "req.txt": "r\n", "src/a.c": "a\n", "extra/e": "e\n", "build.sh": "b\n"})
    return ctx


def test_arg_scope_and_run_inputs(tmp_path):
    ctx = _arg_ctx(tmp_path)
    cache = tmp_path / "c.json"
    first = ok(ctx, "--target", "DEPS", cache=cache)
    assert first == ["deps FROM alpine:3.19", "deps BUILD RUN apk add gcc",
                     "deps BUILD COPY req.txt /req.txt", "deps BUILD RUN echo installing"]
    ok(ctx, cache=cache)  # build the last stage too
    # MIRROR is declared in deps: every RUN of deps re-runs although none mentions it
    lines = ok(ctx, "--target", "deps", "--build-arg", "MIRROR=http://m", cache=cache)
    assert [s for _, s, _ in statuses(lines)] == ["BUILD", "BUILD", "BUILD"]
    # a build-arg nobody declares changes nothing; a global one used by no stage neither
    lines = ok(ctx, "--build-arg", "NOPE=1", "--build-arg", "UNUSED_GLOBAL=7", cache=cache)
    assert lines[0] == "app FROM alpine:3.19"
    assert [s for _, s, _ in statuses(lines)] == ["CACHED"] * 3
    # the global BASE_TAG changes the image of both stages
    lines = ok(ctx, "--build-arg", "BASE_TAG=3.20", cache=cache)
    assert lines[0] == "app FROM alpine:3.20"
    assert [s for _, s, _ in statuses(lines)] == ["BUILD"] * 3
    # repeated --build-arg: the last wins
    lines = ok(ctx, "--build-arg", "BASE_TAG=3.20", "--build-arg", "BASE_TAG=3.19", cache=cache)
    assert lines[0] == "app FROM alpine:3.19" and [s for _, s, _ in statuses(lines)] == ["CACHED"] * 3
    # ENV and USER changes reach RUN steps only
    df = DF_ARGS.replace("ENV MODE=prod", "ENV MODE=dev").replace("USER nobody", "USER app")
    (ctx / "Dockerfile").write_text(df)
    lines = ok(ctx, cache=cache)
    assert statuses(lines) == [("app", "CACHED", "COPY src /src"), ("app", "CACHED", "COPY extra /extra"),
                               ("app", "BUILD", "RUN ./build.sh")]
    # ...but COPY . sees the edited Dockerfile, which is a context file like any other
    df2 = df.replace("COPY extra /extra", "COPY . /extra")
    (ctx / "Dockerfile").write_text(df2)
    ok(ctx, cache=cache)
    (ctx / "Dockerfile").write_text(df2.replace("ENV MODE=dev", "ENV MODE=test"))
    lines = ok(ctx, cache=cache)
    assert statuses(lines) == [("app", "CACHED", "COPY src /src"), ("app", "BUILD", "COPY . /extra"),
                               ("app", "BUILD", "RUN ./build.sh")]


def test_substitution_and_printed_text(tmp_path):
    ctx = tmp_path / "ctx"
    df = "\n".join([
        "ARG REG=registry.local:5000",
        "ARG TAG",
        "from ${REG}/base:${TAG:-latest}   as   First",
        "ENV A=one B=two",
        'ENV A=uno B=$A C="${A} and ${B}" D=${EMPTY:-fallback} E=${A:+set} F=${NOPE:+x}',
        "ARG DIR=/opt/${C}",
        "ARG EMPTY",
        "workdir ${DIR}/x/../y",
        "WORKDIR sub//dir/.",
        "COPY --chown=${B}:$A   f1  \\",
        "     # a comment inside the instruction",
        "     ${E}.txt   ./$D/\\$HOME/",
        "RUN   echo $A   ${B} \\",
        "   && echo done",
        "RUN [\"sh\", \"-c\",   \"echo $C\"]",
        "LABEL x=$A",
        "",
    ])
    write(ctx, {"Dockerfile": df, "f1": "1\n", "set.txt": "s\n"})
    lines = ok(ctx)
    assert lines == [
        "first FROM registry.local:5000/base:latest",
        "first BUILD WORKDIR /opt/one and two/x/../y",
        "first BUILD WORKDIR sub//dir/.",
        "first BUILD COPY --chown=one:uno f1 set.txt ./fallback/$HOME/",
        "first BUILD RUN echo $A ${B} && echo done",
        'first BUILD RUN ["sh", "-c", "echo $C"]',
    ]
    lines = ok(ctx, "--build-arg", "TAG=9", "--build-arg", "EMPTY=", "--build-arg", "DIR=/d")
    assert lines[0] == "first FROM registry.local:5000/base:9"
    assert lines[1] == "first BUILD WORKDIR /d/x/../y"


def test_workdir_resolution_feeds_keys(tmp_path):
    ctx = tmp_path / "ctx"
    write(ctx, {"Dockerfile": "FROM x\nWORKDIR /a\nWORKDIR b/../c\nRUN pwd\n"})
    cache = tmp_path / "c.json"
    ok(ctx, cache=cache)
    # the same resolved directories, spelled differently: the WORKDIR keys use the resolved path
    (ctx / "Dockerfile").write_text("FROM x\nWORKDIR /a/\nWORKDIR /a/c\nRUN pwd\n")
    lines = ok(ctx, cache=cache)
    assert [s for _, s, _ in statuses(lines)] == ["CACHED", "CACHED", "CACHED"], "\n".join(lines)


# ---------------------------------------------------------------- stages

def test_stage_graph_target_and_propagation(tmp_path):
    ctx = tmp_path / "ctx"
    df = """\
FROM golang:1.22 AS gen
COPY proto /proto
RUN protoc /proto/*.proto

FROM golang:1.22 AS Build
COPY go.mod ./
RUN go mod download
COPY --from=gen /out /gen
COPY cmd ./cmd
RUN go build ./cmd/...

FROM scratch AS broken
COPY does-not-exist /x

FROM golang:1.22 AS twin
COPY proto /proto
RUN protoc /proto/*.proto
ENV CHANGED_ONLY_CONFIG=1

FROM twin AS lint
RUN golint

FROM debian:12
COPY --from=1 /bin/app /app
COPY --from=busybox:1.36 /bin/sh /sh
COPY --from=LINT /report /report
"""
    write(ctx, {"Dockerfile": df, "proto/a.proto": "p\n", "go.mod": "m\n", "cmd/main.go": "package main\n"})
    cache = tmp_path / "c.json"
    lines = ok(ctx, cache=cache)
    # "broken" is not needed, so its missing COPY source is no error; "twin" repeats "gen" within the run
    assert lines == [
        "gen FROM golang:1.22",
        "gen BUILD COPY proto /proto",
        "gen BUILD RUN protoc /proto/*.proto",
        "build FROM golang:1.22",
        "build BUILD COPY go.mod ./",
        "build BUILD RUN go mod download",
        "build BUILD COPY --from=gen /out /gen",
        "build BUILD COPY cmd ./cmd",
        "build BUILD RUN go build ./cmd/...",
        "twin FROM golang:1.22",
        "twin CACHED COPY proto /proto",
        "twin CACHED RUN protoc /proto/*.proto",
        "lint FROM twin",
        "lint BUILD RUN golint",
        "5 FROM debian:12",
        "5 BUILD COPY --from=1 /bin/app /app",
        "5 BUILD COPY --from=busybox:1.36 /bin/sh /sh",
        "5 BUILD COPY --from=LINT /report /report",
    ]
    lines = ok(ctx, "--target", "lint", cache=cache)
    assert lines == ["twin FROM golang:1.22", "twin CACHED COPY proto /proto",
                     "twin CACHED RUN protoc /proto/*.proto", "lint FROM twin", "lint CACHED RUN golint"]
    # a change in gen reaches build through COPY --from, and the final stage through --from=1
    (ctx / "proto" / "a.proto").write_text("p2\n")
    lines = ok(ctx, cache=cache)
    st = {(lab, t): s for lab, s, t in statuses(lines)}
    assert st[("build", "COPY go.mod ./")] == "CACHED"
    assert st[("build", "RUN go mod download")] == "CACHED"
    assert st[("build", "COPY --from=gen /out /gen")] == "BUILD"
    assert st[("build", "RUN go build ./cmd/...")] == "BUILD"
    assert st[("5", "COPY --from=1 /bin/app /app")] == "BUILD"
    assert st[("5", "COPY --from=busybox:1.36 /bin/sh /sh")] == "BUILD"
    assert st[("lint", "RUN golint")] == "BUILD"
    # a config-only change in twin reaches lint's RUN (inherited ENV) but not twin's own steps
    (ctx / "proto" / "a.proto").write_text("p\n")
    ok(ctx, cache=cache)
    (ctx / "Dockerfile").write_text(df.replace("CHANGED_ONLY_CONFIG=1", "CHANGED_ONLY_CONFIG=2"))
    lines = ok(ctx, "--target", "lint", cache=cache)
    assert [s for _, s, _ in statuses(lines)] == ["CACHED", "CACHED", "BUILD"], "\n".join(lines)


def test_errors_print_nothing_and_keep_cache(tmp_path):
    ctx = tmp_path / "ctx"
    good = "FROM a AS one\nCOPY f /f\nRUN x\nFROM one\nRUN y\n"
    write(ctx, {"Dockerfile": good, "f": "1\n"})
    cache = tmp_path / "c.json"
    ok(ctx, cache=cache)
    snapshot = cache.read_bytes()
    (ctx / "f").write_text("2\n")
    bad_cases = [
        (good, ("--target", "nosuch")),
        (good + "COPY missing /m\n", ()),
        (good + "COPY --link f /x\n", ()),
        (good + "COPY f\n", ()),
        (good + "COPY --from=1 /a /b\n", ()),
        (good + "ADD f /x\n", ()),
        ("RUN early\n" + good, ()),
        (good + "ENV =x\n", ()),
        ("ARG X\n", ()),
    ]
    for text, opts in bad_cases:
        (ctx / "Dockerfile").write_text(text)
        r = run(ctx, *opts, cache=cache)
        assert r.returncode == 1, (text, opts, r.returncode)
        assert r.stdout == "", (text, r.stdout)
        assert cache.read_bytes() == snapshot, "a failed run changed the cache file"
    r = run(tmp_path / "nothere", cache=cache)
    assert r.returncode == 1 and r.stdout == ""
    (ctx / "Dockerfile").write_text(good)
    (ctx / "f").write_text("1\n")
    lines = ok(ctx, cache=cache)
    assert [s for _, s, _ in statuses(lines)] == ["CACHED"] * 3


# ---------------------------------------------------------------- randomized comparison

IMAGES = ["alpine:3.19", "debian:12", "python:3.12-slim", "golang:1.22"]


def random_dockerfile(rng):
    lines = ["ARG GA=g1", "ARG GTAG=3.19"]
    names = []
    nst = rng.randint(2, 4)
    for k in range(nst):
        nm = f"st{k}" if rng.random() < 0.8 else ""
        choices = [rng.choice(IMAGES), "alpine:${GTAG}"] + [n for n in names if n]
        lines.append(f"FROM {rng.choice(choices)}" + (f" AS {nm}" if nm else ""))
        for _ in range(rng.randint(2, 7)):
            r = rng.random()
            if r < 0.12:
                lines.append(rng.choice(["ARG GA", "ARG LA=${GA}-x", "ARG LB", "ARG GTAG"]))
            elif r < 0.24:
                lines.append(rng.choice(["ENV E1=${LA:-none}", "ENV E2=v$GA E1=$E2", 'ENV E3="a b"']))
            elif r < 0.32:
                lines.append(rng.choice(["USER u1", "USER $E1", "LABEL a=b", "EXPOSE 80"]))
            elif r < 0.42:
                lines.append(rng.choice(["WORKDIR /w", "WORKDIR sub", "WORKDIR ${E1:-/x}/../y"]))
            elif r < 0.7:
                src = rng.choice(["src", "src/*.c", "conf", "*.txt", ".", "src/m?.c", "conf/[ab]*"])
                flag = rng.choice(["", "", "--chown=1:1 "])
                lines.append(f"COPY {flag}{src} /dst/")
            elif r < 0.8 and k > 0:
                ref = rng.choice([str(rng.randrange(k))] + [n for n in names if n] + ["busybox:1"])
                lines.append(f"COPY --from={ref} /out /in{k}")
            else:
                lines.append(rng.choice(["RUN make", "RUN echo $E1 && \\\n  make install", "RUN ./t.sh"]))
        names.append(nm)
    return "\n".join(lines) + "\n", [n for n in names if n]


def random_context(rng, ctx):
    files = {
        "src/m1.c": "a", "src/m2.c": "b", "src/lib/x.c": "c", "src/lib/y.h": "d",
        "conf/a.ini": "e", "conf/b.ini": "f", "conf/c.ini": "g", "notes.txt": "h", "todo.txt": "i",
        "build/o.o": "j", "logs/a.log": "k", "src/gen/z.log": "l",
    }
    write(ctx, files)
    pats = ["**/*.log", "build", "!build/keep", "conf/c*", "!conf/c.ini", "*.txt", "!notes.txt", "src/lib"]
    rng.shuffle(pats)
    (ctx / ".dockerignore").write_text("\n".join(pats[: rng.randint(2, len(pats))]) + "\n")
    return sorted(files)


@pytest.mark.parametrize("seed", [5, 17, 26, 34, 75, 83, 104, 108])
def test_random_builds_match_rules(tmp_path, seed):
    rng = random.Random(seed * 7919)
    ctx = tmp_path / "ctx"
    df, names = random_dockerfile(rng)
    rels = random_context(rng, ctx)
    (ctx / "Dockerfile").write_text(df)
    c_tool, c_ref = tmp_path / "tool.json", tmp_path / "ref.json"
    for step in range(10):
        opts = []
        if rng.random() < 0.4:
            opts += ["--build-arg", rng.choice(["GA=g2", "GA=g1", "LA=q", "LB=1", "GTAG=3.20"])]
        if names and rng.random() < 0.3:
            opts += ["--target", rng.choice(names)]
        a = run(ctx, *opts, cache=c_tool)
        b = run(ctx, *opts, cache=c_ref, tool=REF)
        assert a.returncode == b.returncode, (step, opts, df, a.stderr, b.stderr)
        assert a.stdout == b.stdout, f"step {step} opts {opts}\nDockerfile:\n{df}\n" \
            f".dockerignore:\n{(ctx / '.dockerignore').read_text()}\nexpected:\n{b.stdout}\ngot:\n{a.stdout}"
        m = rng.random()
        rel = rng.choice(rels)
        if m < 0.5:
            (ctx / rel).write_text(rng.choice("xyz"))
        elif m < 0.7:
            os.chmod(ctx / rel, rng.choice([0o644, 0o755]))
        elif m < 0.85:
            (ctx / "src/lib" / f"n{step}.c").write_text("new")
        # else: no change
