#!/bin/bash
set -euo pipefail
cd /app
python3 - <<'PY'
p = "/app/hashmap.c"
s = open(p).read()
s = s.replace("size_t j = hash(old[i].key) & (oldcap - 1);", "size_t j = hash(old[i].key) & (m->cap - 1);")
s = s.replace("""    size_t j = hash(key) & (m->cap - 1);
    while (m->slots[j].state != EMPTY) {
        if (m->slots[j].state == TOMB) break;
        if (!strcmp(m->slots[j].key, key)) { m->slots[j].value = value; return; }
        j = (j + 1) & (m->cap - 1);
    }
    if (m->slots[j].state == EMPTY) m->used++;""", """    long hit = find(m, key);
    if (hit >= 0) { m->slots[hit].value = value; return; }
    size_t j = hash(key) & (m->cap - 1);
    while (m->slots[j].state == FULL) j = (j + 1) & (m->cap - 1);
    if (m->slots[j].state == EMPTY) m->used++;""")
s = s.replace("    m->slots[j].state = EMPTY;\n    m->len--;", "    m->slots[j].state = TOMB;\n    m->len--;")
# find() must be declared before hm_put
s = s.replace("void hm_put(hashmap *m, const char *key, long value) {", "static long find(const hashmap *m, const char *key);\n\nvoid hm_put(hashmap *m, const char *key, long value) {")
open(p, "w").write(s)
PY
make -B wordcount
