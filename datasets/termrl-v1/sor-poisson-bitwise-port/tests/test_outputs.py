"""/app/poisson/solve_poisson.py must write byte-identical u.bin and summary.json to the original program
(a copy lives in /tests) on problems generated here, and meet a CPU-time bar on a 200 x 200 plate.

Small problems are compared with the original itself; larger ones with the tests' reference (the
original's code with its sweep in C, ref_sor.c), which is checked against the original in this run."""
import json
import os
import random
import resource
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
import ref_fast  # noqa: E402

PROGRAM = "/app/poisson/solve_poisson.py"
ORIGINAL = "/tests/orig_solve_poisson.py"
RNG = random.Random(int.from_bytes(os.urandom(4), "little"))
CPU_BAR = 4.0       # seconds of CPU for the 200 x 200 plate (the original needs ~30 s)
CPU_KILL = 12       # RLIMIT_CPU for the program under test: a hang guard that load cannot trip


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return ref_fast.build(str(tmp_path_factory.mktemp("ref")))


def problem(nx, ny, *, omega=None, tol=None, max_iter=None, sources=None):
    h = RNG.choice([1.0 / (max(nx, ny) + 1), RNG.uniform(0.003, 0.05)])
    if sources is None:
        sources = [[RNG.uniform(0, (nx + 1) * h), RNG.uniform(0, (ny + 1) * h),
                    RNG.uniform(0.02, 0.2) * (nx + 1) * h, RNG.uniform(-200, 200)]
                   for _ in range(RNG.randint(0, 4))]
    return {"nx": nx, "ny": ny, "h": h,
            "omega": RNG.uniform(1.0, 1.97) if omega is None else omega,
            "tol": 10 ** RNG.uniform(-12, -7) if tol is None else tol,
            "max_iter": RNG.randint(50, 1200) if max_iter is None else max_iter,
            "edges": {k: RNG.choice([0.0, RNG.uniform(-2, 2)]) for k in ("west", "east", "south", "north")},
            "sources": sources}


def _limit():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_KILL, CPU_KILL))


def run(program, path, out):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, program, str(path), str(out)], capture_output=True, text=True,
                       timeout=1800, preexec_fn=_limit)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert r.returncode == 0, f"{program} exited {r.returncode} (CPU limit {CPU_KILL} s): {r.stderr[-2000:]}"
    return cpu


def outputs(out):
    return (out / "summary.json").read_bytes(), (out / "u.bin").read_bytes()


def compare(got, want, spec):
    gs, gu = got
    ws, wu = want
    assert gs == ws, f"summary.json differs for nx={spec['nx']} ny={spec['ny']}:\n{gs.decode()}\nexpected\n{ws.decode()}"
    assert len(gu) == len(wu), "u.bin has the wrong size"
    if gu != wu:
        first = next(k for k in range(0, len(wu), 8) if gu[k:k + 8] != wu[k:k + 8]) // 8
        pytest.fail(f"u.bin differs first at value #{first} (row {first // (spec['nx'] + 2)}, "
                    f"column {first % (spec['nx'] + 2)}) for nx={spec['nx']} ny={spec['ny']}")


def check_against_original(tmp_path, spec, tag):
    path = tmp_path / f"{tag}.json"
    path.write_text(json.dumps(spec))
    run(PROGRAM, path, tmp_path / f"{tag}-got")
    run(ORIGINAL, path, tmp_path / f"{tag}-want")
    compare(outputs(tmp_path / f"{tag}-got"), outputs(tmp_path / f"{tag}-want"), spec)


def check_against_reference(tmp_path, spec, tag, lib):
    path = tmp_path / f"{tag}.json"
    path.write_text(json.dumps(spec))
    cpu = run(PROGRAM, path, tmp_path / f"{tag}-got")
    ref_fast.run(path, tmp_path / f"{tag}-want", lib)
    compare(outputs(tmp_path / f"{tag}-got"), outputs(tmp_path / f"{tag}-want"), spec)
    return cpu


def test_the_shipped_example(tmp_path):
    spec = json.loads(open("/app/poisson/plate.json").read())
    check_against_original(tmp_path, spec, "plate")


def test_random_small_plates(tmp_path):
    for k in range(5):
        check_against_original(tmp_path, problem(RNG.randint(3, 22), RNG.randint(3, 22)), f"p{k}")


def test_degenerate_shapes_and_no_sources(tmp_path):
    for k, (nx, ny) in enumerate([(1, 1), (1, 17), (23, 1), (2, 2)]):
        check_against_original(tmp_path, problem(nx, ny, sources=[] if k % 2 else None), f"d{k}")


def test_iteration_cap_and_plain_gauss_seidel(tmp_path):
    # stops at max_iter before converging; omega = 1 (Gauss-Seidel); max_iter = 0 (no sweep at all)
    check_against_original(tmp_path, problem(24, 19, tol=1e-14, max_iter=RNG.randint(5, 40)), "cap")
    check_against_original(tmp_path, problem(14, 18, omega=1.0, max_iter=300), "gs")
    check_against_original(tmp_path, problem(9, 7, max_iter=0), "zero")


def test_reference_agrees_with_the_original(tmp_path, lib):
    # the tests' own fast reference, used below, must reproduce the original exactly
    spec = problem(RNG.randint(12, 24), RNG.randint(12, 24), max_iter=600)
    path = tmp_path / "self.json"
    path.write_text(json.dumps(spec))
    run(ORIGINAL, path, tmp_path / "self-orig")
    ref_fast.run(path, tmp_path / "self-ref", lib)
    assert outputs(tmp_path / "self-orig") == outputs(tmp_path / "self-ref")


def test_medium_plate(tmp_path, lib):
    spec = problem(RNG.randint(70, 110), RNG.randint(50, 110), omega=RNG.uniform(1.85, 1.97),
                   tol=10 ** RNG.uniform(-10, -8), max_iter=3000)
    check_against_reference(tmp_path, spec, "medium", lib)


def test_production_plate_within_the_cpu_bar(tmp_path, lib):
    sources = [[RNG.uniform(0.1, 0.7), RNG.uniform(0.1, 0.7), RNG.uniform(0.03, 0.12), RNG.uniform(-150, 150)]
               for _ in range(3)]
    spec = problem(200, 200, omega=1.95, tol=1e-10, max_iter=6000, sources=sources)
    spec["h"] = 0.0041
    cpu = check_against_reference(tmp_path, spec, "big", lib)
    assert cpu <= CPU_BAR, f"the 200 x 200 plate took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"
