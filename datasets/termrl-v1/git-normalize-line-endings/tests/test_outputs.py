import os
import random
import shutil
import subprocess
import tempfile

REPO = "/app/repo"
OLD_MAIN = "1dc54cca9a436b09d6965d6d91ecea439c0ffd50"
TEXT = ["CHANGELOG.md", "Makefile", "README.md", "docs/usage.md", "scripts/build.sh", "scripts/run.bat",
        "scripts/run.sh", "scripts/setup.cmd", "src/tally.py", "src/util.py"]
BINARY = ["data/table.bin", "docs/logo.png", "docs/notes-utf16.txt", "docs/spec.pdf", "fixtures/crlf-input.txt",
          "fixtures/mixed.csv"]
CRLF_FILES = ("scripts/run.bat", "scripts/setup.cmd")


def git(*args, repo=REPO, binary=False, check=True):
    proc = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=not binary)
    if check:
        assert proc.returncode == 0, f"git {' '.join(args)} failed: {proc.stderr}"
    return proc.stdout


def blob(rev, path, repo=REPO):
    return git("cat-file", "blob", f"{rev}:{path}", repo=repo, binary=True)


def only_lf(data):
    return b"\r" not in data


def only_crlf(data):
    return data.count(b"\n") == data.count(b"\r\n") and data.count(b"\r") == data.count(b"\r\n") and b"\n" in data


def clone(config):
    tmp = tempfile.mkdtemp()
    args = ["git"]
    for c in config:
        args += ["-c", c]
    proc = subprocess.run(args + ["clone", "-q", REPO, f"{tmp}/c"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    for c in config:  # keep the settings for later commands in the clone
        key, value = c.split("=", 1)
        git("config", key, value, repo=f"{tmp}/c")
    return tmp, f"{tmp}/c"


def read(path):
    with open(path, "rb") as fh:
        return fh.read()


def test_one_commit_on_top():
    assert git("rev-parse", "main^").strip() == OLD_MAIN
    assert git("rev-list", "--count", "main").strip() == "4"
    changed = set(git("diff", "--name-only", OLD_MAIN, "main").split())
    assert ".gitattributes" in changed
    assert changed <= set(TEXT) | {".gitattributes"}, changed


def test_text_files_stored_with_lf():
    for path in TEXT:
        old = blob(OLD_MAIN, path)
        new = blob("main", path)
        assert new == old.replace(b"\r\n", b"\n"), path
        assert only_lf(new), path


def test_binary_files_untouched_in_repository():
    for path in BINARY:
        assert git("rev-parse", f"main:{path}").strip() == git("rev-parse", f"{OLD_MAIN}:{path}").strip(), path


def test_checkouts_independent_of_user_settings():
    for config in ([], ["core.autocrlf=true"], ["core.autocrlf=input"], ["core.eol=crlf"]):
        tmp, work = clone(config)
        try:
            for path in TEXT:
                data = read(f"{work}/{path}")
                if path in CRLF_FILES:
                    assert only_crlf(data), (config, path, data)
                elif path.endswith(".sh"):
                    assert only_lf(data), (config, path, data)
                elif not config or config == ["core.autocrlf=input"]:
                    assert only_lf(data), (config, path)
            for path in BINARY:
                assert read(f"{work}/{path}") == blob(OLD_MAIN, path), (config, path)
            assert git("status", "--porcelain", repo=work) == "", config
        finally:
            shutil.rmtree(tmp)


def test_rules_apply_to_new_files():
    rng = random.Random()
    tmp, work = clone(["core.autocrlf=false"])
    try:
        tag = rng.randint(1000, 9999)
        lines = [f"line {rng.randint(0, 10 ** 6)}" for _ in range(rng.randint(2, 6))]
        lf_text = ("\n".join(lines) + "\n").encode()
        crlf_text = lf_text.replace(b"\n", b"\r\n")
        new = {
            f"tools/deploy{tag}.bat": (lf_text, "text"),
            f"tools/Install{tag}.cmd": (crlf_text, "text"),
            f"tools/run{tag}.sh": (crlf_text, "text"),
            f"src/mod{tag}.py": (crlf_text, "text"),
            f"docs/page{tag}.md": (crlf_text, "text"),
            f"fixtures/case{tag}/input.txt": (crlf_text, "binary"),
            f"fixtures/expected{tag}.csv": (crlf_text.replace(b"\r\n", b"\n", 1), "binary"),
            f"assets/blob{tag}.bin": (crlf_text, "binary"),
            f"assets/pic{tag}.png": (crlf_text, "binary"),
            f"docs/report{tag}.pdf": (b"%PDF-1.4\r\n\x00\x01\r\nstream\r\n", "binary"),
        }
        for path, (data, _) in new.items():
            os.makedirs(os.path.dirname(f"{work}/{path}"), exist_ok=True)
            with open(f"{work}/{path}", "wb") as fh:
                fh.write(data)
        git("add", "-A", repo=work)
        git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "new files", repo=work)
        for path, (data, kind) in new.items():
            stored = blob("HEAD", path, repo=work)
            if kind == "text":
                assert stored == data.replace(b"\r\n", b"\n"), path
            else:
                assert stored == data, path
        for path, (data, kind) in new.items():
            if kind == "binary" and not path.endswith(".pdf"):
                attrs = git("check-attr", "diff", "text", "--", path, repo=work)
                assert f"{path}: diff: unset" in attrs and f"{path}: text: unset" in attrs, attrs
        # a fresh checkout with autocrlf=true still follows the per-type rules
        shutil.rmtree(f"{work}/tools")
        git("-c", "core.autocrlf=true", "checkout", "--", "tools", repo=work)
        assert only_crlf(read(f"{work}/tools/deploy{tag}.bat"))
        assert only_crlf(read(f"{work}/tools/Install{tag}.cmd"))
        assert only_lf(read(f"{work}/tools/run{tag}.sh"))
    finally:
        shutil.rmtree(tmp)


def test_working_tree_clean_and_converted():
    assert git("symbolic-ref", "--short", "HEAD").strip() == "main"
    assert git("status", "--porcelain", "--untracked-files=all") == ""
    for path in TEXT:
        data = read(f"{REPO}/{path}")
        assert only_crlf(data) if path in CRLF_FILES else only_lf(data), path
    for path in BINARY:
        assert read(f"{REPO}/{path}") == blob(OLD_MAIN, path), path
