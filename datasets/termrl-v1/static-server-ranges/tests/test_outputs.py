import email.utils
import http.client
import os
import signal
import socket
import subprocess
import time

import pytest

BLOB = bytes((i * 7 + 3) % 256 for i in range(5000))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    base = tmp_path_factory.mktemp("w")
    root = base / "root"
    (root / "sub dir").mkdir(parents=True)
    (root / "noindex").mkdir()
    (root / "index.html").write_text("<p>home</p>\n")
    (root / "sub dir" / "index.html").write_text("<p>sub</p>\n")
    (root / "blob.bin").write_bytes(BLOB)
    (root / "style.css").write_text("p{}\n")
    (root / "data.json").write_text("{}\n")
    (root / "a b.txt").write_text("spaced\n")
    (base / "outside.txt").write_text("TOP SECRET\n")
    os.symlink("../outside.txt", root / "escape.txt")
    os.symlink("sub dir", root / "alias")
    os.utime(root / "blob.bin", (1700000000, 1700000000))
    port = free_port()
    proc = subprocess.Popen(["bash", "/app/static/run.sh"], env=dict(os.environ, STATIC_ROOT=str(root), STATIC_PORT=str(port)),
                            cwd="/", start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # A hang guard for the start-up, not a speed bar: a loaded machine may be slow.
    deadline, ok = time.time() + 60, False
    while time.time() < deadline and not ok:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    yield {"port": port if ok else None, "root": root}
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


def req(srv, path, method="GET", headers=None, conn=None):
    assert srv["port"], "server did not start"
    c = conn or http.client.HTTPConnection("127.0.0.1", srv["port"], timeout=10)
    c.request(method, path, headers=headers or {})
    r = c.getresponse()
    body = r.read()
    h = {k.lower(): v for k, v in r.getheaders()}
    if conn is None:
        c.close()
    return r.status, h, body


def test_basic_files_and_types(srv):
    st, h, b = req(srv, "/blob.bin")
    assert (st, b, h["content-type"], h["content-length"]) == (200, BLOB, "application/octet-stream", "5000")
    assert h["accept-ranges"] == "bytes" and h["etag"].startswith('"') and h["etag"].endswith('"')
    assert email.utils.parsedate_to_datetime(h["last-modified"]).timestamp() == 1700000000
    assert req(srv, "/style.css")[1]["content-type"] == "text/css"
    assert req(srv, "/data.json")[1]["content-type"] == "application/json"
    st, h, b = req(srv, "/a%20b.txt")
    assert (st, b, h["content-type"]) == (200, b"spaced\n", "text/plain; charset=utf-8")


def test_dirs_and_errors(srv):
    assert req(srv, "/")[0::2] == (200, b"<p>home</p>\n")
    st, h, _ = req(srv, "/sub%20dir")
    assert st == 301 and h["location"] == "/sub%20dir/"
    assert req(srv, "/sub%20dir/")[0::2] == (200, b"<p>sub</p>\n")
    assert req(srv, "/alias/")[0::2] == (200, b"<p>sub</p>\n")
    assert req(srv, "/noindex/")[0] == 404
    assert req(srv, "/missing.txt")[0] == 404
    st, h, _ = req(srv, "/blob.bin", method="POST")
    assert st == 405 and h["allow"] == "GET, HEAD"


def test_traversal_blocked(srv):
    for p in ["/escape.txt", "/../outside.txt", "/%2e%2e/outside.txt", "/sub%20dir/..%2f..%2foutside.txt"]:
        st, h, b = req(srv, p)
        assert b"TOP SECRET" not in b, p
        assert st in (403, 404), p
    assert req(srv, "/escape.txt")[0] == 403


def test_head(srv):
    st, h, b = req(srv, "/blob.bin", method="HEAD")
    assert (st, b, h["content-length"]) == (200, b"", "5000")


def test_conditional(srv):
    etag = req(srv, "/blob.bin")[1]["etag"]
    st, h, b = req(srv, "/blob.bin", headers={"If-None-Match": etag})
    assert (st, b, h.get("etag")) == (304, b"", etag)
    assert req(srv, "/blob.bin", headers={"If-None-Match": '"nope", ' + etag})[0] == 304
    assert req(srv, "/blob.bin", headers={"If-None-Match": "*"})[0] == 304
    assert req(srv, "/blob.bin", headers={"If-None-Match": '"other"'})[0] == 200
    assert req(srv, "/blob.bin", headers={"If-Modified-Since": "Tue, 14 Nov 2023 22:13:20 GMT"})[0] == 304
    assert req(srv, "/blob.bin", headers={"If-Modified-Since": "Tue, 14 Nov 2023 22:13:19 GMT"})[0] == 200
    assert req(srv, "/blob.bin", headers={"If-None-Match": '"other"', "If-Modified-Since": "Tue, 14 Nov 2030 22:13:20 GMT"})[0] == 200
    os.utime(srv["root"] / "blob.bin", (1700000500, 1700000500))
    assert req(srv, "/blob.bin", headers={"If-None-Match": etag})[0] == 200


def test_ranges(srv):
    st, h, b = req(srv, "/blob.bin", headers={"Range": "bytes=10-19"})
    assert (st, b, h["content-range"], h["content-length"]) == (206, BLOB[10:20], "bytes 10-19/5000", "10")
    st, h, b = req(srv, "/blob.bin", headers={"Range": "bytes=4990-"})
    assert (st, b, h["content-range"]) == (206, BLOB[4990:], "bytes 4990-4999/5000")
    st, h, b = req(srv, "/blob.bin", headers={"Range": "bytes=-7"})
    assert (st, b, h["content-range"]) == (206, BLOB[-7:], "bytes 4993-4999/5000")
    st, h, b = req(srv, "/blob.bin", headers={"Range": "bytes=4000-999999"})
    assert (st, b, h["content-range"]) == (206, BLOB[4000:], "bytes 4000-4999/5000")
    st, h, b = req(srv, "/blob.bin", headers={"Range": "bytes=5000-5005"})
    assert (st, h["content-range"]) == (416, "bytes */5000")
    assert req(srv, "/blob.bin", headers={"Range": "bytes=0-1,5-6"})[0::2] == (200, BLOB)
    assert req(srv, "/blob.bin", headers={"Range": "items=0-3"})[0::2] == (200, BLOB)


def test_if_range(srv):
    etag = req(srv, "/blob.bin")[1]["etag"]
    assert req(srv, "/blob.bin", headers={"Range": "bytes=0-3", "If-Range": etag})[0::2] == (206, BLOB[:4])
    assert req(srv, "/blob.bin", headers={"Range": "bytes=0-3", "If-Range": '"stale"'})[0::2] == (200, BLOB)


def test_keep_alive(srv):
    c = http.client.HTTPConnection("127.0.0.1", srv["port"], timeout=10)
    results = [req(srv, p, conn=c)[0] for p in ["/", "/blob.bin", "/missing", "/style.css"]]
    results.append(req(srv, "/blob.bin", conn=c, headers={"Range": "bytes=0-0"})[0])
    c.close()
    assert results == [200, 200, 404, 200, 206]
