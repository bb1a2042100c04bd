#ifndef DURATION_H
#define DURATION_H
/* Parses a duration such as "1h30m", "250ms", "2.5s", "1d2h3m4s5ms" into milliseconds.
 *
 * Grammar: one or more components NUMBER UNIT with no spaces. NUMBER is one or more ASCII
 * digits optionally followed by '.' and one or more digits. UNIT is one of d, h, m, s, ms
 * (1d = 24h, 1h = 60m, 1m = 60s, 1s = 1000ms). Units must appear in strictly decreasing
 * order of size and each at most once ("1m1h" and "1s1s" are invalid). A fractional NUMBER is
 * allowed only if the component is an exact whole number of milliseconds ("1.5s" = 1500,
 * "0.001s" = 1, "1.5ms" and "0.0001s" are invalid). The result is computed exactly (no
 * floating point rounding) and must fit in a signed 64-bit integer.
 *
 * Returns 0 and stores the total in *out_ms on success; returns -1 (leaving *out_ms
 * unchanged) for any invalid input, including NULL, "", signs, spaces, missing units,
 * unknown units and overflow. */
int parse_duration(const char *s, long long *out_ms);
#endif
