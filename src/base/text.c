/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bounded text building (text.h). */
#include "poolshark/text.h"

#include <stdarg.h>
#include <stdio.h>

void text_append(char *out, size_t size, size_t *used, const char *format, ...)
{
	if (size == 0 || *used >= size - 1)
		return;
	va_list args;
	va_start(args, format);
	int n = vsnprintf(out + *used, size - *used, format, args);
	va_end(args);
	if (n < 0)
		return;
	size_t room = size - 1 - *used;
	*used += (size_t)n < room ? (size_t)n : room;
}

void text_set_error(char *error, size_t size, const char *format, ...)
{
	if (!error || size == 0)
		return;
	va_list args;
	va_start(args, format);
	vsnprintf(error, size, format, args);
	va_end(args);
}
