#ifndef READNUM_H
#define READNUM_H
#include <stdio.h>
#include <stddef.h>
/* Reads whitespace-separated numbers; returns a malloc'd array and sets *n. */
double *read_numbers(FILE *f, size_t *n);
#endif
