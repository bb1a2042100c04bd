import sys

import pytest

sys.path.insert(0, "/app")
import minitmpl  # noqa: E402
from minitmpl import TemplateError, render  # noqa: E402


class Obj:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def test_escaping():
    assert render("{{ x }}", {"x": "<a href=\"q\">Tom & Jerry's</a>"}) == \
        "&lt;a href=&quot;q&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"
    assert render("{{ x | safe }}", {"x": "<b>&amp;</b>"}) == "<b>&amp;</b>"
    assert render("{{ x }}", {"x": "&lt;"}) == "&amp;lt;"
    assert render("[{{ n }}]", {"n": None}) == "[]"


def test_filter_order_and_lookup():
    ctx = {"user": {"name": "  Ada  ", "tags": ["x", "y<z"]}, "o": Obj(title="Dr")}
    assert render("{{ user.name | trim | upper }}|", ctx) == "ADA|"
    assert render("{{ user.name | upper | length }}", ctx) == "7"
    assert render("{{ user.name | trim | length }}", ctx) == "3"
    assert render("{{ user.tags | join }}", ctx) == "x, y&lt;z"
    assert render("{{ o.title | lower }} {{ o.missing | default }} {{ user.nope.deeper }}.", ctx) == "dr - ."
    assert render("{{ 42 }}", {}) == "42"


def test_for_loops_and_scoping():
    ctx = {"item": "outer", "rows": [[1, 2], [3]], "empty": []}
    t = ("{% for r in rows %}{% for item in r %}{{ loop.index }}:{{ item }}{% if loop.last %};{% endif %}"
         "{% endfor %}{{ loop.index }}/{% endfor %}{{ item }}{{ r }}{{ loop.index }}")
    assert render(t, ctx) == "1:12:2;1/1:3;2/outer"
    assert render("{% for x in empty %}A{% else %}none{% endfor %}", ctx) == "none"
    assert render("{% for x in rows %}{% if loop.first %}F{% endif %}{% endfor %}", ctx) == "F"
    assert ctx["item"] == "outer"


def test_if_elif_else_not():
    t = "{% if a %}A{% elif b %}B{% elif not c %}NC{% else %}E{% endif %}"
    assert render(t, {"a": 1}) == "A"
    assert render(t, {"b": [0]}) == "B"
    assert render(t, {"c": ""}) == "NC"
    assert render(t, {"c": "x"}) == "E"


def test_comments_non_greedy():
    t = "a{# one #}b{# two\nlines #}c{{ x }}"
    assert render(t, {"x": 1}) == "abc1"


def test_whitespace_control():
    t = "<ul>\n  {%- for i in xs -%}\n    <li>{{ i }}</li>\n  {%- endfor -%}\n</ul>"
    assert render(t, {"xs": [1, 2]}) == "<ul><li>1</li><li>2</li></ul>"
    assert render("a  {{- x -}}  b", {"x": "X"}) == "aXb"
    assert render("a  {{ x }}  b", {"x": "X"}) == "a  X  b"


def test_errors():
    for t in ["{% if a %}x", "{% for a in b %}", "{% endif %}", "{% bogus %}", "{{ a | nope }}",
              "{% for a in b %}{% endif %}", "{% if a %}{% endfor %}"]:
        with pytest.raises(TemplateError):
            render(t, {"a": 1, "b": []})
    assert issubclass(minitmpl.TemplateError, Exception)
