/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Large tables with mmap: zeroed by the system, unmapped when freed, prefaulted in threads. */
#include "poolshark/bigmem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <windows.h> /* the Windows DLL (make checkerboard): VirtualAlloc instead of mmap */
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "poolshark/workers.h"

enum { HUGE_PAGE = 2 * 1024 * 1024, SMALL_PAGE = 4096 };

#ifdef _WIN32
size_t bigmem_physical_bytes(void)
{
	MEMORYSTATUSEX status;
	status.dwLength = sizeof status;
	return GlobalMemoryStatusEx(&status) ? (size_t)status.ullTotalPhys : 0;
}

size_t bigmem_cgroup_limit(const char *self_cgroup, const char *root)
{
	(void)self_cgroup;
	(void)root;
	return 0;
}

size_t bigmem_available_bytes(void)
{
	return bigmem_physical_bytes();
}

void *bigmem_alloc(size_t bytes)
{
	size_t available = bigmem_available_bytes();
	if (bytes == 0 || (available && bytes > available))
		return NULL;
	/* Committed pages read as zeros until written, as with mmap. */
	return VirtualAlloc(NULL, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

void bigmem_free(void *memory, size_t bytes)
{
	(void)bytes;
	if (memory)
		VirtualFree(memory, 0, MEM_RELEASE);
}
#else
size_t bigmem_physical_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
}

enum { CGROUP_PATH_MAX = 4096, CGROUP_LINES_MAX = 64 };

/* The number in a limit file, or 0 for "max", an unreadable file or text
 * that is not a number. */
static uint64_t read_limit(const char *path)
{
	FILE *f = fopen(path, "r");
	char text[64];
	uint64_t value = 0;
	if (!f)
		return 0;
	if (fgets(text, sizeof text, f) && strncmp(text, "max", 3)) {
		char *end;
		unsigned long long v = strtoull(text, &end, 10);
		if (end != text && (*end == '\n' || *end == '\0'))
			value = (uint64_t)v;
	}
	fclose(f);
	return value;
}

/* The lowest limit in `file` of cgroup `path` under `base` and of its
 * ancestors up to base itself; 0 when none. */
static uint64_t lowest_limit(const char *base, const char *path, const char *file)
{
	char dir[CGROUP_PATH_MAX], at[CGROUP_PATH_MAX + 64];
	uint64_t lowest = 0;
	if ((size_t)snprintf(dir, sizeof dir, "%s%s", base, path) >= sizeof dir)
		return 0;
	size_t keep = strlen(base);
	for (;;) {
		size_t n = strlen(dir);
		while (n > keep && dir[n - 1] == '/')
			dir[--n] = '\0';
		snprintf(at, sizeof at, "%s/%s", dir, file);
		uint64_t limit = read_limit(at);
		if (limit && (!lowest || limit < lowest))
			lowest = limit;
		char *slash = strrchr(dir + keep, '/');
		if (n <= keep || !slash)
			return lowest;
		*slash = '\0';
	}
}

size_t bigmem_cgroup_limit(const char *self_cgroup, const char *root)
{
	FILE *f = fopen(self_cgroup, "r");
	char line[CGROUP_PATH_MAX], base[CGROUP_PATH_MAX];
	uint64_t lowest = 0;
	if (!f)
		return 0;
	/* "ID:CONTROLLERS:PATH" lines; a few, but bounded all the same. */
	for (int i = 0; i < CGROUP_LINES_MAX && fgets(line, sizeof line, f); i++) {
		line[strcspn(line, "\n")] = '\0';
		char *first = strchr(line, ':'), *second = first ? strchr(first + 1, ':') : NULL;
		if (!second || second[1] != '/')
			continue;
		*first = *second = '\0';
		const char *controllers = first + 1, *path = second + 1, *file = NULL;
		bool v1_memory = false;
		for (const char *c = controllers; *c;) {
			size_t n = strcspn(c, ",");
			v1_memory |= n == 6 && !strncmp(c, "memory", 6);
			c += n + (c[n] == ',');
		}
		if (!strcmp(line, "0") && controllers[0] == '\0') {
			snprintf(base, sizeof base, "%s", root);
			file = "memory.max";
		} else if (v1_memory) {
			snprintf(base, sizeof base, "%s/memory", root);
			file = "memory.limit_in_bytes";
		} else {
			continue;
		}
		uint64_t limit = lowest_limit(base, path, file);
		if (limit && (!lowest || limit < lowest))
			lowest = limit;
	}
	fclose(f);
	/* v1 writes "no limit" as a number near 2^63. */
	if (lowest >= (uint64_t)1 << 62 || lowest > SIZE_MAX)
		return 0;
	return (size_t)lowest;
}

size_t bigmem_available_bytes(void)
{
	size_t physical = bigmem_physical_bytes();
	size_t limit = bigmem_cgroup_limit("/proc/self/cgroup", "/sys/fs/cgroup");
	return limit && (!physical || limit < physical) ? limit : physical;
}

void *bigmem_alloc(size_t bytes)
{
	size_t available = bigmem_available_bytes();
	if (bytes == 0 || (available && bytes > available))
		return NULL;
	void *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (memory == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	/* Probes land anywhere in a table: on 2 MiB pages they miss the TLB
	 * far less often. Only advice: a kernel without it ignores it. */
	if (bytes >= HUGE_PAGE)
		madvise(memory, bytes, MADV_HUGEPAGE);
#endif
	return memory;
}

void bigmem_free(void *memory, size_t bytes)
{
	if (memory)
		munmap(memory, bytes);
}
#endif

typedef struct PrefaultSlice {
	volatile char *begin;
	size_t bytes;
	const atomic_bool *abort;
} PrefaultSlice;

/* What is left of a slice when the preparation stops early goes on small
 * pages: the search that stopped it takes those faults on its clock, and a
 * small page costs microseconds where a huge one may cost milliseconds
 * (the kernel zeroes 2 MiB, and may first compact memory to find them). */
static void give_up(volatile char *begin, size_t bytes)
{
#if !defined(_WIN32) && defined(MADV_NOHUGEPAGE)
	uintptr_t from = ((uintptr_t)begin + SMALL_PAGE - 1) & ~(uintptr_t)(SMALL_PAGE - 1);
	uintptr_t to = ((uintptr_t)begin + bytes) & ~(uintptr_t)(SMALL_PAGE - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_NOHUGEPAGE);
#else
	(void)begin;
	(void)bytes;
#endif
}

static void *prefault_slice(void *arg)
{
	PrefaultSlice *slice = arg;
	for (size_t at = 0; at < slice->bytes; at += SMALL_PAGE) {
		if (slice->abort && (at & (HUGE_PAGE - 1)) == 0 && atomic_load(slice->abort)) {
			give_up(slice->begin + at, slice->bytes - at);
			break;
		}
		/* A write, not a read: a read would map the shared zero page
		 * and the later write would fault again (and, on a huge page,
		 * may split it). The memory is zero, so zero is what is there. */
		slice->begin[at] = 0;
	}
	return NULL;
}

void bigmem_prefault(void *memory, size_t bytes, int threads, const atomic_bool *abort)
{
	if (!memory || bytes == 0)
		return;
	threads = workers_clamp(threads);
	PrefaultSlice slices[WORKERS_MAX];
	size_t per = (bytes / (size_t)threads + SMALL_PAGE - 1) / SMALL_PAGE * SMALL_PAGE;
	for (int i = 0; i < threads; i++) {
		size_t begin = per * (size_t)i;
		slices[i].begin = (volatile char *)memory + (begin < bytes ? begin : bytes);
		slices[i].bytes = begin < bytes ? (bytes - begin < per ? bytes - begin : per) : 0;
		slices[i].abort = abort;
	}
	workers_run(slices, sizeof slices[0], threads, prefault_slice);
}
