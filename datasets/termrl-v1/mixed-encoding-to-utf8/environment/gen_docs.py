"""Build the legacy document share /srv/docs: texts in mixed encodings, some legacy file names."""
import os

ROOT = b"/srv/docs"


def put(rel: bytes, data: bytes) -> None:
    p = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data)


put(b"readme.txt", "Shared documents\nAll files should be UTF-8 by now.\n".encode())
put(b"finance/budget-2019.csv", "item;cost\r\nCaf\u00e9 supplies;12 \u20ac\r\n\u201cMisc\u201d;3 \u20ac\r\n".encode("cp1252"))
put(b"finance/notes-\xe9t\xe9.txt", "R\u00e9sum\u00e9 des d\u00e9penses\n\u00bd du budget \u00e9t\u00e9\n".encode("latin-1"))
put(b"hr/liste-employ\xe9s.txt", "Jos\u00e9 N\u00fa\u00f1ez\rFran\u00e7ois M\u00fcller\r".encode("latin-1"))
put(b"hr/policy.md", "\ufeff# Policy\r\n\r\nBe nice \u2014 always.\r\n".encode("utf-8"))
put(b"it/servers.txt", "\ufeffname\tos\nweb1\tDebian \u00ab12\u00bb\n".encode("utf-16-le"))
put(b"it/legacy-be.txt", "\ufeffBig endian \u03b1\u03b2\u03b3\r\n".encode("utf-16-be"))
put(b"it/logo.bin", bytes(range(256)) + b"\x00\xff\xfe")
put(b"it/decomposed.txt", "Cafe\u0301 cre\u0300me bru\u0302le\u0301e\n".encode("utf-8"))
put(b"misc/ctrl\x81.txt", "raw \x81\x8d control bytes \u00fc\n".encode("latin-1"))
put("misc/Zu\u0308rich.txt".encode(), "Z\u00fcrich\r\nGen\u00e8ve\n".encode("utf-8"))
os.symlink("../readme.txt", os.path.join(ROOT, b"misc/readme-link.txt"))
for dirpath, dirnames, filenames in os.walk(ROOT):
    for n in filenames:
        p = os.path.join(dirpath, n)
        if not os.path.islink(p):
            os.utime(p, (1546300800, 1546300800))
os.chmod(os.path.join(ROOT, b"finance/budget-2019.csv"), 0o640)
