/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Large zeroed tables straight from the system: mapped, given back whole, touched up front. */
#ifndef POOLSHARK_BIGMEM_H
#define POOLSHARK_BIGMEM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * `bytes` of zeroed memory mapped from the system (on 2 MiB pages where the
 * system offers them, for tables that are probed at random). NULL when the
 * system refuses, or when `bytes` is 0 or more than the machine's physical
 * memory. The pages are not touched yet: see bigmem_prefault(). Give it back
 * with bigmem_free(), which returns the memory to the system at once.
 */
void *bigmem_alloc(size_t bytes);

/* Unmaps what bigmem_alloc() returned (same size). NULL is ignored. */
void bigmem_free(void *memory, size_t bytes);

/*
 * Makes every page of `memory`, which must hold only zeros (as
 * bigmem_alloc() gives it), resident by writing zeros into it, with
 * `threads` threads (1 or more), so that a search that follows takes no page
 * faults. Returns early, with the rest untouched, when `abort` (may be NULL)
 * becomes true.
 */
void bigmem_prefault(void *memory, size_t bytes, int threads, const atomic_bool *abort);

/* The machine's physical memory in bytes (0 when unknown). */
size_t bigmem_physical_bytes(void);

#endif
