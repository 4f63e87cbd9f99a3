/* SPDX-License-Identifier: GPL-3.0-or-later */
/* strtonum for builds without libbsd (the WebAssembly worker), same contract as libbsd's. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

long long strtonum(const char *text, long long min, long long max, const char **problem);

long long strtonum(const char *text, long long min, long long max, const char **problem)
{
	const char *error = NULL;
	long long value;
	char *end = NULL;
	errno = 0;
	value = strtoll(text, &end, 10);
	/* As libbsd: min > max is not refused, the bounds are simply compared. */
	if (end == text || *end != '\0') {
		error = "invalid";
		errno = EINVAL;
	} else if ((value == LLONG_MIN && errno == ERANGE) || value < min) {
		error = "too small";
		errno = ERANGE;
	} else if ((value == LLONG_MAX && errno == ERANGE) || value > max) {
		error = "too large";
		errno = ERANGE;
	}
	if (problem)
		*problem = error;
	return error ? 0 : value;
}
