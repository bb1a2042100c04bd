#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "keywords.h"

#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); return 2; } } while (0)

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--version")) {
        printf("kwcount 1.0 (built %s %s)\n", __DATE__, __TIME__);
        return 0;
    }
    long counts[NKEYWORDS] = {0};
    char word[256];
    int c, n = 0;
    CHECK(NKEYWORDS > 0);
    while ((c = getchar()) != EOF || n) {
        if (c != EOF && (isalnum(c) || c == '_') && n < 255) { word[n++] = (char)c; continue; }
        word[n] = 0;
        for (int i = 0; n && i < NKEYWORDS; i++) if (!strcmp(word, KEYWORDS[i])) counts[i]++;
        n = 0;
        if (c == EOF) break;
    }
    for (int i = 0; i < NKEYWORDS; i++) if (counts[i]) printf("%s %ld\n", KEYWORDS[i], counts[i]);
    return 0;
}
