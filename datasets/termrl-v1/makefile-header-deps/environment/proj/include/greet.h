#ifndef GREET_H
#define GREET_H
void greet(const char *name);
int greet_count(void);
#endif
