"""/app/dflint on Dockerfiles generated here (rule cases, continuations, comments, escape directives),
compared with the expected findings; a few hand-checked files pin the reading rules."""
import os
import random
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import dflint_ref  # noqa: E402

TOOL = "/app/dflint"
RNG = random.Random(os.urandom(8))


def run(path, *extra):
    return subprocess.run([TOOL, str(path), *extra], capture_output=True, text=True, timeout=60)


def check(tmp_path, text, expected=None, name="Dockerfile"):
    p = tmp_path / name
    p.write_text(text)
    want = dflint_ref.lint(text) if expected is None else expected
    r = run(p)
    got = r.stdout
    exp = "".join(f"{ln}:{rule}\n" for ln, rule in want)
    assert got == exp, f"Dockerfile:\n{text}\n--- expected\n{exp}--- got\n{got}{r.stderr}"
    assert r.returncode == (1 if want else 0), f"exit {r.returncode}\n{text}"


# ---------------------------------------------------------------- generator
STAGE_NAMES = ["build", "deps", "test", "runtime", "Builder", "assets"]


def render(words_chunks, esc, cont_p=0.4):
    """chunks of one instruction -> lines, with continuations and comments inside"""
    lines = [words_chunks[0]]
    for ch in words_chunks[1:]:
        if RNG.random() < cont_p:
            lines[-1] += " " + esc + RNG.choice(["", " ", "  \t"])
            if RNG.random() < 0.3:
                lines.append(RNG.choice(["# " + RNG.choice(["note", "deps", "clean up"]), "    # indented comment", ""]))
            lines.append(RNG.choice(["    ", "  ", "\t"]) + ch)
        else:
            lines[-1] += " " + ch
    return lines


def kw(k):
    return k.lower() if RNG.random() < 0.15 else k


def gen_apt():
    inst = RNG.choice(["apt-get install -y curl", "apt-get install curl", "apt-get -qy install git",
                       "apt-get install --no-install-recommends --yes make", "apt-get install -q gcc",
                       "apt-get -o Dpkg::Options::=--force-confnew install -y vim",
                       "apt-get install --assume-yes jq", "apt-get -yq install tar"])
    rm = RNG.choice(["rm -rf /var/lib/apt/lists/*", "rm -fr /var/lib/apt/lists", "rm -r -f /var/lib/apt/lists/*",
                     "rm -r /var/lib/apt/lists/*", "rm -rf /tmp/*", "apt-get clean"])
    seq = ["apt-get update", inst]
    r = RNG.random()
    if r < 0.6:
        seq.append(rm)
    elif r < 0.8:
        seq.insert(0, rm)
    if RNG.random() < 0.3:
        seq.insert(RNG.randrange(len(seq) + 1), "echo done")
    chunks = []
    for i, c in enumerate(seq):
        chunks.append(c + ("" if i == len(seq) - 1 else " " + RNG.choice(["&&", ";", "&&", "||"])))
    flags = [RNG.choice(["--mount=type=cache,target=/var/cache/apt", "--network=none"])] if RNG.random() < 0.2 else []
    if RNG.random() < 0.1:
        return [kw("RUN") + ' ["apt-get", "install", "curl"]']
    return [kw("RUN") + " " + " ".join(flags + [chunks[0]])] + chunks[1:]


def gen_from(stages, gargs, idx):
    img = RNG.choice(["alpine:3.19", "alpine", "alpine:latest", "debian:bookworm-slim", "localhost:5000/team/app",
                      "localhost:5000/team/app:1.2", "ghcr.io/org/img@sha256:" + "ab" * 32, "registry:5000/x:latest",
                      "scratch", "python:3.12-slim", "${BASE}:1", "$REG/app:${TAG}", "${BASE}", "${UNDECLARED}:2",
                      "busybox:${TAG}", "Library/ubuntu"])
    earlier = [s for s in stages[:idx] if s]
    if earlier and RNG.random() < 0.25:
        img = RNG.choice(earlier).upper() if RNG.random() < 0.3 else RNG.choice(earlier)
    plat = ["--platform=linux/amd64"] if RNG.random() < 0.2 else []
    name = stages[idx]
    tail = [RNG.choice(["AS", "as"]), name] if name else []
    return [kw("FROM") + " " + " ".join(plat + [img] + tail)]


