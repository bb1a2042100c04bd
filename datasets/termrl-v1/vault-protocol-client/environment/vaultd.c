/* vaultd: legacy file vault daemon (the task ships only the stripped binary). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <arpa/inet.h>
#include <unistd.h>

#define MAXP 4096
static uint16_t tab[256];
static const char *root_dir, *users_file;

typedef struct {
    int fd, authed;
    uint8_t cseq, sseq;
    uint32_t ks_in, ks_out;
} conn_t;

static void tab_init(void) {
    for (int i = 0; i < 256; i++) {
        uint16_t c = (uint16_t)(i << 8);
        for (int k = 0; k < 8; k++) c = (c & 0x8000) ? (uint16_t)((c << 1) ^ 0x8BB7) : (uint16_t)(c << 1);
        tab[i] = c;
    }
}

static uint16_t chk(uint16_t c, const uint8_t *p, size_t n) {
    while (n--) c = (uint16_t)((c << 8) ^ tab[((c >> 8) ^ *p++) & 0xFF]);
    return c;
}

static uint8_t ks_next(uint32_t *x) {
    uint32_t v = *x;
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
    *x = v;
    return (uint8_t)(v >> 8);
}

static uint32_t rotl(uint32_t v, int r) { return (v << r) | (v >> (32 - r)); }

static void digest(const uint8_t *nonce, int rounds, const char *user, const char *pw, uint32_t h[4]) {
    uint8_t buf[8 + 256 + 1 + 256];
    size_t n = 0, lp = strlen(pw), lu = strlen(user);
    memcpy(buf, nonce, 8);
    n = 8;
    memcpy(buf + n, pw, lp);
    n += lp;
    buf[n++] = 0;
    memcpy(buf + n, user, lu);
    n += lu;
    h[0] = 0x243F6A88u ^ (uint32_t)n;
    h[1] = 0x85A308D3u;
    h[2] = 0x13198A2Eu;
    h[3] = 0x03707344u;
    for (int r = 0; r < rounds; r++) {
        for (size_t i = 0; i < n; i++) {
            int j = (int)((i + (size_t)r) & 3);
            h[j] = rotl(h[j] ^ buf[i], 5) * 0x9E3779B1u + h[(j + 1) & 3];
        }
        h[0] ^= h[3] >> 7;
        h[2] += h[1] << 3;
    }
}

static int readn(int fd, uint8_t *b, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, b + got, n - got);
        if (r <= 0) return -1;
        got += (size_t)r;
    }
    return 0;
}

static int writen(int fd, const uint8_t *b, size_t n) {
    size_t put = 0;
    while (put < n) {
        ssize_t r = write(fd, b + put, n - put);
        if (r <= 0) return -1;
        put += (size_t)r;
    }
    return 0;
}

static int send_frame(conn_t *c, uint8_t type, const uint8_t *p, size_t n) {
    uint8_t hdr[6], out[6 + MAXP + 2];
    hdr[0] = 'V';
    hdr[1] = 'K';
    hdr[2] = type;
    hdr[3] = c->sseq++;
    hdr[4] = (uint8_t)(n & 0xFF);
    hdr[5] = (uint8_t)(n >> 8);
    uint16_t k = chk(0x1D0F, hdr + 2, 4);
    k = chk(k, p, n);
    memcpy(out, hdr, 6);
    for (size_t i = 0; i < n; i++) out[6 + i] = c->authed ? (uint8_t)(p[i] ^ ks_next(&c->ks_out)) : p[i];
    out[6 + n] = (uint8_t)(k >> 8);
    out[7 + n] = (uint8_t)(k & 0xFF);
    return writen(c->fd, out, n + 8);
}

static void fail(conn_t *c, uint8_t code, const char *msg) {
    uint8_t p[128];
    size_t l = strlen(msg);
    p[0] = code;
    memcpy(p + 1, msg, l);
    send_frame(c, 0x7F, p, l + 1);
}

/* returns payload length, -1 on a broken connection, -2 on a bad frame */
static int recv_frame(conn_t *c, uint8_t *type, uint8_t *p) {
    uint8_t hdr[6], tail[2];
    if (readn(c->fd, hdr, 6) < 0) return -1;
    if (hdr[0] != 'V' || hdr[1] != 'K') return -2;
    size_t n = (size_t)hdr[4] | ((size_t)hdr[5] << 8);
    if (n > MAXP) return -3;
    if (readn(c->fd, p, n) < 0 || readn(c->fd, tail, 2) < 0) return -1;
    if (c->authed)
        for (size_t i = 0; i < n; i++) p[i] ^= ks_next(&c->ks_in);
    uint16_t k = chk(chk(0x1D0F, hdr + 2, 4), p, n);
    if (k != (uint16_t)((tail[0] << 8) | tail[1])) return -2;
    if (hdr[3] != c->cseq) return -4;
    c->cseq++;
    *type = hdr[2];
    return (int)n;
}

