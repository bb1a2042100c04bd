"""git-recover: repair a generated repository after several incidents.

A seed draws which incidents happened (1 at level 1, 2 at level 2, 3 at level 3) from a pool, and the
order they are reported in:

- a bad commit named by its message, to revert;
- a bad commit named only by the change it made (its message says nothing: ``git log -S``), to revert;
- two consecutive experimental commits, to revert both;
- one commit of a feature branch, to cherry-pick (not merge);
- a commit of a branch deleted before it was merged (reachable from no ref: ``git fsck``), to recover
  as a branch and apply;
- a file deleted in an earlier commit, to restore as it was just before the deletion.

Each incident brings its own steps to the reference solution and its own plausible mistake.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from termrl.tasks.generators._common import WORDS, Family, Instance, render
from termrl.tasks.generators._gitrepo import RepoWriter

TESTS = """
import subprocess

import pytest

OLD_HEAD = @@OLD_HEAD@@
REVERTED = @@REVERTED@@
EXPECTED_TREE = @@EXPECTED_TREE@@
BRANCHES = @@BRANCHES@@


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


def test_files_on_main():
    code, out = git("ls-tree", "-r", "--name-only", "main")
    assert code == 0
    assert sorted(out.splitlines()) == sorted(EXPECTED_TREE)


@pytest.mark.parametrize("path", sorted(EXPECTED_TREE))
def test_file_content(path):
    code, out = git("show", f"main:{path}")
    assert code == 0 and out == EXPECTED_TREE[path].strip(), path
"""

REVERT_TEST = """

@pytest.mark.parametrize("bad", REVERTED)
def test_revert_recorded(bad):
    code, out = git("log", "--format=%B", f"{OLD_HEAD}..main")
    assert code == 0 and bad in out, "no new commit on main records the revert of " + bad
"""

BRANCH_TEST = """

@pytest.mark.parametrize("name", sorted(BRANCHES))
def test_branch_recreated(name):
    assert git("rev-parse", "--verify", "-q", f"refs/heads/{name}") == (0, BRANCHES[name])
