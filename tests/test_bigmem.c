/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The memory a process may have: the cgroup limit (v1 and v2) read from files a test can fake; blocks on a
 * cache line. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "poolshark/aligned.h"
#include "poolshark/bigmem.h"
#include "poolshark/workers.h"
#include "support/support.h"

static char dir[64];

/* Writes `text` to dir/name, making the directories on the way. */
static void put(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	for (char *slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* bigmem_cgroup_limit() of the fake tree under dir/NAME: NAME/self and NAME/fs. */
static size_t limit_of(const char *name)
{
	char self[256], root[256];
	snprintf(self, sizeof self, "%s/%s/self", dir, name);
	snprintf(root, sizeof root, "%s/%s/fs", dir, name);
	return bigmem_cgroup_limit(self, root);
}

/* v2: the lowest memory.max of the cgroup and its ancestors; "max" is none. */
static void test_v2(void **state)
{
	(void)state;
	put("v2/self", "0::/box/job\n");
	put("v2/fs/memory.max", "max\n"); /* in a container's namespace, its own limit sits at the root */
	put("v2/fs/box/memory.max", "536870912\n");
	put("v2/fs/box/job/memory.max", "max\n");
	assert_int_equal(limit_of("v2"), (size_t)512 << 20);

	put("v2root/self", "0::/\n");
	put("v2root/fs/memory.max", "268435456\n");
	assert_int_equal(limit_of("v2root"), (size_t)256 << 20);

	put("v2max/self", "0::/a\n");
	put("v2max/fs/a/memory.max", "max\n");
	assert_int_equal(limit_of("v2max"), 0);
}

/* v1: the memory controller's line (alone or with others); "no limit" is a
 * number near 2^63. */
static void test_v1(void **state)
{
	(void)state;
	put("v1/self", "3:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n1:name=systemd:/docker/abc\n");
	put("v1/fs/memory/docker/memory.limit_in_bytes", "1073741824\n");
	put("v1/fs/memory/docker/abc/memory.limit_in_bytes", "9223372036854771712\n");
	/* Not the memory controller's: never read. */
	put("v1/fs/cpu,cpuacct/docker/abc/memory.limit_in_bytes", "4096\n");
	assert_int_equal(limit_of("v1"), (size_t)1 << 30);

	put("v1joint/self", "5:cpuset,memory:/x\n");
	put("v1joint/fs/memory/x/memory.limit_in_bytes", "734003200\n");
	assert_int_equal(limit_of("v1joint"), (size_t)700 << 20);

	put("v1none/self", "4:memory:/y\n");
	put("v1none/fs/memory/y/memory.limit_in_bytes", "9223372036854771712\n");
	assert_int_equal(limit_of("v1none"), 0);
}

/* Hybrid (v1 memory beside a v2 line): the lower limit. Nothing readable:
 * no limit. */
static void test_hybrid_and_missing(void **state)
{
	(void)state;
	put("hybrid/self", "4:memory:/m\n0::/u\n");
	put("hybrid/fs/memory/m/memory.limit_in_bytes", "2147483648\n");
	put("hybrid/fs/u/memory.max", "1073741824\n");
	assert_int_equal(limit_of("hybrid"), (size_t)1 << 30);

	put("nofiles/self", "0::/gone\n4:memory:/gone\n");
	assert_int_equal(limit_of("nofiles"), 0);
	assert_int_equal(limit_of("nothing-at-all"), 0);
	put("garbage/self", "0::/g\n");
	put("garbage/fs/g/memory.max", "lots\n");
	assert_int_equal(limit_of("garbage"), 0);
}

/* What the engine checks a hash size against is never more than the RAM. */
static void test_available_is_at_most_physical(void **state)
{
	(void)state;
	size_t physical = bigmem_physical_bytes(), available = bigmem_available_bytes();
	assert_true(available > 0);
	assert_true(available <= physical);
	size_t limit = bigmem_cgroup_limit("/proc/self/cgroup", "/sys/fs/cgroup");
	if (limit && limit < physical)
		assert_int_equal(available, limit);
}

static int setup(void **state)
{
	*state = dir;
	return support_scratch_dir("test_bigmem", dir, sizeof dir) ? 0 : -1;
}

typedef struct CountJob {
	int runs;
} CountJob;

static void *count_run(void *arg)
{
	((CountJob *)arg)->runs++;
	return NULL;
}

/* The fork and join of the prefault and the database builder: every job
 * runs once, whether 1, a few or WORKERS_MAX are asked for. */
static void test_workers_run_every_job_once(void **state)
{
	(void)state;
	const int counts[] = {1, 3, WORKERS_MAX};
	for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
		CountJob jobs[WORKERS_MAX] = {{0}};
		workers_run(jobs, sizeof jobs[0], counts[k], count_run);
		for (int i = 0; i < WORKERS_MAX; i++)
			assert_int_equal(jobs[i].runs, i < counts[k] ? 1 : 0);
	}
	assert_int_equal(workers_clamp(0), 1);
	assert_int_equal(workers_clamp(1000), WORKERS_MAX);
}

/* A block starts on a cache line and is zero up to its rounded size; a
 * size that cannot be rounded is refused, not wrapped round. */
static void test_aligned_blocks_start_on_a_line_zeroed(void **state)
{
	(void)state;
	for (size_t bytes = 1; bytes <= 200; bytes += 33) {
		unsigned char *block = aligned_zalloc(bytes);
		assert_non_null(block);
		assert_int_equal((uintptr_t)block % ALIGNED_LINE, 0);
		size_t rounded = (bytes + ALIGNED_LINE - 1) / ALIGNED_LINE * ALIGNED_LINE;
		for (size_t i = 0; i < rounded; i++)
			assert_int_equal(block[i], 0);
		aligned_free(block);
	}
	assert_null(aligned_zalloc((size_t)-1));
	aligned_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_workers_run_every_job_once),
	    cmocka_unit_test(test_aligned_blocks_start_on_a_line_zeroed),
	    cmocka_unit_test(test_v2),
	    cmocka_unit_test(test_v1),
	    cmocka_unit_test(test_hybrid_and_missing),
	    cmocka_unit_test(test_available_is_at_most_physical),
	};
	return cmocka_run_group_tests(tests, setup, support_teardown_dir);
}
