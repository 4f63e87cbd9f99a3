/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Zeroed blocks that start on a cache line, for structures read in whole lines. */
#ifndef POOLSHARK_ALIGNED_H
#define POOLSHARK_ALIGNED_H

#include <stddef.h>

/* The cache line the blocks start on, in bytes. */
enum { ALIGNED_LINE = 64 };

/*
 * `bytes` (rounded up to whole cache lines) of zeroed memory starting on a
 * cache line, or NULL when the system refuses. Give it back with
 * aligned_free(), never free() (Windows keeps such blocks apart).
 */
void *aligned_zalloc(size_t bytes);

/* Gives back what aligned_zalloc() returned. NULL is ignored. */
void aligned_free(void *memory);

#endif
