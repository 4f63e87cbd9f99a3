/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bounded text building shared by the writers of positions, moves and boards. */
#ifndef POOLSHARK_TEXT_H
#define POOLSHARK_TEXT_H

#include <stddef.h>

/*
 * Appends printf-style text at out + *used, never writing past out[size-1]
 * and always leaving out NUL-terminated (when size > 0). *used advances by
 * what was written; once the buffer is full, later calls write nothing, so a
 * caller may append freely and check for truncation once with
 * text_truncated().
 */
void text_append(char *out, size_t size, size_t *used, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/*
 * Writes printf-style text into error (size bytes, cut to fit and
 * NUL-terminated): the one way a parser names its failure. Nothing when
 * error is NULL or size is 0, so a caller may pass no buffer.
 */
void text_set_error(char *error, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));

/* True when text_append() had to cut the text. */
static inline int text_truncated(size_t size, size_t used)
{
	return size == 0 || used >= size - 1;
}

#endif
