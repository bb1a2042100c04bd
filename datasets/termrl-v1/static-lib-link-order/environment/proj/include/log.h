#ifndef LOG_H
#define LOG_H
void log_set_level(int level);
void log_msg(int level, const char *msg);
int log_count(void);
#endif
