#!/bin/bash
set -euo pipefail
cd /app/minitmpl
python3 - <<'PY'
import re
def sub(path, old, new, count=1):
    s = open(path).read()
    assert old in s, (path, old)
    s = s.replace(old, new, count)
    open(path, "w").write(s)

# 1. comments must be non-greedy
sub("lexer.py", r'{#.*#})', r'{#.*?#})')
# 2. escape & first
sub("filters.py", '''    return (s.replace("<", "&lt;").replace(">", "&gt;").replace("&", "&amp;")''',
    '''    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")''')
# 3. filters left to right
sub("render.py", "for f in reversed(node.filters):", "for f in node.filters:")
# 4. loop scoping restored after the loop
sub("render.py", '''            for i, item in enumerate(seq):
                ctx[node.var] = item
                ctx["loop"] = {"index": i + 1, "first": i == 0, "last": i == len(seq) - 1}
                render_nodes(node.body, ctx, out)''', '''            saved = {k: ctx[k] for k in (node.var, "loop") if k in ctx}
            for i, item in enumerate(seq):
                ctx[node.var] = item
                ctx["loop"] = {"index": i + 1, "first": i == 0, "last": i == len(seq) - 1}
                render_nodes(node.body, ctx, out)
            for k in (node.var, "loop"):
                ctx.pop(k, None)
            ctx.update(saved)''')
# 5. unclosed blocks
sub("parser.py", "    return root\n", '''    if len(stack) != 1:
        raise TemplateError("unclosed block")
    return root
''')
# 6. a missing name must stay missing through the rest of a dotted path
sub("render.py", """    value = ctx.get(names[0], _MISSING)
    for name in names[1:]:
        if isinstance(value, dict):
            value = value.get(name, _MISSING)
        else:
            value = getattr(value, name, _MISSING)
    return value""", """    value = ctx.get(names[0], _MISSING)
    for name in names[1:]:
        if value is _MISSING:
            return ""
        if isinstance(value, dict):
            value = value.get(name, _MISSING)
        else:
            value = getattr(value, name, _MISSING)
    return "" if value is _MISSING else value""")
sub("render.py", '_MISSING = ""', '_MISSING = object()')
PY
