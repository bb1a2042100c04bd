#ifndef GREET_H
#define GREET_H
const char *greet_message(void);
int greet_version(void);
#endif
