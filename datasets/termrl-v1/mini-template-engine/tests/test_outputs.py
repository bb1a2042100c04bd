import json
import subprocess
import sys

import pytest

sys.path.insert(0, "/tests")
from tmpl_ref import TmplError, render_template  # noqa: E402

DATA = {
    "user": {"name": "ada lovelace", "tags": ["math", "a<b & c"], "age": 36, "score": 9.5, "admin": False},
    "items": [{"n": "apple", "p": 3, "tags": []}, {"n": "kiwi", "p": 0, "tags": ["g", "h"]}, {"n": "fig", "p": 12, "tags": ["x"]}],
    "empty": [], "m": {"zeta": 1, "alpha": {"deep": [10, 20]}, "mid": None}, "flag": True, "nil": None,
    "zero": 0, "s": "  padded  ", "one": 1, "t": True,
}

RENDER_CASES = [
    "Hi {{ user.name | title }} ({{ user.age }}, {{ user.score }}, {{ user.admin }})\n",
    "{% for it in items %}\n  {{ loop.index }}/{{ loop.length }} {{ it.n | upper }}{% if loop.first %} first{% endif %}{% if loop.last %} last{% endif %}\n{% endfor %}\ndone\n",
    "    {% if flag %}\n    yes\n    {% else %}\n    no\n    {% endif %}\nend\n",
    "{% for k in m %}[{{ k }}]{% endfor %}|{{ m.alpha.deep.1 }}|{{ m.alpha }}|{{ m.mid }}|",
    "{% for x in empty %}x{% else %}\nnothing\n{% endfor %}\n",
    "{{ missing | default(\"d\") | upper }}/{{ nil | default(5) }}/{{ zero | default(5) }}",
    "{{ user.tags | join(\", \") | escape }}|{{ user.tags | join }}|{{ user.tags | length }}|{{ s | trim }}|{{ s | length }}",
    "a   {{- user.age -}}   b\n  {%- if flag -%}  \n  c  {%- endif %}\n",
    "{# comment #}\nline1\n   {#- trimmed -#}   \nline2\n",
    "x{% raw %}{{ keep }} {% if %}{% endraw %}y\n",
    "{% if user.age == 36 %}A{% elif user.age != 1 %}B{% else %}C{% endif %}"
    "{% if one == true %}D{% endif %}{% if t == true %}E{% endif %}{% if missing == null %}F{% endif %}"
    "{% if missing != 1 %}G{% endif %}{% if not missing %}H{% endif %}{% if not user.age == 36 %}I{% endif %}",
    "{% for a in items %}{% for b in a.tags %}{{ a.n }}{{ loop.index }}{{ b }} {% else %}{{ a.n }}-none {% endfor %}{{ loop.index }};{% endfor %}",
    "{% if flag %}{% endif %}\nkeep\n{% if flag %}{% if flag %}\n{% endif %}{% endif %}!\n",
    "x\n{% if flag %}\n\t{% for i in items %}\n{{ i.p }}\n\t{% endfor %}\n{% endif %}\nz",
    "{% for user in items %}{{ user.n }}{% endfor %}{{ user.age }}|{{ \"lit\" | upper }}|{{ -4 }}|{{ null }}|{{ true }}",
    "{{ user.name | truncate(3) }}|{{ user.name | truncate(100) }}|{{ user.tags | truncate(5) }}",
    "{% if empty %}a{% elif m %}b{% endif %}{% if s %}c{% endif %}{% if zero %}d{% endif %}",
    "  {{ user.age }}  \n{% for i in empty %}{% endfor %}  \n",
]

ERROR_CASES = [
    ("a\nb {{ missing }}\n", 2),
    ("{% if flag %}\nx\n{% for i in items %}\n", 3),
    ("ok\n\n{% endif %}", 3),
    ("{{ user.name | shout }}", 1),
    ("line\n{{ user.name ", 2),
    ("{% for i in user.age %}{% endfor %}", 1),
    ("{% for i in nope %}{% endfor %}", 1),
    ("{{ missing | upper | default(\"x\") }}", 1),
    ("\n\n{% while x %}", 3),
    ("{{ user.age | join(\",\") }}", 1),
    ("{% if flag %}{% else %}{% else %}{% endif %}", 1),
]


def run(tmp_path, src, data=DATA):
    t = tmp_path / "t.tmpl"
    t.write_text(src, encoding="utf-8")
    d = tmp_path / "d.json"
    d.write_text(json.dumps(data))
    return subprocess.run(["python3", "/app/tmpl.py", str(t), str(d)], capture_output=True, timeout=20)


def test_example():
    r = subprocess.run(["python3", "/app/tmpl.py", "/app/example/invoice.tmpl", "/app/example/invoice.json"],
                       capture_output=True, timeout=20)
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode() == open("/app/example/invoice.expected").read()


@pytest.mark.parametrize("idx", range(len(RENDER_CASES)))
def test_render(tmp_path, idx):
    src = RENDER_CASES[idx]
    r = run(tmp_path, src)
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode() == render_template(src, DATA), src


@pytest.mark.parametrize("idx", range(len(ERROR_CASES)))
def test_errors(tmp_path, idx):
    src, line = ERROR_CASES[idx]
    with pytest.raises(TmplError):
        render_template(src, DATA)
    r = run(tmp_path, src)
    assert r.returncode == 1
    assert r.stdout == b""
    err = r.stderr.decode().strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: line {line}: "), err
