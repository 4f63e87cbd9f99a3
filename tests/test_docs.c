/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The figures and transcripts of doc/PROTOCOL.md, checked against the real binary so that they cannot drift.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TEXT_MAX = 1 << 17, NAMES_MAX = 32 };

static char engine[1024];

/* The whole of a file, or of a command's output; NULL-free text. */
static char *read_all(FILE *f)
{
	char *text = malloc(TEXT_MAX);
	assert_non_null(text);
	size_t n = fread(text, 1, TEXT_MAX - 1, f);
	text[n] = '\0';
	return text;
}

static char *read_doc(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s (run from the top of the tree, as make test does)", path);
	char *text = read_all(f);
	fclose(f);
	return text;
}

/* What the engine answers to `lines` (sent through a shell printf). */
static char *engine_output(const char *lines)
{
	char command[2048];
	snprintf(command, sizeof command, "printf '%s' | %s", lines, engine);
	FILE *f = popen(command, "r");
	assert_non_null(f);
	char *text = read_all(f);
	assert_int_equal(pclose(f), 0);
	return text;
}

/* The names of the `param name=X` lines of text from `from` on, up to the
 * first `wait`. */
static int param_names(const char *text, const char *prefix, char names[][32])
{
	int count = 0;
	char pattern[64];
	snprintf(pattern, sizeof pattern, "%sparam name=", prefix);
	const char *end = strstr(text, "wait");
	for (const char *s = text; (s = strstr(s, pattern)) && (!end || s < end) && count < NAMES_MAX; s++) {
		const char *name = s + strlen(pattern);
		size_t n = strcspn(name, " \n");
		assert_true(n < 32);
		memcpy(names[count], name, n);
		names[count++][n] = '\0';
	}
	return count;
}

/* The handshake shown for a GUI declares the options the engine declares,
 * in its order (it once lacked egdb-path). */
static void test_handshake_params_match(void **state)
{
	(void)state;
	char *doc = read_doc("doc/PROTOCOL.md");
	const char *block = strstr(doc, "### A GUI's handshake and one move");
	assert_non_null(block);
	char shown[NAMES_MAX][32], real[NAMES_MAX][32];
	int shown_count = param_names(block, "< ", shown);
	char *out = engine_output("hub\\nquit\\n");
	int real_count = param_names(out, "", real);
	assert_true(real_count > 0);
	if (shown_count != real_count)
		fail_msg("doc/PROTOCOL.md shows %d param lines, the engine sends %d:\n%s", shown_count,
		         real_count, out);
	for (int i = 0; i < real_count; i++)
		if (strcmp(shown[i], real[i]))
			fail_msg("param %d: the doc shows %s, the engine sends %s", i + 1, shown[i], real[i]);
	free(out);
	free(doc);
}

/* The node count of `bench position=N` in text, or -1. */
static long bench_position_nodes(const char *text, const char *prefix, int position)
{
	char pattern[64];
	snprintf(pattern, sizeof pattern, "%sbench position=%d nodes=", prefix, position);
	const char *s = strstr(text, pattern);
	return s ? strtol(s + strlen(pattern), NULL, 10) : -1;
}

/* The bench example: every position shown, the total, and the sentence
 * about `poolshark bench 4` give the binary's figures. */
static void test_bench_example_matches(void **state)
{
	(void)state;
	char *doc = read_doc("doc/PROTOCOL.md");
	char *out = engine_output("bench depth=4\\nquit\\n");
	int shown = 0;
	for (int position = 1; position <= 64; position++) {
		long documented = bench_position_nodes(doc, "< ", position);
		if (documented < 0)
			continue;
		shown++;
		long real = bench_position_nodes(out, "", position);
		if (real != documented)
			fail_msg("bench position %d: the doc shows %ld nodes, the engine searches %ld",
			         position, documented, real);
	}
	assert_true(shown >= 2);
	const char *total_doc = strstr(doc, "< bench depth=4 nodes="),
	           *total_real = strstr(out, "bench depth=4 nodes=");
	assert_non_null(total_doc);
	assert_non_null(total_real);
	long documented = strtol(total_doc + strlen("< bench depth=4 nodes="), NULL, 10);
	long real = strtol(total_real + strlen("bench depth=4 nodes="), NULL, 10);
	if (documented != real)
		fail_msg("bench depth=4: the doc shows %ld nodes, the engine searches %ld", documented, real);
	const char *same = strstr(doc, "(`poolshark bench 4` prints the same ");
	assert_non_null(same);
	assert_int_equal(strtol(same + strlen("(`poolshark bench 4` prints the same "), NULL, 10), real);
	free(out);
	free(doc);
}

int main(void)
{
	const char *bin = getenv("POOLSHARK_BIN");
	snprintf(engine, sizeof engine, "%s", bin ? bin : "./poolshark");
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_handshake_params_match),
	    cmocka_unit_test(test_bench_example_matches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
