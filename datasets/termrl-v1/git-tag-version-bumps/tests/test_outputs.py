import subprocess

REPO = "/app/repo"
EXPECTED = {
    "v0.1.0": "Initial version",
    "v0.2.0": "Bump version",
    "v0.2.1": "Fix greeting and release",
    "v1.0.0-rc1": "Release candidate",
    "v1.0.0": "Release 1.0.0",
    "v1.0.1": "Capitalise greeting",
}


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc


def tags():
    return set(git("tag", "-l").stdout.split())


def test_exact_set_of_tags():
    assert tags() == set(EXPECTED) | {"old-marker"}


def test_tags_point_to_version_changes():
    for tag, subject in EXPECTED.items():
        assert git("log", "-1", "--format=%s", f"{tag}^{{commit}}", check=False).stdout.strip() == subject, tag
        version = tag[1:]
        assert git("show", f"{tag}:VERSION", check=False).stdout.strip() == version


def test_annotated_with_message():
    for tag in EXPECTED:
        assert git("cat-file", "-t", tag, check=False).stdout.strip() == "tag", f"{tag} must be annotated"
        msg = git("tag", "-l", "--format=%(contents)", tag).stdout.strip()
        assert msg == f"Release {tag[1:]}"


def test_other_branch_not_tagged_and_refs_unchanged():
    assert "v2.0.0-alpha" not in tags()
    assert git("log", "-1", "--format=%s", "old-marker").stdout.strip() == "Release candidate"
    assert git("cat-file", "-t", "old-marker").stdout.strip() == "commit"
    assert git("log", "-1", "--format=%s", "main").stdout.strip() == "Capitalise greeting"
    assert git("log", "-1", "--format=%s", "experimental").stdout.strip() == "Start 2.0 experiment"
    assert git("rev-list", "--count", "main").stdout.strip() == "12"
