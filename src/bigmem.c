/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Large tables with mmap: zeroed by the system, unmapped when freed, prefaulted in threads. */
#include "poolshark/bigmem.h"

#include <pthread.h>
#include <stdint.h>
#ifdef _WIN32
#include <windows.h> /* the Windows DLL (make checkerboard): VirtualAlloc instead of mmap */
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

enum { HUGE_PAGE = 2 * 1024 * 1024, SMALL_PAGE = 4096, MAX_THREADS = 64 };

#ifdef _WIN32
size_t bigmem_physical_bytes(void)
{
	MEMORYSTATUSEX status;
	status.dwLength = sizeof status;
	return GlobalMemoryStatusEx(&status) ? (size_t)status.ullTotalPhys : 0;
}

void *bigmem_alloc(size_t bytes)
{
	size_t physical = bigmem_physical_bytes();
	if (bytes == 0 || (physical && bytes > physical))
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

void *bigmem_alloc(size_t bytes)
{
	size_t physical = bigmem_physical_bytes();
	if (bytes == 0 || (physical && bytes > physical))
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

static void *prefault_slice(void *arg)
{
	PrefaultSlice *slice = arg;
	for (size_t at = 0; at < slice->bytes; at += SMALL_PAGE) {
		/* A write, not a read: a read would map the shared zero page
		 * and the later write would fault again (and, on a huge page,
		 * may split it). The memory is zero, so zero is what is there. */
		slice->begin[at] = 0;
		if (slice->abort && (at & (HUGE_PAGE - 1)) == 0 && atomic_load(slice->abort))
			break;
	}
	return NULL;
}

void bigmem_prefault(void *memory, size_t bytes, int threads, const atomic_bool *abort)
{
	if (!memory || bytes == 0)
		return;
	if (threads < 1)
		threads = 1;
	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	PrefaultSlice slices[MAX_THREADS];
	pthread_t ids[MAX_THREADS];
	bool started[MAX_THREADS] = {false};
	size_t per = (bytes / (size_t)threads + SMALL_PAGE - 1) / SMALL_PAGE * SMALL_PAGE;
	for (int i = 0; i < threads; i++) {
		size_t begin = per * (size_t)i;
		slices[i].begin = (volatile char *)memory + (begin < bytes ? begin : bytes);
		slices[i].bytes = begin < bytes ? (bytes - begin < per ? bytes - begin : per) : 0;
		slices[i].abort = abort;
		/* Slice 0 runs here; the others in threads, or here when none starts. */
		if (i > 0)
			started[i] = pthread_create(&ids[i], NULL, prefault_slice, &slices[i]) == 0;
	}
	prefault_slice(&slices[0]);
	for (int i = 1; i < threads; i++) {
		if (started[i])
			pthread_join(ids[i], NULL);
		else
			prefault_slice(&slices[i]);
	}
}
