/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Strict number parsing on top of libbsd's strtonum. */
#include "poolshark/number.h"

#include <bsd/stdlib.h>
#include <stdlib.h>
#include <string.h>

static const char DIGITS[] = "0123456789";

const char *number_parse(const char *text, long long min, long long max, long long *out)
{
	const char *digits = text[0] == '-' ? text + 1 : text;
	size_t n = strspn(digits, DIGITS);
	if (n == 0 || digits[n] != '\0')
		return "not a whole number";
	if (digits != text && min >= 0)
		return "negative";
	const char *problem = NULL;
	long long value = strtonum(text, min, max, &problem);
	if (problem)
		return !strcmp(problem, "too small") || !strcmp(problem, "too large") ? problem
		                                                                      : "not a whole number";
	*out = value;
	return NULL;
}

long long number_read(const char *text, long long min, long long max, const char **problem)
{
	long long value = 0;
	*problem = number_parse(text, min, max, &value);
	return *problem ? 0 : value;
}

const char *number_parse_decimal(const char *text, double min, double max, double *out)
{
	const char *digits = text[0] == '-' ? text + 1 : text;
	size_t whole = strspn(digits, DIGITS);
	size_t point = digits[whole] == '.' ? 1 : 0;
	size_t fraction = point ? strspn(digits + whole + 1, DIGITS) : 0;
	const char *rest = digits + whole + point + fraction;
	if (*rest == 'e' || *rest == 'E') {
		/* An exponent, as programs print small and large values. */
		const char *power = rest + 1 + (rest[1] == '-' || rest[1] == '+');
		size_t n = strspn(power, DIGITS);
		rest = n ? power + n : rest;
	}
	if (whole == 0 || (point && fraction == 0) || *rest != '\0')
		return "not a number";
	/* Out of range, strtod gives HUGE_VAL (too large below) or a value
	 * near 0, which is what the text says. */
	double value = strtod(text, NULL);
	if (digits != text && value != 0 && min >= 0)
		return "negative";
	if (!(value >= min))
		return "too small";
	if (!(value <= max))
		return "too large";
	*out = value;
	return NULL;
}