static int lookup(const char *user, char *pw) {
    FILE *f = fopen(users_file, "r");
    char line[600];
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        char *colon = strchr(line, ':');
        if (!colon || line[0] == '#') continue;
        *colon = 0;
        if (strcmp(line, user) == 0 && strlen(colon + 1) < 256) {
            strcpy(pw, colon + 1);
            fclose(f);
            return 1;
        }
    }
    fclose(f);
    return 0;
}

static int ok_name(const char *s, size_t n) {
    if (n == 0 || n > 200 || s[0] == '.') return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '/' || s[i] == 0) return 0;
    return 1;
}

static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void do_list(conn_t *c) {
    DIR *d = opendir(root_dir);
    char *names[4096];
    int cnt = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && cnt < 4096) {
        if (e->d_name[0] == '.') continue;
        names[cnt++] = strdup(e->d_name);
    }
    if (d) closedir(d);
    qsort(names, (size_t)cnt, sizeof names[0], cmpstr);
    uint8_t p[MAXP];
    size_t n = 0;
    for (int i = 0; i < cnt; i++) {
        size_t l = strlen(names[i]);
        if (n + 1 + l > 160) {
            send_frame(c, 0x11, p, n);
            n = 0;
        }
        p[n++] = (uint8_t)l;
        memcpy(p + n, names[i], l);
        n += l;
        free(names[i]);
    }
    send_frame(c, 0x12, p, n);
}

static void do_get(conn_t *c, const uint8_t *name, size_t nl) {
    char path[4096], nm[256];
    if (!ok_name((const char *)name, nl)) {
        fail(c, 2, "no such file");
        return;
    }
    memcpy(nm, name, nl);
    nm[nl] = 0;
    snprintf(path, sizeof path, "%s/%s", root_dir, nm);
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0) close(fd);
        fail(c, 2, "no such file");
        return;
    }
    uint8_t buf[1000];
    off_t left = st.st_size;
    do {
        size_t want = left > 1000 ? 1000 : (size_t)left;
        if (want && readn(fd, buf, want) < 0) break;
        left -= (off_t)want;
        send_frame(c, left > 0 ? 0x21 : 0x22, buf, want);
    } while (left > 0);
    close(fd);
}

