#ifndef PARSE_H
#define PARSE_H
typedef struct { int major, minor, patch; } version_t;
int parse_version(const char *s, version_t *v);
char *parse_name(const char *line); /* "name=value" -> upper-cased name, malloc'd */
#endif
