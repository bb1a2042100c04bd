"""/app/roster/near_dupes.py must write a byte-identical REPORT.txt to the original program (a copy
lives in /tests) on rosters generated here, and meet a CPU-time bar on 10,000 records.

Small rosters are compared with the original itself; the large ones with the tests' fast reference
(ref_fast.py), which is checked against the original here first."""
import os
import random
import resource
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

PROGRAM = os.environ.get("NEAR_DUPES", "/app/roster/near_dupes.py")
ORIGINAL = os.path.join(HERE, "orig_near_dupes.py")
REFERENCE = os.path.join(HERE, "ref_fast.py")
RNG_SEED = 6120
RNG = random.Random(RNG_SEED)
CPU_BAR = 8.0       # seconds of CPU for 10,000 records (the reference ~2 s; the original would take hours)
CPU_KILL = 20       # RLIMIT_CPU for the program under test: a hang guard that load cannot trip
CPU_KILL_OURS = 120  # RLIMIT_CPU for the original and the reference
ENV = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")


def _limit(seconds):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
    return set_limit


def run(program, args, ok=True):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, program, *map(str, args)], capture_output=True, text=True, timeout=1800,
                       preexec_fn=_limit(CPU_KILL if program == PROGRAM else CPU_KILL_OURS), env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if ok:
        assert r.returncode == 0, f"{program} exited {r.returncode} (CPU limit {CPU_KILL} s): {r.stderr[-2000:]}"
    return r, cpu


def against(other, tmp_path, tag, content, opts=()):
    src = tmp_path / f"{tag}.txt"
    src.write_text(content, encoding="utf-8")
    got, want = tmp_path / f"{tag}-got.txt", tmp_path / f"{tag}-want.txt"
    _, cpu = run(PROGRAM, [src, got, *opts])
    run(other, [src, want, *opts])
    g, w = got.read_text(encoding="utf-8"), want.read_text(encoding="utf-8")
    if g != w:
        gl, wl = g.splitlines(), w.splitlines()
        k = next((i for i, (a, b) in enumerate(zip(gl, wl)) if a != b), min(len(gl), len(wl)))
        pytest.fail(f"{tag} {list(opts)}: output differs first at line {k + 1}: got {gl[k:k + 1]}, "
                    f"expected {wl[k:k + 1]} ({len(gl)} lines vs {len(wl)})")
    return w, cpu


def roster_of(names):
    return "".join(f"R{k}\t{name}\n" for k, name in enumerate(names))


def test_random_rosters(tmp_path):
    for k, dist in enumerate([None, 0, 1, 3]):
        opts = [] if dist is None else ["--max-dist", dist]
        out, _ = against(ORIGINAL, tmp_path, f"r{k}", gen.roster(RNG, RNG.randint(150, 220)), opts)
        assert f"pairs {out.count('pair ')}\n" in out


def test_adjacent_swaps_count_once(tmp_path):
    names = []
    for _ in range(60):
        base = gen.person(RNG).replace(" ", "")
        s = base
        for _ in range(RNG.choice([1, 2])):
            i = RNG.randrange(len(s) - 1)
            s = s[:i] + s[i + 1] + s[i] + s[i + 2:]
        names += [base, s]
    RNG.shuffle(names)
    out, _ = against(ORIGINAL, tmp_path, "swaps", roster_of(names))
    assert out.count(" 2\n") >= 10, "expected pairs at distance 2 made of two swaps"


def test_edits_at_the_first_letter(tmp_path):
    names = []
    for _ in range(50):
        base = gen.person(RNG)
        op = RNG.choice(["sub", "del", "ins", "swap"])
        c = RNG.choice(gen.ALPHA)
        edited = {"sub": c + base[1:], "del": base[1:], "ins": c + base, "swap": base[1] + base[0] + base[2:]}[op]
        names += [base, gen.variant(RNG, edited)]
    RNG.shuffle(names)
    against(ORIGINAL, tmp_path, "first", roster_of(names))


def test_unicode_keys(tmp_path):
    names = ["Straße", "STRASSE", "strase", "Σοφία", "ΣΟΦΊΑ", "σοφιας", "Σοφίας", "Zoë\u00a0Ng", "zoe  ng",
             "ZOË NG", "İlkay", "ilkay", "Ilkay", "Müller", "Mueller", "Muller", "Ørsted", "orsted",
             "Łukasz Nowak", "Lukasz Nowak", "łukasz\tnowak", "", "  ", "ng", "NG", "ŋg", "Иван Петров",
             "иван петрова", "Ivan Petrov", "ﬁona", "fiona", "FIONA"]
    names += gen.names(RNG, 60, dup=0.6)
    RNG.shuffle(names)
    for dist in (1, 2):
        out, _ = against(ORIGINAL, tmp_path, f"uni{dist}", roster_of(names), ["--max-dist", dist])
        assert out.endswith("\n") and "groups " in out


def test_small_and_empty_files(tmp_path):
    out, _ = against(ORIGINAL, tmp_path, "empty", "# nothing yet\n\n   \n")
    assert out == "pairs 0\ngroups 0\n"
    against(ORIGINAL, tmp_path, "one", "A1\tJo Ng\n")
    against(ORIGINAL, tmp_path, "same", "a\tJo\nb\tjo\n#c\tjo\nc\tJO \nd\tjoe\n", ["--max-dist", 0])


def test_rejects_bad_input(tmp_path):
    for k, (content, line) in enumerate([("a\tAnn\nb Bob\n", 2), ("a\tAnn\n\tBob\n", 2), ("a\tAnn\nb\tBo\na\tAl\n", 3)]):
        src = tmp_path / f"bad{k}.txt"
        src.write_text(content)
        r, _ = run(PROGRAM, [src, tmp_path / f"bad{k}.out"], ok=False)
        assert r.returncode == 1 and f"{src}:{line}:" in r.stderr, \
            f"{content!r} must be rejected with exit status 1 and a message naming {src}:{line}: got {r.stderr!r}"
    src = tmp_path / "ok.txt"
    src.write_text("a\tAnn\n")
    for opts in (["--max-dist", "4"], ["--max-dist", "x"], ["--max-dist"], []):
        args = [src, tmp_path / "ok.out", *opts] if opts else [src]
        r, _ = run(PROGRAM, args, ok=False)
        assert r.returncode == 2, f"{opts or 'a missing REPORT.txt'} must be rejected with exit status 2"


def test_reference_agrees_with_the_original(tmp_path):
    src = tmp_path / "self.txt"
    src.write_text(gen.roster(RNG, 200, dup=0.6), encoding="utf-8")
    for dist in ("2", "3"):
        a, b = tmp_path / "self-orig.txt", tmp_path / "self-ref.txt"
        run(ORIGINAL, [src, a, "--max-dist", dist])
        run(REFERENCE, [src, b, "--max-dist", dist])
        assert a.read_text(encoding="utf-8") == b.read_text(encoding="utf-8")


@pytest.mark.parametrize("dist", [2, 1])
def test_large_roster_within_the_cpu_bar(tmp_path, dist):
    content = gen.roster(random.Random(RNG_SEED + dist), 10_000, messy=False)
    out, cpu = against(REFERENCE, tmp_path, f"big{dist}", content, ["--max-dist", dist])
    assert out.count("pair ") > 4000
    print(f"CPU time for 10,000 records, --max-dist {dist}: {cpu:.2f} s")
    assert cpu <= CPU_BAR, f"10,000 records with --max-dist {dist} took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"
