import subprocess

import pytest

CASES = {
    'arith': ('\nprint 10 - 3 - 2;\nprint 100 / 7 / 2;\nprint -7 / 2;\nprint -7 % 3;\nprint 7 % -3;\nprint 2 + 3 * 4 - 6 / 2;\nprint 1 - (2 - 3);\nprint 123456789 * 987654321 * 1000;\n', '5\n7\n-4\n2\n-2\n11\n2\n121932631112635269000\n', 0),
    'strings': ('\nlet s = "a\\\\b";\nprint s;\nprint "tab\\there \\"quoted\\"";\nprint "x" + "y" + "z";\nprint "abc" < "abd";\nprint "b" >= "abc";\nprint "line1\\nline2";\n', 'a\\b\ntab\there "quoted"\nxyz\ntrue\ntrue\nline1\nline2\n', 0),
    'logic': ('\nfn boom() { print "boom"; return 1 / 0; }\nprint false && boom();\nprint nil || 5;\nprint 0 && "zero is truthy";\nprint true || boom();\nprint 1 < 2 && 2 < 3;\nprint !nil;\nprint !0;\nprint 1 == 1 && "a" != "b";\nprint 1 == "1";\n', 'false\n5\nzero is truthy\ntrue\ntrue\ntrue\nfalse\ntrue\nfalse\n', 0),
    'closures': ('\nfn make_counter() {\n  let n = 0;\n  fn inc() { n = n + 1; return n; }\n  return inc;\n}\nlet c1 = make_counter();\nlet c2 = make_counter();\nprint c1();\nprint c1();\nprint c2();\nfn adder(x) { fn add(y) { return x + y; } return add; }\nlet add5 = adder(5);\nprint add5(10);\nlet g = 1;\nfn readg() { return g; }\ng = 2;\nprint readg();\n{\n  let local = 40;\n  fn f() { return local + 2; }\n  print f();\n}\n', '1\n2\n1\n15\n2\n42\n', 0),
    'return_in_loop': ('\nfn find(limit) {\n  let i = 0;\n  while (true) {\n    if (i * i > limit) { return i; }\n    i = i + 1;\n  }\n  print "unreachable";\n}\nprint find(50);\nfn nested() {\n  let i = 0;\n  while (i < 10) {\n    let j = 0;\n    while (j < 10) {\n      if (i + j == 7) { return i * 10 + j; }\n      j = j + 1;\n    }\n    i = i + 1;\n  }\n}\nprint nested();\nfn noret() { let x = 1; }\nprint noret();\n', '8\n7\nnil\n', 0),
    'scopes': ('\nlet x = 1;\n{\n  let x = 2;\n  print x;\n  x = 3;\n  print x;\n}\nprint x;\nif (x == 1) { x = 10; } else if (x == 2) { x = 20; } else { x = 30; }\nprint x;\nfn fact(n) { if (n <= 1) { return 1; } return n * fact(n - 1); }\nprint fact(25);\n', '2\n3\n1\n10\n15511210043330985984000000\n', 0),
    'err_div': ('\nprint 1;\nprint 5 / (3 - 3);\nprint 2;\n', '1\n', 1),
    'err_undeclared': ('\nlet a = 1;\nb = 2;\n', '', 1),
    'err_args': ('\nfn f(a, b) { return a; }\nprint f(1);\n', '', 1),
    'err_escape': ('\nprint "bad \\q escape";\n', '', 1),
    'err_types': ('\nprint "a" + 1;\n', '', 1),
}


def run(tmp_path, name, src):
    p = tmp_path / f"{name}.toy"
    p.write_text(src)
    return subprocess.run(["python3", "-m", "toylang", str(p)], cwd="/app", capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", sorted(CASES))
def test_program(tmp_path, name):
    src, out, rc = CASES[name]
    r = run(tmp_path, name, src)
    assert r.stdout == out, r.stderr
    assert r.returncode == rc
    if rc:
        assert r.stderr.startswith("error: ")
    else:
        assert r.stderr == ""


def test_example_fib():
    r = subprocess.run(["python3", "-m", "toylang", "examples/fib.toy"], cwd="/app", capture_output=True, text=True)
    assert r.stdout.split() == ["0", "1", "1", "2", "3", "5", "8", "13", "21", "34"]


def test_deep_loop_and_recursion(tmp_path):
    src = """
fn sum_to(n) { let s = 0; let i = 1; while (i <= n) { s = s + i; i = i + 1; } return s; }
print sum_to(20000);
fn collatz(n) { let steps = 0; while (n != 1) { if (n % 2 == 0) { n = n / 2; } else { n = 3 * n + 1; } steps = steps + 1; } return steps; }
print collatz(27);
fn mk(a) { fn g(b) { fn h(c) { return a - b - c; } return h; } return g; }
print mk(100)(10)(1);
"""
    r = run(tmp_path, "deep", src)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "200010000\n111\n89\n"
