/* wordfreq: word frequency table for the corpus team.
 *
 * usage: wordfreq [-n TOP] [-m MINLEN] [FILE...]      (no FILE: read standard input)
 *
 * A word is a maximal run of bytes that are ASCII letters, ASCII digits, apostrophes ('), or
 * bytes >= 0x80 (so UTF-8 letters stay inside words).  A word is stored with ASCII letters
 * lowered; only its first MAXW - 1 bytes are kept (longer runs are cut, the rest of the run is
 * skipped).  A word that, after that, has fewer than MINLEN bytes or no byte other than
 * apostrophes is not counted.  Files are read one after the other as one stream; a word does
 * not continue from one file into the next.
 *
 * Output: "total <words counted> distinct <distinct words>", then the TOP most frequent words
 * (all when TOP is 0), one "<count> <word>" per line, by count descending; words with the same
 * count keep the order in which they first appeared.  Defaults: TOP 20, MINLEN 1.
 * Exit status 2 on a bad option or an unreadable file (message on standard error).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXW 64

struct entry {
    char word[MAXW];
    long count;
    struct entry *next;
};

static struct entry *head = NULL, *tail = NULL;
static long total = 0, distinct = 0;

static void add_word(const char *w)
{
    struct entry *e;
    for (e = head; e != NULL; e = e->next) {
        if (strcmp(e->word, w) == 0) {
            e->count++;
            total++;
            return;
        }
    }
    e = malloc(sizeof *e);
    if (!e) {
        perror("wordfreq");
        exit(2);
    }
    strcpy(e->word, w);
    e->count = 1;
    e->next = NULL;
    if (tail)
        tail->next = e;
    else
        head = e;
    tail = e;
    total++;
    distinct++;
}

static int in_word(int c)
{
    return (c < 128 && isalnum(c)) || c == '\'' || c >= 128;
}

static void finish(char *buf, size_t len, size_t minlen)
{
    size_t i;
    buf[len] = '\0';
    if (len < minlen)
        return;
    for (i = 0; i < len; i++)
        if (buf[i] != '\'')
            break;
    if (i == len)
        return;
    add_word(buf);
}

static void scan(FILE *f, size_t minlen)
{
    char buf[MAXW];
    size_t len = 0;
    int inword = 0, c;
    while ((c = getc(f)) != EOF) {
        if (in_word(c)) {
            if (len < MAXW - 1)
                buf[len++] = (char)(c < 128 ? tolower(c) : c);
            inword = 1;
        } else if (inword) {
            finish(buf, len, minlen);
            len = 0;
            inword = 0;
        }
    }
    if (inword)
        finish(buf, len, minlen);
}

int main(int argc, char **argv)
{
    long top = 20;
    size_t minlen = 1;
    int i, nfiles = 0;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 || strcmp(argv[i], "-m") == 0) {
            char *end;
            long v;
            if (i + 1 >= argc) {
                fprintf(stderr, "wordfreq: %s needs a value\n", argv[i]);
                return 2;
            }
            v = strtol(argv[i + 1], &end, 10);
            if (*argv[i + 1] == '\0' || *end != '\0' || v < 0) {
                fprintf(stderr, "wordfreq: bad value for %s: %s\n", argv[i], argv[i + 1]);
                return 2;
            }
            if (argv[i][1] == 'n')
                top = v;
            else
                minlen = (size_t)v;
            i++;
        } else {
            nfiles++;
        }
    }
    if (nfiles == 0) {
        scan(stdin, minlen);
    } else {
        for (i = 1; i < argc; i++) {
            FILE *f;
            if (strcmp(argv[i], "-n") == 0 || strcmp(argv[i], "-m") == 0) {
                i++;
                continue;
            }
            f = fopen(argv[i], "rb");
            if (!f) {
                fprintf(stderr, "wordfreq: cannot read %s\n", argv[i]);
                return 2;
            }
            scan(f, minlen);
            fclose(f);
        }
    }

    /* stable sort by count, descending: bubble sort over an array of the entries */
    {
        struct entry **v = malloc((distinct ? distinct : 1) * sizeof *v);
        struct entry *e;
        long k = 0, a, b, shown;
        for (e = head; e; e = e->next)
            v[k++] = e;
        for (a = 0; a < distinct; a++)
            for (b = 0; b + 1 < distinct - a; b++)
                if (v[b]->count < v[b + 1]->count) {
                    struct entry *t = v[b];
                    v[b] = v[b + 1];
                    v[b + 1] = t;
                }
        printf("total %ld distinct %ld\n", total, distinct);
        shown = (top == 0 || top > distinct) ? distinct : top;
        for (k = 0; k < shown; k++)
            printf("%ld %s\n", v[k]->count, v[k]->word);
    }
    return 0;
}
