/* SPDX-License-Identifier: GPL-3.0-or-later */
/* strtonum() for the mingw-w64 build (compat/mingw/bsd/stdlib.h), on strtoll and errno. */
#include "bsd/stdlib.h"

#include <errno.h>

long long strtonum(const char *text, long long min, long long max, const char **errstr)
{
	char *end;
	if (min > max) {
		*errstr = "invalid";
		return 0;
	}
	errno = 0;
	long long value = strtoll(text, &end, 10);
	if (end == text || *end != '\0') {
		*errstr = "invalid";
		return 0;
	}
	if ((errno == ERANGE && value < 0) || value < min) {
		*errstr = "too small";
		return 0;
	}
	if ((errno == ERANGE && value > 0) || value > max) {
		*errstr = "too large";
		return 0;
	}
	*errstr = NULL;
	return value;
}
