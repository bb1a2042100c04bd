#ifndef UTIL_H
#define UTIL_H
char *str_dup_upper(const char *s);
int util_is_supported(const char *version);
#endif
