/*
 * ucut - print selected characters of every line, counting UTF-8 characters (not bytes).
 *
 * Usage: ucut -c LIST [FILE...]       (no FILE, or "-": standard input)
 *
 * LIST is a comma-separated list of ranges over 1-based character positions: N (just N), N-M (N to M,
 * inclusive; N <= M), N- (N to the end of the line), -M (1 to M). Ranges may overlap and may come in any
 * order; a character is printed at most once, and the selected characters are printed in their order in
 * the line. A malformed LIST (empty, 0, a range N-M with N > M, anything that is not a number, "-" alone):
 * a message on stderr and exit status 2, nothing printed.
 *
 * Characters: the input is decoded as UTF-8. A well-formed sequence (1 to 4 bytes, no overlong forms, no
 * surrogates U+D800..U+DFFF, nothing above U+10FFFF) is one character. Any byte that does not start a
 * well-formed sequence counts as one character on its own (and is printed unchanged when selected);
 * decoding goes on with the next byte.
 *
 * Lines: separated by '\n', of any length. The '\n' is not a character; it is always printed (also for
 * lines with no selected character). A last line without '\n' is printed without one.
 *
 * Files: processed in order. A file that cannot be opened: a message on stderr, the others are still
 * processed, and the exit status is 1. Otherwise the exit status is 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct range { long lo, hi; };   /* hi = -1: to the end of the line */

static struct range *ranges;
static size_t nranges;

static int parse_number(const char *s, const char *end, long *out)
{
    long v = 0;
    if (s == end)
        return -1;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
        if (v > 1000000000L)
            return -1;
    }
    *out = v;
    return 0;
}

static int parse_list(const char *list)
{
    const char *p = list;
    if (!*list)
        return -1;
    for (;;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *dash = memchr(p, '-', (size_t)(end - p));
        struct range r;
        if (!dash) {
            if (parse_number(p, end, &r.lo) || r.lo < 1)
                return -1;
            r.hi = r.lo;
        } else {
            if (dash == p && dash + 1 == end)
                return -1;
            if (dash == p)
                r.lo = 1;
            else if (parse_number(p, dash, &r.lo) || r.lo < 1)
                return -1;
            if (dash + 1 == end)
                r.hi = r.lo;
            else if (parse_number(dash + 1, end, &r.hi) || r.hi < r.lo)
                return -1;
        }
        ranges = realloc(ranges, (nranges + 1) * sizeof *ranges);
        if (!ranges)
            abort();
        ranges[nranges++] = r;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

int selected(long pos)
{
    for (size_t i = 0; i < nranges; i++)
        if (pos >= ranges[i].lo && (ranges[i].hi < 0 || pos <= ranges[i].hi))
            return 1;
    return 0;
}

/* length of the UTF-8 sequence at s (n bytes available) */
static size_t char_len(const char *s, size_t n)
{
    char b = s[0];
    size_t len;
    if (b < 0x80)
        return 1;
    if ((b & 0xE0) == 0xC0)
        len = 2;
    else if ((b & 0xF0) == 0xE0)
        len = 3;
    else if ((b & 0xF8) == 0xF0)
        len = 4;
    else
        return 1;
    return len < n ? len : n;
}

static void cut_line(const char *line, size_t n)
{
    for (size_t r = 0; r < nranges; r++) {
        long pos = 0;
        for (size_t i = 0; i < n;) {
            size_t len = char_len(line + i, n - i);
            pos++;
            if (pos >= ranges[r].lo && (ranges[r].hi < 0 || pos <= ranges[r].hi))
                fwrite(line + i, 1, len, stdout);
            i += len;
        }
    }
}

static void cut_stream(FILE *in)
{
    char buf[256];
    while (fgets(buf, sizeof buf, in)) {
        size_t n = strlen(buf);
        if (n && buf[n - 1] == '\n')
            buf[--n] = '\0';
        cut_line(buf, n);
        putchar('\n');
    }
}

int main(int argc, char **argv)
{
    int status = 0;
    if (argc < 3 || strcmp(argv[1], "-c") != 0) {
        fprintf(stderr, "usage: ucut -c LIST [FILE...]\n");
        return 2;
    }
    if (parse_list(argv[2])) {
        fprintf(stderr, "ucut: invalid list: %s\n", argv[2]);
        return 2;
    }
    if (argc == 3)
        cut_stream(stdin);
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "-") == 0) {
            cut_stream(stdin);
            continue;
        }
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "ucut: %s: %s\n", argv[i], strerror(errno));
            return 1;
        }
        cut_stream(f);
        fclose(f);
    }
    return status;
}
