/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The one reader of numbers typed by people and programs: strict syntax, named failures. */
#ifndef POOLSHARK_NUMBER_H
#define POOLSHARK_NUMBER_H

#include <stdbool.h>

/*
 * Reads a whole number in [min, max] from `text`: an optional '-' and one or
 * more decimal digits, nothing else (no space, no '+', no trailing junk).
 * Returns NULL and sets *out on success; otherwise leaves *out alone and
 * returns the problem as words that complete "depth=x is ...": "not a whole
 * number", "negative" (a well-formed negative number where min >= 0), "too
 * small" or "too large".
 */
const char *number_parse(const char *text, long long min, long long max, long long *out);

/*
 * number_parse() in the shape of strtonum(), for loops over options: the
 * value, or 0 with *problem set (and *problem NULL on success).
 */
long long number_read(const char *text, long long min, long long max, const char **problem);

/*
 * Reads a decimal number in [min, max]: an optional '-', one or more
 * digits, optionally '.' followed by one or more digits ("0.5", not ".5"
 * or "5."), and optionally an exponent: 'e' or 'E', an optional sign and
 * one or more digits ("1e-3", "9.999999999996123e-06", "1E+16", as
 * programs print numbers). No spaces, '+' in front, hexadecimal, "inf" or
 * "nan". Returns NULL and sets *out, or the problem as above ("not a
 * number" for bad syntax).
 */
const char *number_parse_decimal(const char *text, double min, double max, double *out);

#endif
