/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Zeroed blocks on a cache line: aligned_alloc, or Windows' own pair. */
#include "poolshark/aligned.h"

#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <malloc.h>
#endif

void *aligned_zalloc(size_t bytes)
{
	if (bytes > (size_t)-1 - ALIGNED_LINE)
		return NULL;
	size_t size = (bytes + ALIGNED_LINE - 1) / ALIGNED_LINE * ALIGNED_LINE;
#ifdef _WIN32
	void *memory = _aligned_malloc(size, ALIGNED_LINE);
#else
	void *memory = aligned_alloc(ALIGNED_LINE, size);
#endif
	if (memory)
		memset(memory, 0, size);
	return memory;
}

void aligned_free(void *memory)
{
#ifdef _WIN32
	_aligned_free(memory);
#else
	free(memory);
#endif
}
