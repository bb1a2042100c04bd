#ifndef TALLY_H
#define TALLY_H
typedef struct tally tally;
tally *tally_new(void);
void tally_add(tally *t, const char *word);
int tally_get(const tally *t, const char *word);
int tally_distinct(const tally *t);
void tally_free(tally *t);
const char *tally_version(void);
#endif
