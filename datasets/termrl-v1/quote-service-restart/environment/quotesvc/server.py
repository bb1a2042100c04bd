"""quotesvc: serves numbered quotes over TCP, one request per connection."""
import configparser
import socket

cfg = configparser.ConfigParser()
cfg.read("quotesvc.ini")
sec = cfg["server"]
HOST = sec.get("bind")
PORT = sec.getint("port")
QUOTES = [q for q in open(sec.get("quotes_file"), encoding="utf-8").read().splitlines() if q.strip()]


def answer(line):
    parts = line.strip().split()
    if parts == ["COUNT"]:
        return str(len(QUOTES))
    if len(parts) == 2 and parts[0] == "QUOTE" and parts[1].isdigit() and 1 <= int(parts[1]) <= len(QUOTES):
        return QUOTES[int(parts[1]) - 1]
    return "ERR"


def main():
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind((HOST, PORT))
    srv.listen(16)
    while True:
        conn, _ = srv.accept()
        with conn:
            conn.settimeout(5)
            buf = b""
            try:
                while not buf.endswith(b"\n"):
                    chunk = conn.recv(1024)
                    if not chunk:
                        break
                    buf += chunk
            except socket.timeout:
                continue
            conn.sendall((answer(buf.decode("utf-8", "replace")) + "\n").encode("utf-8"))


if __name__ == "__main__":
    main()
