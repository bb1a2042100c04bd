"""git-recover: history surgery on a generated repository.

Level 1: revert one bad commit without rewriting history. Level 2: also cherry-pick one commit
of a feature branch (not merge it). Level 3: also recover a commit of a deleted branch (reachable
from no ref: `git fsck` finds it), recreate the branch and cherry-pick it.
"""

from __future__ import annotations

import random

from termrl.tasks.generators._common import WORDS, Family, Instance, render
from termrl.tasks.generators._gitrepo import RepoWriter

TESTS = """
import subprocess

import pytest

OLD_HEAD = @@OLD_HEAD@@
BAD = @@BAD@@
EXPECTED_TREE = @@EXPECTED_TREE@@
HOTFIX = @@HOTFIX@@


def git(*args):
    result = subprocess.run(["git", "-C", "/app/repo", *args], capture_output=True, text=True, timeout=30)
    return result.returncode, result.stdout.strip()


def test_on_main_and_clean():
    assert git("symbolic-ref", "--short", "HEAD") == (0, "main")
    assert git("status", "--porcelain") == (0, "")


def test_history_kept():
    code, _ = git("merge-base", "--is-ancestor", OLD_HEAD, "main")
    assert code == 0, "the old main commit is no longer in main's history (history was rewritten)"
    assert git("rev-list", "--count", "--merges", f"{OLD_HEAD}..main") == (0, "0"), "no merge commits"


def test_bad_commit_reverted():
    code, out = git("log", "--format=%B", f"{OLD_HEAD}..main")
    assert code == 0 and BAD in out, "no commit on top of main reverts the bad commit"


def test_files_on_main():
    code, out = git("ls-tree", "-r", "--name-only", "main")
    assert code == 0
    assert sorted(out.splitlines()) == sorted(EXPECTED_TREE)


@pytest.mark.parametrize("path", sorted(EXPECTED_TREE))
def test_file_content(path):
    code, out = git("show", f"main:{path}")
    assert code == 0 and out == EXPECTED_TREE[path].strip(), path
"""

HOTFIX_TEST = """

def test_hotfix_branch_recreated():
    assert git("rev-parse", "--verify", "-q", "refs/heads/hotfix") == (0, HOTFIX)
"""

SOLVE_HEAD = """#!/bin/bash
set -euo pipefail
cd /app/repo
bad=$(git log --format=%H -F --grep='BAD_MESSAGE' main)
"""


def _conf(rng: random.Random, name: str) -> str:
    return f"# {name} settings\n{name}.limit = {rng.randint(1, 500)}\n{name}.mode = {rng.choice(WORDS)}\n"


def make(rng: random.Random, difficulty: int) -> Instance:
    names = rng.sample(WORDS, 16)
    files = {f"settings/{n}.conf": _conf(rng, n) for n in names[:6]}
    files["README.md"] = f"# {names[15]} service\n\nSettings live in `settings/`.\n"
    repo = RepoWriter()
    when = rng.randint(1_600_000_000, 1_750_000_000)
    history = [(repo.commit(files, [], "Initial import", when), dict(files))]
    n_commits = rng.randint(4, 6)
    bad_index = rng.randint(1, n_commits - 2)
    bad_message = bad_before = bad_path = ""
    for i in range(1, n_commits + 1):
        # Each commit edits its own file, so revert and cherry-pick apply without conflicts.
        path = f"settings/{names[i - 1]}.conf"
        new = dict(history[-1][1])
        value = rng.randint(501, 9999)
        new[path] = new[path].split("\n")[0] + f"\n{names[i - 1]}.limit = {value}\n" + new[path].split("\n", 2)[2]
        message = f"Set {names[i - 1]}.limit to {value}"
        if i == bad_index:
            bad_message, bad_before, bad_path = message, history[-1][1][path], path
        when += rng.randint(600, 86_400)
        history.append((repo.commit(new, [history[-1][0]], message, when), new))
    old_head, head_files = history[-1]
    expected = dict(head_files)
    expected[bad_path] = bad_before
    refs = {"main": old_head}
    steps = [f"The commit \"{bad_message}\" on `main` broke production. Undo it with a new commit on top of "
             "`main` whose message contains the bad commit's full hash (what `git revert` writes); do not rewrite "
             "or drop any existing commit, and keep every later change."]
    script = SOLVE_HEAD.replace("BAD_MESSAGE", bad_message) + "git revert --no-edit \"$bad\"\n"
    wrong = {"wrong_reset_hard.sh": script.replace('git revert --no-edit "$bad"', 'git reset --hard "$bad^"')}

    if difficulty >= 2:
        base_commit, base_files = history[rng.randint(1, bad_index)]
        branch = f"feature/{names[12]}"
        tip, feat_files, wanted = base_commit, dict(base_files), ""
        for j, word in enumerate(names[9:12]):
            feat_files = {**feat_files, f"handlers/{word}.py": f"def handle_{word}(event):\n    return {j + 1}\n"}
            when += rng.randint(600, 86_400)
            tip = repo.commit(feat_files, [tip], f"Add {word} handler", when)
            if j == 1:
                wanted = f"Add {word} handler"
                expected[f"handlers/{word}.py"] = feat_files[f"handlers/{word}.py"]
        refs[branch] = tip
        steps.append(f"Of the commits on branch `{branch}`, bring only \"{wanted}\" onto `main` as a new commit "
                     "(no merge commit, none of the branch's other changes).")
        pick = f"git cherry-pick \"$(git log --format=%H -F --grep='{wanted}' {branch})\"\n"
        script += pick
        wrong = {"wrong_merge_branch.sh": script.replace(pick, f"git merge --no-edit {branch}\n")}

    hotfix = None
    if difficulty == 3:
        base_commit, base_files = history[rng.randint(bad_index, n_commits - 1)]
        fix_path = f"settings/{names[13]}.conf"
        fix_message = f"Hotfix: cap {names[13]} connections"
        when += rng.randint(600, 86_400)
        expected[fix_path] = _conf(rng, names[13])
        hotfix = repo.commit({**base_files, fix_path: expected[fix_path]}, [base_commit], fix_message, when)
        steps.append(f"A commit titled \"{fix_message}\" was made on a branch `hotfix`, and that branch was "
                     "deleted by mistake before it was merged. Find the commit, recreate branch `hotfix` pointing "
                     "at it, and apply its change to `main` as a new commit.")
        recover = ("lost=$(git fsck --no-reflogs --lost-found 2>/dev/null | awk '/dangling commit/ {print $3}')\n"
                   "git branch hotfix \"$lost\"\ngit cherry-pick \"$lost\"\n")
        script += recover
        wrong = {"wrong_no_hotfix_branch.sh": script.replace('git branch hotfix "$lost"\n', "")}

    instruction = f"""
`/app/repo` is a git repository (your identity is configured). On branch `main`:

{chr(10).join(f"{i + 1}. {s}" for i, s in enumerate(steps))}

Finish on branch `main` with a clean working tree.
"""
    return Instance(
        instruction=instruction,
        files=repo.files("repo", head_files, refs),
        solve=script,
        wrong=wrong,
        tests=render(TESTS + (HOTFIX_TEST if hotfix else ""), old_head=old_head, bad=history[bad_index][0],
                     expected_tree=expected, hotfix=hotfix),
        answer={"old_head": old_head, "bad": history[bad_index][0], "hotfix": hotfix},
    )


FAMILY = Family(
    name="git-recover",
    category="version-control",
    tags=("git", "revert", "cherry-pick"),
    summary="Revert a bad commit, cherry-pick from a branch and recover a lost commit in a generated repo.",
    make=make,
)
