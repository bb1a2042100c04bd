import random
import shutil
import subprocess
import tempfile

REPO = "/app/repo"
# oldest first
STASHES = [
    "71b1bbfdc68a21c3643c7d57bf55cfb17a034c25",  # WIP on main (staged tonne factor, unstaged test)
    "736289533e3ec05d8f1ee874bfa47df706bea16d",  # On feature/temperature: fahrenheit ... (with untracked file)
    "c5fbf2eb75ad795dadb839915b6d86427656f3f8",  # WIP on main (README)
    "951388235be504f0b6dfcc391c6a5509359a82f5",  # On feature/temperature: export public API
]
NOT_STASHES = [
    "b3ab9fe9693bce58dca4574b7eab65765f1566df",  # amended-away commit "WIP on main: document inches"
    "29f423c38712a8dca48fa617099d356cefd1fac0",  # merge thrown away with reset --hard
    "d6db9057b7c00d2565572f81af8e916d1186f5c6",  # its side-branch commit
    "f6ee8ed7a21b83f9332960eacfc8409c99cde180",  # commit thrown away with reset --hard
]
BRANCHES = {
    "refs/heads/main": "b8cbc18c176e03c1a1d20c98c848be3438602120",
    "refs/heads/feature/temperature": "3b8c45ba1bbf862ef39b6980d37fc7b9c2f76d73",
}


def git(*args, repo=REPO, check=True):
    proc = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc.stdout


def stash_list():
    out = git("stash", "list", "--format=%H%x09%gs")
    return [tuple(line.split("\t", 1)) for line in out.splitlines()]


def copy_repo():
    tmp = tempfile.mkdtemp()
    dst = f"{tmp}/repo"
    shutil.copytree(REPO, dst, symlinks=True)
    return dst


def test_exactly_the_cleared_stashes_newest_first():
    hashes = [h for h, _ in stash_list()]
    assert hashes == list(reversed(STASHES))


def test_no_other_unreachable_commit_stashed():
    hashes = {h for h, _ in stash_list()}
    assert not hashes & set(NOT_STASHES)


def test_original_descriptions():
    entries = stash_list()
    assert len(entries) == len(STASHES)
    for h, msg in entries:
        assert msg == git("log", "-1", "--format=%s", h).strip()
    assert entries[0][1] == "On feature/temperature: export public API"
    assert entries[3][1].startswith("WIP on main: 32ca37e")


def test_apply_index_restores_staged_and_unstaged_parts():
    repo = copy_repo()
    git("checkout", "-q", "main", repo=repo)
    git("stash", "apply", "--index", "stash@{3}", repo=repo)
    staged = git("diff", "--cached", "--name-only", repo=repo).split()
    unstaged = git("diff", "--name-only", repo=repo).split()
    assert staged == ["units/convert.py"], staged
    assert unstaged == ["tests/test_convert.py"], unstaged
    rng = random.Random()
    values = [rng.randint(1, 10_000) / 8 for _ in range(20)]
    code = "from units.convert import convert\nimport sys\nfor v in sys.argv[1:]:\n    print(convert(float(v), 't', 'kg'), convert(float(v) * 1000, 'kg', 't'))\n"
    out = subprocess.run(["python3", "-c", code, *map(str, values)], cwd=repo, capture_output=True, text=True, check=True)
    for v, line in zip(values, out.stdout.splitlines()):
        a, b = map(float, line.split())
        assert abs(a - v * 1000) < 1e-6 and abs(b - v) < 1e-9


def test_untracked_files_come_back():
    repo = copy_repo()
    git("checkout", "-q", "feature/temperature", repo=repo)
    git("stash", "apply", "--index", "stash@{2}", repo=repo)
    status = git("status", "--porcelain", repo=repo)
    assert "?? tests/test_temperature.py" in status.splitlines(), status
    assert " M units/temperature.py" in status.splitlines(), status
    rng = random.Random()
    values = [rng.uniform(-400, 900) for _ in range(20)]
    code = "from units.temperature import f_to_c\nimport sys\nfor v in sys.argv[1:]:\n    print(f_to_c(float(v)))\n"
    out = subprocess.run(["python3", "-c", code, *map(repr, values)], cwd=repo, capture_output=True, text=True, check=True)
    for v, line in zip(values, out.stdout.splitlines()):
        assert abs(float(line) - (v - 32) * 5 / 9) < 1e-9


def test_pop_all_in_order():
    repo = copy_repo()
    git("checkout", "-q", "feature/temperature", repo=repo)
    git("stash", "pop", "--index", repo=repo)  # newest: export public API, fully staged
    assert git("diff", "--cached", "--name-only", repo=repo).split() == ["units/__init__.py"]
    assert "c_to_f" in git("show", ":units/__init__.py", repo=repo)
    git("stash", "-q", repo=repo)  # park it again; the next one is the README stash on main
    git("checkout", "-q", "main", repo=repo)
    git("stash", "pop", "stash@{1}", repo=repo)
    assert "dependency-free" in open(f"{repo}/README.md").read()
    assert len(git("stash", "list", repo=repo).splitlines()) == len(STASHES) - 1


def test_nothing_else_changed():
    for ref, sha in BRANCHES.items():
        assert git("rev-parse", ref).strip() == sha
    assert sorted(git("for-each-ref", "--format=%(refname)", "refs/heads").split()) == sorted(BRANCHES)
    assert git("symbolic-ref", "--short", "HEAD").strip() == "main"
    assert git("status", "--porcelain", "--untracked-files=all") == ""
