#ifndef MINIFMT_H
#define MINIFMT_H
#include <stdarg.h>
#include <stddef.h>

/* Format like C's snprintf/vsnprintf, for the subset of conversions given in the task statement. */
int mini_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int mini_snprintf(char *buf, size_t size, const char *fmt, ...);

#endif
