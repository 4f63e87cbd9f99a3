/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The WebAssembly build's strtonum (web/compat) gives libbsd's answer on every input here. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <bsd/stdlib.h>
#include <stdio.h>
#include <string.h>

/* The compat source under another name, so both can be linked here. */
#define strtonum compat_strtonum
#include "../web/compat/strtonum.c"
#undef strtonum

typedef struct Case {
	const char *text;
	long long min, max;
} Case;

static const Case cases[] = {
    {"0", 0, 100},
    {"100", 0, 100},
    {"101", 0, 100},
    {"-1", 0, 100},
    {"-1", -5, 5},
    {"", 0, 100},
    {"12x", 0, 100},
    {"x12", 0, 100},
    {" 7", 0, 100},
    {"+7", 0, 100},
    {"7 ", 0, 100},
    {"0x10", 0, 100},
    {"010", 0, 100},
    {"--1", -5, 5},
    {"9223372036854775807", 0, 9223372036854775807LL},
    {"9223372036854775808", 0, 9223372036854775807LL},
    {"-9223372036854775808", -9223372036854775807LL - 1, 0},
    {"-9223372036854775809", -9223372036854775807LL - 1, 0},
    {"99999999999999999999999", 0, 100},
    {"-99999999999999999999999", 0, 100},
    {"5", 10, 1},
    {"11", 10, 1},
    {"1000000000000000", 1, 1000000000000000LL},
    {"1000000000000001", 1, 1000000000000000LL},
};

static void test_same_answers_as_libbsd(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const Case *c = &cases[i];
		const char *want_problem = NULL, *got_problem = NULL;
		long long want = strtonum(c->text, c->min, c->max, &want_problem);
		long long got = compat_strtonum(c->text, c->min, c->max, &got_problem);
		if (want != got || (want_problem == NULL) != (got_problem == NULL) ||
		    (want_problem && strcmp(want_problem, got_problem))) {
			fprintf(stderr, "'%s' in %lld..%lld: libbsd %lld (%s), compat %lld (%s)\n", c->text,
			        c->min, c->max, want, want_problem ? want_problem : "ok", got,
			        got_problem ? got_problem : "ok");
			fail();
		}
	}
}

static void test_problem_may_be_null(void **state)
{
	(void)state;
	assert_int_equal(compat_strtonum("42", 0, 100, NULL), 42);
	assert_int_equal(compat_strtonum("420", 0, 100, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_answers_as_libbsd),
	    cmocka_unit_test(test_problem_may_be_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