static void do_put(conn_t *c, const uint8_t *p, size_t n) {
    char path[4096], tmp[4200], nm[256];
    if (n < 5 || !ok_name((const char *)p + 4, n - 4)) {
        fail(c, 3, "bad request");
        return;
    }
    uint32_t size = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
    memcpy(nm, p + 4, n - 4);
    nm[n - 4] = 0;
    snprintf(path, sizeof path, "%s/%s", root_dir, nm);
    snprintf(tmp, sizeof tmp, "%s/.%s.part", root_dir, nm);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fail(c, 3, "cannot store");
        return;
    }
    send_frame(c, 0x04, (const uint8_t *)"go", 2);
    uint32_t got = 0;
    uint8_t buf[MAXP], type = 0;
    for (;;) {
        int r = recv_frame(c, &type, buf);
        if (r < 0 || (type != 0x31 && type != 0x32)) {
            close(fd);
            unlink(tmp);
            fail(c, 3, "bad frame");
            return;
        }
        writen(fd, buf, (size_t)r);
        got += (uint32_t)r;
        if (type == 0x32) break;
    }
    close(fd);
    if (got != size) {
        unlink(tmp);
        fail(c, 3, "size mismatch");
        return;
    }
    rename(tmp, path);
    uint8_t ack[4] = {(uint8_t)got, (uint8_t)(got >> 8), (uint8_t)(got >> 16), (uint8_t)(got >> 24)};
    send_frame(c, 0x04, ack, 4);
}

static void serve(int fd) {
    conn_t c = {fd, 0, 0, 0, 0, 0};
    uint8_t p[MAXP + 1], type;
    char user[256], pw[256];
    int r = recv_frame(&c, &type, p);
    if (r < 0 || type != 0x01 || r < 2 || p[0] != 3 || p[1] == 0 || (size_t)p[1] + 2 != (size_t)r) {
        fail(&c, 3, r == -2 ? "bad frame" : "bad hello");
        return;
    }
    memcpy(user, p + 2, p[1]);
    user[p[1]] = 0;
    uint8_t ch[9];
    int rfd = open("/dev/urandom", O_RDONLY);
    if (rfd < 0 || readn(rfd, ch, 9) < 0) return;
    close(rfd);
    ch[8] = (uint8_t)(2 + ch[8] % 5);
    send_frame(&c, 0x02, ch, 9);
    r = recv_frame(&c, &type, p);
    int known = lookup(user, pw);
    uint32_t h[4];
    uint8_t want[16];
    digest(ch, ch[8], user, known ? pw : "\x01", h);
    for (int i = 0; i < 4; i++)
        for (int b = 0; b < 4; b++) want[i * 4 + b] = (uint8_t)(h[i] >> (8 * b));
    if (r != 16 || type != 0x03 || !known || memcmp(want, p, 16) != 0) {
        fail(&c, 1, "auth failed");
        return;
    }
    send_frame(&c, 0x04, (const uint8_t *)"welcome", 7);
    c.authed = 1;
    c.ks_in = h[1] | 1;
    c.ks_out = h[3] | 1;
    for (;;) {
        r = recv_frame(&c, &type, p);
        if (r == -1) return;
        if (r < 0) {
            fail(&c, 3, r == -3 ? "frame too long" : r == -4 ? "out of sequence" : "bad frame");
            return;
        }
        if (type == 0x10) do_list(&c);
        else if (type == 0x20) do_get(&c, p, (size_t)r);
        else if (type == 0x30) do_put(&c, p, (size_t)r);
        else if (type == 0x0F) return;
        else {
            fail(&c, 3, "unknown command");
            return;
        }
    }
}

int main(int argc, char **argv) {
    int port = 7077;
    root_dir = "/srv/vault";
    users_file = "/etc/vaultd/users";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--port")) port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--root")) root_dir = argv[i + 1];
        else if (!strcmp(argv[i], "--users")) users_file = argv[i + 1];
        else {
            fprintf(stderr, "usage: vaultd [--port N] [--root DIR] [--users FILE]\n");
            return 2;
        }
    }
    tab_init();
    signal(SIGCHLD, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 16) < 0) {
        perror("vaultd");
        return 1;
    }
    fprintf(stderr, "vaultd listening on 127.0.0.1:%d\n", port);
    for (;;) {
        int fd = accept(s, NULL, NULL);
        if (fd < 0) {
            if (errno == EINTR) continue;
            return 1;
        }
        pid_t pid = fork();
        if (pid == 0) {
            close(s);
            serve(fd);
            shutdown(fd, SHUT_WR);
            close(fd);
            _exit(0);
        }
        close(fd);
    }
}
