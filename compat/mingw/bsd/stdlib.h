/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libbsd's <bsd/stdlib.h> for the mingw-w64 build, which has no libbsd: strtonum() only. */
#ifndef POOLSHARK_COMPAT_BSD_STDLIB_H
#define POOLSHARK_COMPAT_BSD_STDLIB_H

#include <stdlib.h>

/*
 * libbsd's contract: the number in `text` if it is a whole decimal number in
 * [min, max], with *errstr set to NULL; otherwise 0 with *errstr "invalid",
 * "too small" or "too large".
 */
long long strtonum(const char *text, long long min, long long max, const char **errstr);

#endif
