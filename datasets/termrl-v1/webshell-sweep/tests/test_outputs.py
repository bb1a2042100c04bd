"""/app/sweep.py on web roots generated here: every rule in obfuscated variants, planted at random places
among benign files and look-alikes the agent never saw."""
import json
import os
import random
import subprocess
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
SWEEP = "/app/sweep.py"


def word():
    return "".join(RNG.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(RNG.randint(4, 9)))


def case(name):
    return "".join(c.upper() if RNG.random() < 0.4 else c for c in name)


def sp():
    return RNG.choice(["", " ", "  ", "\n    "])


def sg():
    return RNG.choice(["$_GET", "$_POST", "$_REQUEST", "$_COOKIE"]) + f"['{word()}']"


def b64():
    return "".join(RNG.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") for _ in range(24)) + "=="


def eval_decode():
    inner = RNG.choice(["base64_decode", "gzinflate", "gzuncompress", "str_rot13"])
    wrap = RNG.choice(["", "base64_decode"])
    arg = f"{case(wrap)}{sp()}('{b64()}')" if wrap else f"'{b64()}'"
    at = RNG.choice(["", "@"])
    return f"{at}{case('eval')}{sp()}({sp()}{case(inner)}{sp()}({arg}){sp()});"


def request_exec():
    fn = RNG.choice(["system", "exec", "shell_exec", "passthru", "popen", "proc_open", "assert"])
    kind = RNG.randrange(3)
    if kind == 0:
        return f"{RNG.choice(['', '@', 'echo '])}{case(fn)}{sp()}({sg()});"
    if kind == 1:
        return f"$out = {case(fn)}(\"ping -c 1 \" . {sg()}, $rc);"
    return f"$r = `cat /tmp/{word()} {{{sg()}}}`;"


def variable_function():
    fn = RNG.choice(["system", "shell_exec", "passthru", "exec", "popen", "assert"])
    cut = RNG.randint(1, len(fn) - 1)
    q1, q2 = RNG.choice("'\""), RNG.choice("'\"")
    var = word()
    return f"${var} = {q1}{fn[:cut]}{q1}{sp()}.{sp()}{q2}{fn[cut:]}{q2};\nif (true) {{ ${var}({sg()}); }}"


# look-alikes: none of these is a finding
BENIGN_LINES = [
    lambda: f"// removed: eval(base64_decode('{b64()}'));",
    lambda: f"/* old shell: system({sg()}); */",
    lambda: f"# passthru({sg()}) was here",
    lambda: f"$img = base64_decode('{b64()}');",
    lambda: f"echo htmlspecialchars({sg()});",
    lambda: f"$db->exec({sg()});",
    lambda: f"Report::exec({sg()});",
    lambda: f"function system_{word()}($x) {{ return $x; }}",
    lambda: f"echo \"the admin used system({sg()}) once\";",
    lambda: f"$label = 'eval(base64_decode(x))';",
    lambda: f"$f = \"sys\" . \"log\";\n$f('{word()}');",
    lambda: f"$name = 'shell' . '_exec';\necho $name;",
    lambda: f"$decoded = str_rot13({sg()});",
    lambda: f"$url = \"http://{word()}.example/\"; // see docs",
]


def php_file(planted=()):
    lines = ["<?php", f"namespace App\\{word().title()};", ""]
    body = [f() for f in RNG.sample(BENIGN_LINES, RNG.randint(2, 5))] + list(planted)
    RNG.shuffle(body)
    lines += body + [f"function {word()}() {{ return {RNG.randint(1, 99)}; }}", ""]
    return "\n".join(lines)


def build_tree(root: Path):
    """Return the expected findings."""
    expected = set()
    dirs = ["public", f"public/{word()}", "lib", f"lib/{word()}", "admin", f"uploads/{word()}", "uploads", "assets"]
    for d in dirs:
        (root / d).mkdir(parents=True, exist_ok=True)
    ext = lambda: RNG.choice([".php", ".php", ".inc", ".phtml"])  # noqa: E731
    non_upload = [d for d in dirs if not d.startswith("uploads")]
    for _ in range(RNG.randint(6, 10)):
        rel = f"{RNG.choice(non_upload)}/{word()}{ext()}"
        (root / rel).write_text(php_file())
    for rule, make in (("eval-decode", eval_decode), ("request-exec", request_exec),
                       ("variable-function", variable_function)):
        for _ in range(RNG.randint(1, 3)):
            rel = f"{RNG.choice(non_upload)}/{word()}{ext()}"
            (root / rel).write_text(php_file([make()]))
            expected.add((rel, rule))
    both = f"{RNG.choice(non_upload)}/{word()}.php"
    (root / both).write_text(php_file([eval_decode(), request_exec()]))
    expected |= {(both, "eval-decode"), (both, "request-exec")}
    # code in a non-PHP file is not PHP code
    (root / f"assets/{word()}.js").write_text(f"eval(base64_decode('{b64()}')); system({sg()});\n")
    # uploads
    up = [d for d in dirs if d.startswith("uploads")]
    img = f"{RNG.choice(up)}/{word()}.{RNG.choice(['gif', 'jpg', 'png'])}"
    (root / img).write_bytes(b"GIF89a\x01\x00" + bytes(RNG.randrange(256) for _ in range(30)) +
                             RNG.choice([b"<?php", b"<?PHP", b"<?Php"]) + b" echo 1; ?>")
    expected.add((img, "php-in-upload"))
    shell = f"{RNG.choice(up)}/{word()}.{RNG.choice(['phtml', 'phar', 'inc', 'php'])}"
    (root / shell).write_text("just text\n")
    expected.add((shell, "php-in-upload"))
    (root / f"{RNG.choice(up)}/{word()}.txt").write_text("<? not php ?> plain notes\n")
    (root / f"{RNG.choice(up)}/{word()}.png").write_bytes(bytes(RNG.randrange(256) for _ in range(64)).replace(b"<", b"."))
    (root / f"assets/{word()}-uploads.php").write_text("<?php echo 'not in an uploads directory';\n")
    # .htaccess
    bad_ht = f"{RNG.choice(['uploads', 'public', 'assets'])}/.htaccess"
    directive = RNG.choice(["AddType application/x-httpd-php", "addhandler php-script", "AddHandler application/x-httpd-php7"])
    exts = RNG.sample([".jpg", ".png", ".gif", ".txt", ".php"], 2)
    if exts == [".php", ".php"] or all(e == ".php" for e in exts):
        exts = [".jpg"]
    if all(e in (".php", ".phtml") for e in exts):
        exts.append(".gif")
    (root / bad_ht).write_text(f"Options -Indexes\n{directive} {' '.join(exts)}\n")
    expected.add((bad_ht, "htaccess-handler"))
    good_ht = "admin/.htaccess"
    (root / good_ht).write_text("AddType application/x-httpd-php .php .phtml\nAddType text/plain .gif\nAddHandler cgi-script .cgi\n")
    return expected


def sweep(root):
    r = subprocess.run(["python3", SWEEP, str(root)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    data = json.loads(r.stdout)
    assert isinstance(data, list)
    return data


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    out = []
    for _ in range(3):
        root = tmp_path_factory.mktemp("www")
        out.append((root, build_tree(root)))
    return out


def test_output_format_and_order(trees):
    root, _ = trees[0]
    data = sweep(root)
    assert all(set(item) == {"path", "rule"} for item in data)
    assert data == sorted(data, key=lambda f: (f["path"], f["rule"]))


@pytest.mark.parametrize("rule", ["eval-decode", "request-exec", "variable-function", "php-in-upload",
                                  "htaccess-handler"])
def test_rule_found_exactly(trees, rule):
    for root, expected in trees:
        got = {(f["path"], f["rule"]) for f in sweep(root) if f["rule"] == rule}
        want = {e for e in expected if e[1] == rule}
        assert got - want == set(), f"false positives for {rule}: {sorted(got - want)}"
        assert want - got == set(), f"missed {rule}: {sorted(want - got)}"


def test_no_unknown_rules_and_no_duplicates(trees):
    for root, expected in trees:
        data = sweep(root)
        pairs = [(f["path"], f["rule"]) for f in data]
        assert len(pairs) == len(set(pairs))
        assert set(pairs) == expected


def test_symlinks_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "evil.php").write_text("<?php eval(base64_decode('aGk='));\n")
    root = tmp_path / "root"
    (root / "public").mkdir(parents=True)
    (root / "public" / "ok.php").write_text("<?php echo 1;\n")
    os.symlink(outside, root / "public" / "linked")
    os.symlink(outside / "evil.php", root / "public" / "alias.php")
    assert sweep(root) == []


INCIDENT = {'admin/tools.php': '480ac54b4fd2bb3531199dbf5fdd9c1ef46065b038b5002c5ad489a8eb24619e', 'lib/cache.php': 'afe9f9894c7116b8a7093fba4d5072bc49544e5416112f9d41dccafb55ee90b4', 'lib/db.php': 'e8500b67bfc49b3bd251af12181967b47beb4e8fae0101efb631ca98ffc01705', 'public/.htaccess': 'cbfab2ec3fed6632f490890ae3bdefebe640473d1f09f7faf59ca99a29d8e71f', 'public/assets/thumb.php': '3e5d73aa7a4192d1c4f135dba1c6068a0e7fe0bba40e386754538a07ccacd9e5', 'public/index.php': '9489dba3aa48e48b7300262a2715adb0c0447bf265e732f8e425dbaea9fb5ea0', 'uploads/.htaccess': 'c629a42340dee5668a9fe79d1ec8ec2da68deaf1d16dd19540d5844b569112eb', 'uploads/2024/03/avatar.gif': '2e4331ceeb6861fc0abd3edb355b5763ea5148b365485437be9940f1d220316a', 'uploads/2024/03/notes.txt': 'b819a8ac5cf232f164449166602837f4b60a6606ef577cfc1c0ff67b49337869'}


def test_incident_root_untouched_and_swept():
    import hashlib
    for rel, digest in INCIDENT.items():
        assert hashlib.sha256(Path("/srv/www", rel).read_bytes()).hexdigest() == digest, f"/srv/www/{rel} changed"
    found = {(f["path"], f["rule"]) for f in sweep("/srv/www")}
    assert {r for _, r in found} == {"eval-decode", "request-exec", "variable-function", "php-in-upload",
                                     "htaccess-handler"}
    assert ("public/index.php", "eval-decode") not in found
