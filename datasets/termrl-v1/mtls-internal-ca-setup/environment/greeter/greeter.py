"""greeter: the internal mutual-TLS greeting service.

Listens on 127.0.0.1:$GREETER_PORT (default 8443). Every client must present a certificate that chains to
the configured client CA; the service reads one line and answers `hello <client CN>: <line>`.
Configuration: $GREETER_CONFIG (default /etc/greeter/tls.ini), section [tls] with `certificate`,
`private_key` (PEM files) and `client_ca` (PEM bundle of the CA certificates trusted for clients).
"""
import configparser
import os
import socket
import ssl
import stat
import sys
import threading


def fail(msg):
    print(f"greeter: {msg}", file=sys.stderr)
    sys.exit(2)


def load():
    path = os.environ.get("GREETER_CONFIG", "/etc/greeter/tls.ini")
    cp = configparser.ConfigParser()
    if not cp.read(path) or "tls" not in cp:
        fail(f"{path}: missing or without a [tls] section")
    conf = cp["tls"]
    for key in ("certificate", "private_key", "client_ca"):
        if not conf.get(key, "").strip():
            fail(f"{path}: [tls] {key} is not set")
        if not os.path.isfile(conf[key]):
            fail(f"{path}: [tls] {key}: {conf[key]} does not exist")
    mode = stat.S_IMODE(os.stat(conf["private_key"]).st_mode)
    if mode & 0o077:
        fail(f"refusing to use {conf['private_key']}: mode {mode:o} lets others read the private key")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        ctx.load_cert_chain(conf["certificate"], conf["private_key"])
        ctx.load_verify_locations(cafile=conf["client_ca"])
    except (ssl.SSLError, OSError) as e:
        fail(f"cannot load the TLS files: {e}")
    ctx.verify_mode = ssl.CERT_REQUIRED
    return ctx


def serve(ctx, raw):
    try:
        with ctx.wrap_socket(raw, server_side=True) as conn:
            conn.settimeout(30)
            cn = dict(x[0] for x in conn.getpeercert()["subject"]).get("commonName", "?")
            line = conn.makefile("rb").readline().decode("utf-8", "replace").strip()
            conn.sendall(f"hello {cn}: {line}\n".encode())
    except (ssl.SSLError, OSError):
        pass


def main():
    ctx = load()
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", int(os.environ.get("GREETER_PORT", "8443"))))
    s.listen(32)
    while True:
        raw, _ = s.accept()
        threading.Thread(target=serve, args=(ctx, raw), daemon=True).start()


if __name__ == "__main__":
    main()