"""


def _conf(rng: random.Random, name: str) -> str:
    return f"# {name} settings\n{name}.limit = {rng.randint(1, 500)}\n{name}.mode = {rng.choice(WORDS)}\n"


@dataclass
class Plan:
    """What the incidents add up to."""

    steps: list[str] = field(default_factory=list)
    reverted: list[str] = field(default_factory=list)
    branches: dict[str, str] = field(default_factory=dict)


INCIDENTS = ("revert-message", "revert-change", "revert-pair", "cherry-pick", "lost-branch", "restore-file")


def make(rng: random.Random, difficulty: int) -> Instance:
    incidents = rng.sample(INCIDENTS, difficulty)
    names = rng.sample(WORDS, 20)
    files = {f"settings/{n}.conf": _conf(rng, n) for n in names[:8]}
    files["README.md"] = f"# {names[19]} service\n\nSettings live in `settings/`.\n"
    repo = RepoWriter()
    when = rng.randint(1_600_000_000, 1_750_000_000)
    history = [(repo.commit(files, [], "Initial import", when), dict(files))]

    # main's history: one commit per settings file (so every repair applies without conflicts); the
    # incidents pick their commits among them.
    n_commits = rng.randint(7, 8)
    kinds = ["edit"] * n_commits
    slots = list(range(1, n_commits - 1))  # never the tip
    roles: dict[str, int] = {}
    if "revert-pair" in incidents:
        roles["revert-pair"] = rng.choice(slots[:-1])
        kinds[roles["revert-pair"] - 1] = kinds[roles["revert-pair"]] = "experiment"
        slots = [s for s in slots if s not in (roles["revert-pair"], roles["revert-pair"] + 1)]
    rng.shuffle(slots)
    for incident, kind in (("revert-message", "edit"), ("revert-change", "quiet"), ("restore-file", "delete")):
        if incident in incidents:
            roles[incident] = slots.pop()
            kinds[roles[incident] - 1] = kind
    messages: dict[int, str] = {}
    before: dict[int, tuple[str, str]] = {}
    for i in range(1, n_commits + 1):
        name = names[i - 1]
        path = f"settings/{name}.conf"
        new = dict(history[-1][1])
        before[i] = (path, new[path])
        if kinds[i - 1] == "delete":
            del new[path]
            message = f"Remove obsolete {name} settings"
        else:
            value = rng.randint(501, 9999)
            new[path] = new[path].split("\n")[0] + f"\n{name}.limit = {value}\n" + new[path].split("\n", 2)[2]
            message = {"edit": f"Set {name}.limit to {value}", "quiet": "Tune settings",
                       "experiment": f"Experiment: {name} limit {value}"}[kinds[i - 1]]
        messages[i] = message
        when += rng.randint(600, 86_400)
        history.append((repo.commit(new, [history[-1][0]], message, when), new))
    old_head, head_files = history[-1]
    expected = dict(head_files)
    refs = {"main": old_head}
    plan = Plan()
    parts: list[tuple[str, list[str], list[str]]] = []  # (wrong script name, right steps, wrong steps)
    rng.shuffle(incidents)

    for incident in incidents:
        if incident == "revert-message":
            i = roles[incident]
            path, old = before[i]
            expected[path] = old
            plan.steps.append(f"The commit \"{messages[i]}\" on `main` broke production. Undo it with a new commit "
                              "on top of `main` whose message contains the bad commit's full hash (what `git revert` "
                              "writes); do not rewrite or drop any existing commit.")
            find = f"bad=$(git log --format=%H -F --grep='{messages[i]}' main)"
            parts.append(("wrong_reset_hard.sh", [find, 'git revert --no-edit "$bad"'],
                          [find, 'git reset --hard "$bad^"']))
            plan.reverted.append(history[i][0])
        elif incident == "revert-change":
            i = roles[incident]
            path, old = before[i]
            name = path.split("/")[1][:-5]
            line = history[i][1][path].split("\n")[1]
            expected[path] = old
            plan.steps.append(f"Someone set `{line}` in `{path}` in a commit with an uninformative message. Find that "
                              "commit and undo it with a new commit whose message contains its full hash (what "
                              "`git revert` writes); do not rewrite history.")
            parts.append(("wrong_edit_instead_of_revert.sh",
                          [f"bad=$(git log --format=%H -S'{line}' main -- {path} | tail -n 1)",
                           'git revert --no-edit "$bad"'],
                          [f"sed -i 's/^{name}.limit = .*/{old.split(chr(10))[1]}/' {path}",
                           f"git commit -qam 'Undo {name} limit'"]))
            plan.reverted.append(history[i][0])
        elif incident == "revert-pair":
            i = roles[incident]
            for k in (i, i + 1):
                path, old = before[k]
                expected[path] = old
                plan.reverted.append(history[k][0])
            plan.steps.append(f"The two consecutive commits \"{messages[i]}\" and \"{messages[i + 1]}\" on `main` "
                              "were an experiment that must be undone: revert both, with new commits whose messages "
                              "contain their full hashes; do not rewrite history.")
            find = [f"first=$(git log --format=%H -F --grep='{messages[i]}' main)",
                    f"second=$(git log --format=%H -F --grep='{messages[i + 1]}' main)"]
            parts.append(("wrong_revert_only_last.sh", find + ['git revert --no-edit "$first^..$second"'],
                          find + ['git revert --no-edit "$second"']))
        elif incident == "cherry-pick":
            base_commit, base_files = history[rng.randint(1, n_commits - 1)]
            branch = f"feature/{names[15]}"
            tip, feat_files, wanted = base_commit, dict(base_files), ""
            for j, word in enumerate(names[12:15]):
                feat_files = {**feat_files, f"handlers/{word}.py": f"def handle_{word}(event):\n    return {j + 1}\n"}
                when += rng.randint(600, 86_400)
                tip = repo.commit(feat_files, [tip], f"Add {word} handler", when)
                if j == 1:
                    wanted = f"Add {word} handler"
                    expected[f"handlers/{word}.py"] = feat_files[f"handlers/{word}.py"]
            refs[branch] = tip
            plan.steps.append(f"Of the commits on branch `{branch}`, bring only \"{wanted}\" onto `main` as a new "
                              "commit (no merge commit, none of the branch's other changes).")
            parts.append(("wrong_merge_branch.sh",
                          [f"git cherry-pick \"$(git log --format=%H -F --grep='{wanted}' {branch})\""],
                          [f"git merge --no-edit {branch}"]))
        elif incident == "lost-branch":
            base_commit, base_files = history[rng.randint(1, n_commits - 1)]
            fix_path = f"settings/{names[16]}.conf"
            fix_message = f"Hotfix: cap {names[16]} connections"
            when += rng.randint(600, 86_400)
            expected[fix_path] = _conf(rng, names[16])
            lost = repo.commit({**base_files, fix_path: expected[fix_path]}, [base_commit], fix_message, when)
            branch = f"hotfix-{names[17]}"
            plan.branches[branch] = lost
            plan.steps.append(f"A commit titled \"{fix_message}\" was made on a branch `{branch}`, and that branch "
                              "was deleted by mistake before it was merged. Find the commit, recreate the branch "
                              "pointing at it, and apply its change to `main` as a new commit.")
            find = "lost=$(git fsck --no-reflogs --lost-found 2>/dev/null | awk '/dangling commit/ {print $3}')"
            parts.append(("wrong_no_branch.sh", [find, f'git branch {branch} "$lost"', 'git cherry-pick "$lost"'],
                          [find, 'git cherry-pick "$lost"']))
        else:  # restore-file
            i = roles[incident]
            path, old = before[i]
            expected[path] = old
            plan.steps.append(f"`{path}` was deleted in an earlier commit but is still needed. Restore it, with the "
                              "content it had just before it was deleted, in a new commit on `main`.")
            find = f"gone=$(git log --format=%H --diff-filter=D -n 1 main -- {path})"
            parts.append(("wrong_restore_from_deleting_commit.sh",
                          [find, f'git checkout "$gone^" -- {path}', f"git commit -qm 'Restore {path}'"],
                          [find, f'git checkout "$gone" -- {path}', f"git commit -qm 'Restore {path}'"]))

    head = "#!/bin/bash\nset -euo pipefail\ncd /app/repo\n"
    script = head + "\n".join(line for _, right, _ in parts for line in right) + "\n"
    wrong = {name: head + "\n".join(line for k, (_, right, bad) in enumerate(parts)
                                    for line in (bad if k == n else right)) + "\n"
             for n, (name, _, _) in enumerate(parts)}
    instruction = f"""
`/app/repo` is a git repository (your identity is configured). Things went wrong on branch `main`; repair
{"it" if len(plan.steps) == 1 else "all of them"}:

{chr(10).join(f"{i + 1}. {s}" for i, s in enumerate(plan.steps))}

Keep every existing commit of `main` (add new commits on top; no merge commits), and finish on branch `main`
with a clean working tree.
"""
    tests = TESTS + (REVERT_TEST if plan.reverted else "") + (BRANCH_TEST if plan.branches else "")
    return Instance(
        instruction=instruction,
        files=repo.files("repo", head_files, refs),
        solve=script,
        wrong=wrong,
        tests=render(tests, old_head=old_head, reverted=plan.reverted, expected_tree=expected,
                     branches=plan.branches),
        answer={"old_head": old_head, "incidents": incidents, "reverted": plan.reverted},
    )


FAMILY = Family(
    name="git-recover",
    category="version-control",
    tags=("git", "revert", "cherry-pick", "fsck", "pickaxe"),
    summary="Repair a generated repository after 1-3 incidents drawn from six kinds (revert by message or by "
            "change, revert a pair, cherry-pick, recover a deleted branch, restore a deleted file).",
    make=make,
)
