/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bounded line reading and checked writing: endless, binary and oversized files fail with a named bound. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "poolshark/textfile.h"
#include "support/support.h"

static char dir[64];

static void write_bytes(const char *path, const char *bytes, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* Reads `path` to its end or first error; returns that and the error text. */
static TextRead read_all(const char *path, long long max_bytes, size_t line_size, int *lines, char *error)
{
	TextFile f;
	char line[64];
	TextRead r;
	assert_true(line_size <= sizeof line);
	*lines = 0;
	assert_true(textfile_open(&f, path, max_bytes, error, TEXTFILE_ERROR_MAX));
	while ((r = textfile_read_line(&f, line, line_size, error, TEXTFILE_ERROR_MAX)) == TEXT_LINE)
		++*lines;
	textfile_close(&f);
	return r;
}

static void test_lines_and_line_ends(void **state)
{
	(void)state;
	char path[128], error[TEXTFILE_ERROR_MAX], line[16];
	snprintf(path, sizeof path, "%s/ends.txt", dir);
	write_bytes(path, "one\r\n\ntwo\nlast", 14);
	TextFile f;
	assert_true(textfile_open(&f, path, 1000, error, sizeof error));
	const char *expected[] = {"one", "", "two", "last"};
	for (int i = 0; i < 4; i++) {
		assert_int_equal(textfile_read_line(&f, line, sizeof line, error, sizeof error), TEXT_LINE);
		assert_string_equal(line, expected[i]);
		assert_int_equal(f.line, i + 1);
	}
	assert_int_equal(textfile_read_line(&f, line, sizeof line, error, sizeof error), TEXT_END);
	textfile_close(&f);
}

/* /dev/zero: a NUL at once, named with the file and the line. */
static void test_endless_zeros_fail(void **state)
{
	(void)state;
	char error[TEXTFILE_ERROR_MAX];
	int lines;
	assert_int_equal(read_all("/dev/zero", 1 << 20, 64, &lines, error), TEXT_ERROR);
	assert_int_equal(lines, 0);
	assert_non_null(strstr(error, "/dev/zero:1:"));
	assert_non_null(strstr(error, "NUL"));
}

/* Bounds: the line length (buffer size) and the file size, each named. */
static void test_bounds_are_named(void **state)
{
	(void)state;
	char path[128], error[TEXTFILE_ERROR_MAX];
	int lines;
	snprintf(path, sizeof path, "%s/long.txt", dir);
	write_bytes(path, "short\n0123456789abcdef\n", 23);
	assert_int_equal(read_all(path, 1000, 16, &lines, error), TEXT_ERROR);
	assert_int_equal(lines, 1);
	assert_non_null(strstr(error, ":2: a line longer than 14 bytes"));
	/* The same file fits a bigger line, but not a 10-byte file limit. */
	assert_int_equal(read_all(path, 1000, 64, &lines, error), TEXT_END);
	assert_int_equal(lines, 2);
	assert_int_equal(read_all(path, 10, 64, &lines, error), TEXT_ERROR);
	assert_non_null(strstr(error, "larger than 10 bytes"));
	/* Exactly at the limit is allowed. */
	assert_int_equal(read_all(path, 23, 64, &lines, error), TEXT_END);
}

/* A directory opens on Linux but cannot be read: an error, not an empty file. */
static void test_unreadable(void **state)
{
	(void)state;
	char error[TEXTFILE_ERROR_MAX], missing[128];
	int lines;
	TextFile f;
	assert_int_equal(read_all(dir, 1000, 64, &lines, error), TEXT_ERROR);
	snprintf(missing, sizeof missing, "%s/none", dir);
	assert_false(textfile_open(&f, missing, 1000, error, sizeof error));
	assert_non_null(strstr(error, missing));
	textfile_close(&f);
}

static void test_finish_reports_lost_writes(void **state)
{
	(void)state;
	char error[TEXTFILE_ERROR_MAX], path[128];
	FILE *full = fopen("/dev/full", "w");
	assert_non_null(full);
	fputs("lost\n", full);
	assert_false(textfile_finish(full, "/dev/full", error, sizeof error));
	assert_non_null(strstr(error, "writing /dev/full failed"));
	snprintf(path, sizeof path, "%s/out.txt", dir);
	FILE *fine = fopen(path, "w");
	assert_non_null(fine);
	fputs("kept\n", fine);
	assert_true(textfile_finish(fine, path, error, sizeof error));
}

static int setup(void **state)
{
	*state = dir;
	return support_scratch_dir("test_textfile", dir, sizeof dir) ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lines_and_line_ends),        cmocka_unit_test(test_endless_zeros_fail),
	    cmocka_unit_test(test_bounds_are_named),           cmocka_unit_test(test_unreadable),
	    cmocka_unit_test(test_finish_reports_lost_writes),
	};
	return cmocka_run_group_tests(tests, setup, support_teardown_dir);
}
