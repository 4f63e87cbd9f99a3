/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the WebAssembly build takes from libbsd (absent under emscripten): strtonum only. */
#ifndef POOLSHARK_COMPAT_BSD_STDLIB_H
#define POOLSHARK_COMPAT_BSD_STDLIB_H

#include <stdlib.h>

/*
 * libbsd's strtonum: the decimal number in `text` (strtoll syntax, nothing
 * after it) when it lies in [min, max]. Otherwise returns 0 and points
 * *problem at "invalid", "too small" or "too large" (errno EINVAL or
 * ERANGE); on success *problem is NULL. web/compat/strtonum.c; checked
 * against libbsd by tests/test_compat.c.
 */
long long strtonum(const char *text, long long min, long long max, const char **problem);

#endif
