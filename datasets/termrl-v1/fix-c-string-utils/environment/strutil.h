#ifndef STRUTIL_H
#define STRUTIL_H
#include <stddef.h>

/* Returns a newly malloc'd copy of s without leading/trailing whitespace
 * (as defined by isspace). */
char *su_trim(const char *s);

/* Splits s on every occurrence of delim. Empty fields are kept, so "a,,b"
 * gives 3 fields and "" gives 1 empty field. Returns a malloc'd array of
 * *count malloc'd strings. */
char **su_split(const char *s, char delim, size_t *count);

/* Joins n strings with sep between consecutive items (not after the last).
 * Returns a newly malloc'd string; n == 0 gives "". */
char *su_join(char *const *parts, size_t n, const char *sep);

/* Frees a list returned by su_split. */
void su_free_list(char **list, size_t n);
#endif
