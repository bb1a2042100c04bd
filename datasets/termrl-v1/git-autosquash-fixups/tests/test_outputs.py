import os
import subprocess

REPO = "/app/repo"
MAIN = "3a5e886619aa4276c3e8ae4146611cf001a1bc99"
TREES = ["75b5dd9810fa3c8bf09b5ef6aec8add2e0efb8b0",   # tokenizer complete
         "0ad509bb2af1a434cb184f277b47730ec03fe212",   # + parser complete
         "f8f9e11969a3cfb79a949c41f9e2186d34623690"]   # + evaluator (final)


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc


def feature_commits():
    return git("rev-list", "--reverse", "main..feature").stdout.split()


def test_main_unchanged():
    assert git("rev-parse", "main").stdout.strip() == MAIN
    assert git("merge-base", "main", "feature").stdout.strip() == MAIN


def test_three_commits_with_exact_messages():
    commits = feature_commits()
    assert len(commits) == 3
    msgs = [git("log", "-1", "--format=%B", c).stdout.strip() for c in commits]
    assert msgs == ["Add tokenizer", "Add parser", "Add evaluator"]


def test_each_commit_has_its_final_code():
    commits = feature_commits()
    assert [git("rev-parse", c + "^{tree}").stdout.strip() for c in commits] == TREES


def test_behaviour_at_each_step():
    commits = feature_commits()
    tok = git("show", f"{commits[0]}:calc/tokenizer.py").stdout
    ns = {}
    exec(tok, ns)
    assert ns["tokenize"](" 12 + (3*4) ") == ["12", "+", "(", "3", "*", "4", ")"]
    try:
        ns["tokenize"]("1 + x")
    except ValueError:
        pass
    else:
        raise AssertionError("tokenizer must reject bad input after its fixups")
    out = subprocess.run(["python3", "-c", "from calc.evaluate import calc; print(calc('2*(3+4) - 5 '))"],
                         cwd=REPO, capture_output=True, text=True)
    assert out.stdout.strip() == "9"


def test_authorship_kept():
    out = git("log", "--reverse", "--format=%an|%ae|%ad", "--date=iso-strict", "main..feature").stdout.splitlines()
    assert out == [f"Kenji Sato|kenji@example.jp|2025-05-0{d}T10:00:00+00:00" for d in (2, 3, 4)]


def test_clean_state():
    assert git("symbolic-ref", "--short", "HEAD").stdout.strip() == "feature"
    assert git("status", "--porcelain", "--untracked-files=all").stdout == ""
    gd = os.path.join(REPO, ".git")
    assert not os.path.exists(os.path.join(gd, "rebase-merge")) and not os.path.exists(os.path.join(gd, "rebase-apply"))
