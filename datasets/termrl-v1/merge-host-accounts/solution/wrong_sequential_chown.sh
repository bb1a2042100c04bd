#!/bin/bash
# Mistake: the tree is re-owned one mapping at a time (like a loop of `find -uid OLD -exec chown NEW`),
# so an ID that was just assigned gets remapped again by a later pair.
set -euo pipefail
python3 - <<'PY'
src = open("/solution/merge_accounts.py").read()
a = src.index("    def fix(path):")
b = src.index("    return 0\n", a)
src = src[:a] + '''    paths = [tree]
    for dirpath, dirnames, filenames in os.walk(tree):
        paths += [os.path.join(dirpath, n) for n in dirnames + filenames]
    for kind, mp in (("u", umap), ("g", gmap)):
        for old, new in sorted(mp.items()):
            if old == new:
                continue
            for p in paths:
                st = os.lstat(p)
                if (st.st_uid if kind == "u" else st.st_gid) == old:
                    os.lchown(p, new if kind == "u" else -1, new if kind == "g" else -1)
                    if not stat.S_ISLNK(st.st_mode):
                        os.chmod(p, stat.S_IMODE(st.st_mode))
''' + src[b:]
open("/app/merge-accounts", "w").write(src)
PY
chmod +x /app/merge-accounts
/app/merge-accounts /etc /app/oldhost /srv/oldhome
