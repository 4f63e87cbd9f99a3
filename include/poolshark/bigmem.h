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
 * system refuses, or when `bytes` is 0 or more than bigmem_available_bytes(). The pages are not touched yet:
 * see bigmem_prefault(). Give it back with bigmem_free(), which returns the memory to the system at once.
 */
void *bigmem_alloc(size_t bytes);

/* Unmaps what bigmem_alloc() returned (same size). NULL is ignored. */
void bigmem_free(void *memory, size_t bytes);

/*
 * Makes every page of `memory`, which must hold only zeros (as
 * bigmem_alloc() gives it), resident by writing zeros into it, with
 * `threads` threads (1 or more), so that a search that follows takes no page
 * faults. Returns early, with the rest untouched, when `abort` (may be NULL)
 * becomes true; the rest then goes on small pages, which fault in quickly
 * as they are used (a huge page fault can take milliseconds).
 */
void bigmem_prefault(void *memory, size_t bytes, int threads, const atomic_bool *abort);

/* The machine's physical memory in bytes (0 when unknown). */
size_t bigmem_physical_bytes(void);

/*
 * The memory this process may have: the machine's physical memory, or less
 * when the process runs in a memory cgroup with a lower limit (a
 * container's, a systemd scope's), read from /proc/self/cgroup and
 * /sys/fs/cgroup as bigmem_cgroup_limit() does. 0 when unknown.
 */
size_t bigmem_available_bytes(void);

/*
 * The memory limit of the process's cgroup in bytes, the lowest one set on
 * its cgroup or any ancestor; 0 when none is set ("max", a v1 limit beyond
 * any machine, no memory controller, or files that cannot be read).
 * `self_cgroup` is the /proc/self/cgroup file and `root` the cgroup file
 * system's mount point (/sys/fs/cgroup), given so that a test can use
 * files of its own: cgroup v2 (a "0::PATH" line) reads ROOT/PATH/memory.max,
 * v1 (an "N:...memory...:PATH" line) ROOT/memory/PATH/memory.limit_in_bytes.
 */
size_t bigmem_cgroup_limit(const char *self_cgroup, const char *root);

#endif