def gen_stage_body(stages, idx):
    out = []
    for _ in range(RNG.randint(2, 7)):
        k = RNG.random()
        if k < 0.22:
            out.append(gen_apt())
        elif k < 0.34:
            ref = RNG.choice(["0", "1", "3", "nginx:1.25", "unknown", "ghcr.io/x/y"] + [s for s in stages if s])
            fl = RNG.choice(["--chown=1000:1000 ", "--link ", ""])
            out.append([kw("COPY") + f" {fl}--from={ref}", "/src/out", "/opt/"])
        elif k < 0.44:
            srcs = RNG.sample(["app.py", "conf/", "https://example.com/x.tgz", "vendor.tar.gz", "git@github.com:o/r.git",
                               "data.bin", "rootfs.tar.xz"], RNG.randint(1, 2))
            if RNG.random() < 0.3:
                out.append([kw("ADD") + " " + '["' + '", "'.join(srcs + ["/dst/"]) + '"]'])
            else:
                out.append([kw("ADD") + (" --chown=app" if RNG.random() < 0.3 else "")] + srcs + ["/dst/"])
        elif k < 0.56:
            which = RNG.choice(["CMD", "ENTRYPOINT"])
            form = RNG.choice(['["/app/run", "--port", "80"]', "/app/run --port 80", '[/app/run, --port]',
                               '["/app/run", 80]', '["serve"]'])
            out.append([kw(which) + " " + form])
        elif k < 0.64:
            out.append([kw("WORKDIR") + " " + RNG.choice(["/app", "app", '"/srv/x"', "$HOME/x", '"rel/dir"', "./w"])])
        elif k < 0.72:
            ports = RNG.sample(["80", "53/udp", "8000-8010", "9000-8000", "0", "70000", "80/TCP", "80/http",
                                "$PORT", "abc", "443/tcp", "65535", "1-65536"], RNG.randint(1, 3))
            out.append([kw("EXPOSE")] + ports)
        elif k < 0.78:
            out.append([kw("USER") + " " + RNG.choice(["root", "app", "0:0", "1000", "root:wheel", "rooter"])])
        elif k < 0.84:
            out.append([kw("ENV") + " MODE=prod", "LEVEL=3"])
        elif k < 0.88:
            out.append([kw("LABEL") + ' org.opencontainers.image.title="demo"'])
        elif k < 0.92:
            out.append(["MAINTAINER dev@example.com"])
        elif k < 0.95:
            out.append([RNG.choice(["RUNN make", "COPPY a b", "IMPORT x"])])
        else:
            out.append([kw("HEALTHCHECK") + " CMD", "curl -f http://localhost/", "|| exit 1"])
    return out


def gen_file(esc_mode=None):
    esc_mode = esc_mode or RNG.choice(["none", "syntax", "backtick", "backtick-late", "syntax-backtick"])
    header = {"none": [], "syntax": ["# syntax=docker/dockerfile:1"], "backtick": ["# escape=`"],
              "backtick-late": ["# a comment first", "# escape=`"],
              "syntax-backtick": ["#syntax = docker/dockerfile:1.4", "#  escape = `"]}[esc_mode]
    esc = "`" if esc_mode in ("backtick", "syntax-backtick") else "\\"
    n = RNG.randint(1, 3)
    stages = [RNG.choice(STAGE_NAMES + ["", ""]) for _ in range(n)]
    lines = list(header)
    gargs = {}
    if RNG.random() < 0.7:
        lines.append("ARG BASE=debian")
        gargs["BASE"] = "debian"
    if RNG.random() < 0.5:
        lines.append("ARG TAG=" + RNG.choice(["1.0", "latest"]))
    if RNG.random() < 0.3:
        lines.append("ARG REG=localhost:5000")
    if RNG.random() < 0.3:
        lines.append("ARG UNUSED")
    for i in range(n):
        if RNG.random() < 0.5:
            lines.append("")
        insts = [gen_from(stages, gargs, i)] + gen_stage_body(stages, i)
        for ch in insts:
            if RNG.random() < 0.15:
                lines.append("# " + RNG.choice(["step", "TODO", "RUN not really"]))
            lines.extend(render(ch, esc))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- tests
EXAMPLE = """# syntax=docker/dockerfile:1
ARG BASE_TAG=3.19
FROM alpine:${BASE_TAG} AS build
WORKDIR src
RUN apt-get update && \\
    # the compiler
    apt-get install -y gcc \\
        make
COPY --from=tools /usr/bin/tool /usr/bin/
CMD ["make"]
CMD ["make", "all"]

FROM localhost:5000/runtime
COPY --from=build /src/app /app
ADD config.json /etc/app/
EXPOSE 8080 70000/tcp
ENTRYPOINT /app/run --serve
USER root
"""


