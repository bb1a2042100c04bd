import subprocess

REPO = "/app/repo"
# The tip of main before the task (fixed author and dates make it the same in every build).
ORIGINAL_MAIN = "2be6771003f294983db995f7a88d4ad56bc2c8a6"

MIGRATION = """# Migrating from 1.0 to 2.0

1. Stop the service.
2. Back up `inventory.db`.
3. Set `database_url` in `config.json`; the old `DB_PATH` variable is ignored.
4. Run `python -m src.migrate --from 1.0 --to 2.0`.
5. Start the service and check that `/health` reports `schema: 2`.
"""

CHANGELOG = """# Changelog

- 1.0.0: first release
- 2.0.0: configurable database URL (see docs/MIGRATION.md)
"""


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc


def test_migration_guide_committed_on_main():
    assert git("show", "main:docs/MIGRATION.md", check=False).stdout == MIGRATION


def test_changelog_entry_committed_on_main():
    assert git("show", "main:CHANGELOG.md", check=False).stdout == CHANGELOG


def test_existing_history_kept():
    assert git("merge-base", "--is-ancestor", ORIGINAL_MAIN, "main", check=False).returncode == 0, \
        "the commits that were on main must still be its ancestors"
    assert git("rev-parse", "main").stdout.strip() != ORIGINAL_MAIN, "no new commit on main"
    readme = git("show", "main:README.md").stdout
    assert "stock levels across" in readme


def test_main_checked_out_and_clean():
    assert git("symbolic-ref", "--short", "HEAD").stdout.strip() == "main"
    assert git("status", "--porcelain", "--untracked-files=all").stdout == ""
    with open(f"{REPO}/docs/MIGRATION.md") as fh:
        assert fh.read() == MIGRATION
