import json
import os
import subprocess
import textwrap

import pytest


def run(path):
    r = subprocess.run(["python3", "/app/confparse.py", str(path)], capture_output=True, text=True, timeout=30)
    return r


def write(d, name, text):
    p = os.path.join(str(d), name)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(textwrap.dedent(text).lstrip("\n"))
    return p


def ok(path):
    r = run(path)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def fails(path, file, line):
    r = run(path)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"error: {file}:{line}: "), lines[0]


def test_example():
    assert ok("/app/examples/app.conf") == {
        "name": "demo service", "version": 3, "ratio": 0.25, "debug": False,
        "server": {"host": "0.0.0.0", "port": 8080, "banner": "Welcome to demo service v3\n",
                   "tags": ["a", "b", 3, "c"], "limits": {"rps": 120}},
        "tls": {"enabled": True, "cert": "/etc/ssl/demo service.pem"},
    }


def test_scalar_types(tmp_path):
    p = write(tmp_path, "t.conf", r'''
        a = 1_000
        b = -42
        c = -0.5
        d = 1__0
        e = 3.
        f = true   # comment
        g = a#b
        h =
        i = "q # not comment"   # but this is
        j=TRUE
          # indented comment
        k = 12.5_5
        l = hello   world  #c
        ''')
    assert ok(p) == {"a": 1000, "b": -42, "c": -0.5, "d": "1__0", "e": "3.", "f": True, "g": "a#b",
                     "h": "", "i": "q # not comment", "j": "TRUE", "k": 12.55, "l": "hello   world"}


def test_escapes_and_bad_escape(tmp_path):
    p = write(tmp_path, "e.conf", r'''
        s = "tab\there \\ back \"quoted\" nl\n"
        ''')
    assert ok(p) == {"s": 'tab\there \\ back "quoted" nl\n'}
    p2 = write(tmp_path, "e2.conf", '''
        ok = 1

        s = "bad \\q escape"
        ''')
    fails(p2, p2, 3)
    p3 = write(tmp_path, "e3.conf", '''
        s = "unterminated
        ''')
    fails(p3, p3, 1)
    p4 = write(tmp_path, "e4.conf", '''
        s = "x" y
        ''')
    fails(p4, p4, 1)


def test_lists(tmp_path):
    p = write(tmp_path, "l.conf", '''
        [x]
        empty = []
        mixed = [1, -2.5, true , "x,y", ]  # trailing comma
        mixed += [false, 7]
        mixed += "z"
        empty += 3
        ''')
    assert ok(p) == {"x": {"empty": [3], "mixed": [1, -2.5, True, "x,y", False, 7, "z"]}}
    p2 = write(tmp_path, "l2.conf", '''
        a = 1
        a += 2
        ''')
    fails(p2, p2, 2)
    p3 = write(tmp_path, "l3.conf", '''
        a = [1, bare]
        ''')
    fails(p3, p3, 1)
    p4 = write(tmp_path, "l4.conf", '''
        # first
        b += 1
        ''')
    fails(p4, p4, 2)


def test_sections(tmp_path):
    p = write(tmp_path, "s.conf", '''
        top = 1
        [a.b]
        x = 1
        [c]
        y = 2
        [a]
        z = 3
        [a.b]
        x = 9
        w = "${a.b.x}"
        ''')
    assert ok(p) == {"top": 1, "a": {"b": {"x": 9, "w": "9"}, "z": 3}, "c": {"y": 2}}
    p2 = write(tmp_path, "s2.conf", '''
        a = 1
        [b]
        [a.c]
        ''')
    fails(p2, p2, 3)
    p3 = write(tmp_path, "s3.conf", '''
        [ok]
        this line is not valid
        ''')
    fails(p3, p3, 2)


def test_interpolation(tmp_path):
    p = write(tmp_path, "i.conf", '''
        f = 0.1
        g = 2.50
        n = -7
        on = false
        s = "${f}|${g}|${n}|${on}"
        [p]
        path = /home/${p2}
        ''')
    fails(p, p, 7)
    p = write(tmp_path, "i2.conf", '''
        f = 0.1
        g = 2.50
        n = -7
        on = false
        s = "${f}|${g}|${n}|${on}"
        [p]
        root = /srv
        path = ${p.root}/data/${s}
        lst = ["${f}"]
        ''')
    assert ok(p) == {"f": 0.1, "g": 2.5, "n": -7, "on": False, "s": "0.1|2.5|-7|false",
                     "p": {"root": "/srv", "path": "/srv/data/0.1|2.5|-7|false", "lst": ["${f}"]}}
    p3 = write(tmp_path, "i3.conf", '''
        [sec]
        a = 1
        [other]
        b = "${sec}"
        ''')
    fails(p3, p3, 4)


def test_includes(tmp_path):
    main = write(tmp_path, "main.conf", '''
        name = core
        [svc]
        port = 1
        @include "conf.d/extra.conf"
        after = "${db.url}"
        ''')
    write(tmp_path, "conf.d/extra.conf", '''
        top2 = yes
        [db]
        url = pg://${name}
        @include "more/last.conf"
        user = admin
        ''')
    write(tmp_path, "conf.d/more/last.conf", '''
        [db.pool]
        size = 4
        ''')
    assert ok(main) == {"name": "core", "top2": "yes",
                        "svc": {"port": 1, "after": "pg://core"},
                        "db": {"url": "pg://core", "user": "admin", "pool": {"size": 4}}}


def test_include_errors(tmp_path):
    main = write(tmp_path, "m.conf", '''
        a = 1
        @include "sub/b.conf"
        ''')
    b = write(tmp_path, "sub/b.conf", '''
        b = 2

        @include "../m.conf"
        ''')
    fails(main, os.path.join(os.path.dirname(main), "sub/b.conf"), 3)
    main2 = write(tmp_path, "m2.conf", '''
        [x]
        @include "nope.conf"
        ''')
    fails(main2, main2, 2)
    main3 = write(tmp_path, "m3.conf", '''
        @include "sub/bad.conf"
        ''')
    write(tmp_path, "sub/bad.conf", '''
        v = "oops
        ''')
    fails(main3, os.path.join(os.path.dirname(main3), "sub/bad.conf"), 1)