def test_example_and_exit_codes(tmp_path):
    check(tmp_path, EXAMPLE, [(4, "workdir-relative"), (5, "apt-lists"), (9, "copy-from"), (10, "multiple-cmd"),
                              (13, "from-latest"), (15, "add-local"), (16, "expose-port"), (17, "entrypoint-shell"),
                              (18, "user-root")])
    clean = ("FROM python:3.12-slim AS base\nWORKDIR /app\nRUN apt-get update && apt-get install -y gcc \\\n"
             " && rm -rf /var/lib/apt/lists/*\nCOPY . .\nUSER app\nCMD [\"python\", \"-m\", \"app\"]\n")
    check(tmp_path, clean, [])
    r = run(tmp_path / "does-not-exist")
    assert r.returncode == 2 and r.stdout == ""
    r = subprocess.run([TOOL], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2


def test_continuations_comments_and_line_numbers(tmp_path):
    text = ("FROM debian:12\n\n# leading comment\nRUN apt-get update \\\n  \n    # comment inside\n"
            "    && apt-get install \\\n       curl\nworkdir \\\n  relative\nRUN echo a \\   \n  && echo b\n"
            "EXPOSE 80 \\\n  99999\n")
    check(tmp_path, text, [(4, "apt-lists"), (4, "apt-yes"), (9, "workdir-relative"), (13, "expose-port")])
    for _ in range(6):
        check(tmp_path, gen_file("none"))


def test_escape_directive(tmp_path):
    text = "# escape=`\nFROM alpine:3 AS a\nWORKDIR `\n  rel\\\nRUN apt-get install -y x && `\n   rm -rf /var/lib/apt/lists/*\n"
    check(tmp_path, text, [(3, "workdir-relative")])
    late = "\n# escape=`\nFROM alpine:3\nWORKDIR `\n"
    check(tmp_path, late, [(4, "workdir-relative")])
    not_first = "# hello\n# escape=`\nFROM alpine:3\nRUN apt-get install x `\n"
    check(tmp_path, not_first, [(4, "apt-lists"), (4, "apt-yes")])
    for mode in ("backtick", "syntax-backtick", "backtick-late"):
        for _ in range(3):
            check(tmp_path, gen_file(mode))


def test_from_rules(tmp_path):
    text = ("ARG BASE=debian\nARG TAG=latest\nFROM ${BASE}:12 AS Build\nFROM localhost:5000/team/app AS deps\n"
            "FROM $BASE:$TAG\nFROM build\nFROM ${NOPE}:1\nFROM ghcr.io/o/i@sha256:" + "ab" * 32 + " AS deps\n"
            "FROM --platform=linux/arm64 reg:5000/x:2.1\nFROM scratch\nFROM alpine\n")
    check(tmp_path, text, [(4, "from-latest"), (5, "from-latest"), (7, "from-undefined-arg"), (8, "duplicate-stage"),
                           (11, "from-latest")])
    for _ in range(5):
        check(tmp_path, gen_file())


def test_copy_add_rules(tmp_path):
    text = ("FROM a:1 AS one\nCOPY --from=two /x /y\nFROM b:1 AS two\nCOPY --from=ONE /x /y\nCOPY --from=0 /x /y\n"
            "COPY --from=1 /x /y\nCOPY --from=two /x /y\nCOPY --from=nginx:1.25 /x /y\nCOPY --chown=1:1 --from=zz /x /y\n"
            "ADD --chown=app a.txt b/ /dst/\nADD [\"site.tar.gz\", \"/srv\"]\nADD https://e.x/f /f\nADD [\"x y\", \"/d\"]\n")
    check(tmp_path, text, [(2, "copy-from"), (6, "copy-from"), (7, "copy-from"), (9, "copy-from"), (10, "add-local"),
                           (13, "add-local")])


def test_apt_rules(tmp_path):
    text = ("FROM d:1\nRUN apt-get update && apt-get -qy install git && rm -fr /var/lib/apt/lists\n"
            "RUN rm -rf /var/lib/apt/lists/* && apt-get install --yes make\n"
            "RUN apt-get install -o Dpkg::Options::=--force-confnew vim; rm -r -f /var/lib/apt/lists/*\n"
            "RUN apt-get -yq install tar || rm -r /var/lib/apt/lists/*\n"
            "RUN [\"apt-get\", \"install\", \"curl\"]\n"
            "RUN --mount=type=cache,target=/var/cache/apt apt-get install --assume-yes jq | tee log; rm -rf /var/lib/apt/lists/x\n"
            "RUN echo apt-get install && apt-get clean\n")
    check(tmp_path, text, [(3, "apt-lists"), (4, "apt-yes"), (5, "apt-lists")])
    for _ in range(6):
        check(tmp_path, gen_file())


def test_cmd_entrypoint_user_rules(tmp_path):
    text = ("FROM a:1 AS x\nCMD [\"a\"]\nENTRYPOINT [\"e\"]\nCMD b\nUSER root\nFROM b:2\nENTRYPOINT e --x\n"
            "ENTRYPOINT [e, f]\nCMD [\"a\", 1]\nENTRYPOINT [\"ok\"]\nUSER 0:0\nUSER app\nMAINTAINER me\nRUNN x\n")
    check(tmp_path, text, [(2, "multiple-cmd"), (7, "entrypoint-shell"), (7, "multiple-entrypoint"),
                           (8, "json-invalid"), (8, "multiple-entrypoint"), (9, "json-invalid"), (13, "maintainer"),
                           (14, "unknown-instruction")])
    check(tmp_path, "FROM a:1\nUSER app\nFROM b:1\nUSER 0\nEXPOSE 1-65535 9/UDP $P\n", [(4, "user-root")])


def test_random_files(tmp_path):
    for i in range(14):
        check(tmp_path, gen_file(), name=f"Dockerfile.{i}")
