/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the Hub line tokenizer, the quoting writer and the bounded line reader. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "poolshark/hubline.h"
#include "support/support.h"

static void test_parse_keys_words_and_quotes(void **state)
{
	(void)state;
	char text[] = "pos  pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww\tmoves=\"11-15 22-18\" flag empty=\"\"";
	HubLine line;
	char error[HUBLINE_ERROR_MAX];
	assert_true(hubline_parse(text, &line, error, sizeof error));
	assert_string_equal(line.command, "pos");
	assert_int_equal(line.count, 4);
	assert_string_equal(hubline_value(&line, "pos"), "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
	assert_string_equal(hubline_value(&line, "moves"), "11-15 22-18");
	assert_string_equal(hubline_value(&line, "empty"), "");
	assert_null(hubline_value(&line, "flag"));
	assert_true(hubline_has_word(&line, "flag"));
	assert_false(hubline_has_word(&line, "pos"));
	assert_string_equal(hubline_word(&line, 0), "flag");
	assert_null(hubline_word(&line, 1));
}

static void test_parse_blank_and_bare_words(void **state)
{
	(void)state;
	HubLine line;
	char blank[] = " \t  ";
	assert_true(hubline_parse(blank, &line, NULL, 0));
	assert_null(line.command);
	char words[] = "set hash 128";
	assert_true(hubline_parse(words, &line, NULL, 0));
	assert_string_equal(line.command, "set");
	assert_string_equal(hubline_word(&line, 0), "hash");
	assert_string_equal(hubline_word(&line, 1), "128");
}

static void expect_parse_error(const char *input, const char *fragment)
{
	char text[256];
	snprintf(text, sizeof text, "%s", input);
	HubLine line;
	char error[HUBLINE_ERROR_MAX] = "";
	assert_false(hubline_parse(text, &line, error, sizeof error));
	if (!strstr(error, fragment))
		fail_msg("'%s': message '%s' lacks '%s'", input, error, fragment);
}

static void test_parse_errors_are_named(void **state)
{
	(void)state;
	expect_parse_error("pos moves=\"11-15 22-18", "quote never closes");
	expect_parse_error("pos moves=\"11-15\"x", "after a closing quote");
	expect_parse_error("pos mo\"ves", "quote inside a word");
	expect_parse_error("pos moves=a\"b", "quote inside a value");
	expect_parse_error("pos =x", "without a key");
	expect_parse_error("a=b c", "start with a command");
	char many[512] = "go";
	for (int i = 0; i <= HUBLINE_MAX_TOKENS; i++)
		strcat(many, " w");
	expect_parse_error(many, "too many arguments");
}

static void test_check_bytes(void **state)
{
	(void)state;
	char error[HUBLINE_ERROR_MAX];
	assert_true(hubline_check_bytes("go\tthink", 8, error, sizeof error));
	assert_false(hubline_check_bytes("go\0think", 8, error, sizeof error));
	assert_non_null(strstr(error, "NUL"));
	assert_false(hubline_check_bytes("caf\xc3\xa9", 5, error, sizeof error));
	assert_non_null(strstr(error, "non-ASCII byte (0xc3)"));
	assert_false(hubline_check_bytes("a\x1b[0m", 5, error, sizeof error));
	assert_non_null(strstr(error, "control character (0x1b)"));
}

static void test_writer_quotes_only_when_needed(void **state)
{
	(void)state;
	char buffer[128];
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "info");
	hubwriter_add(&w, "depth", "7");
	hubwriter_add(&w, "pv", "11-15 22-18");
	hubwriter_add(&w, "empty", "");
	hubwriter_add(&w, "eq", "a=b");
	hubwriter_add(&w, "q", "say \"hi\"");
	hubwriter_word(&w, "bare");
	hubwriter_word(&w, "two words");
	hubwriter_addf(&w, "score", "%.2f", -0.5);
	assert_false(w.truncated);
	assert_string_equal(buffer, "info depth=7 pv=\"11-15 22-18\" empty=\"\" eq=\"a=b\" q=\"say 'hi'\" "
	                            "bare \"two words\" score=-0.50");
}

/* Whatever the writer prints, the parser reads back as the same values. */
static void test_writer_round_trips_through_parser(void **state)
{
	(void)state;
	static const char alphabet[] = "ab =\t-x\"19";
	Rng rng = {12345};
	for (int round = 0; round < 2000; round++) {
		char values[3][16];
		char buffer[256];
		HubWriter w;
		hubwriter_init(&w, buffer, sizeof buffer, "cmd");
		for (int v = 0; v < 3; v++) {
			int n = rng_below(&rng, 8);
			for (int i = 0; i < n; i++)
				values[v][i] = alphabet[rng_below(&rng, (int)sizeof alphabet - 1)];
			values[v][n] = '\0';
			char key[4] = {'k', (char)('0' + v), '\0', '\0'};
			hubwriter_add(&w, key, values[v]);
		}
		HubLine line;
		char error[HUBLINE_ERROR_MAX];
		if (!hubline_parse(buffer, &line, error, sizeof error))
			fail_msg("writer made an unreadable line: %s", error);
		assert_int_equal(line.count, 3);
		for (int v = 0; v < 3; v++) {
			char expected[16];
			for (int i = 0; (expected[i] = values[v][i] == '"' ? '\'' : values[v][i]); i++)
				;
			assert_string_equal(line.tokens[v].value, expected);
		}
	}
}

static void test_writer_never_cuts_an_argument(void **state)
{
	(void)state;
	char buffer[24];
	HubWriter w;
	hubwriter_init(&w, buffer, sizeof buffer, "done");
	hubwriter_add(&w, "move", "11-15");
	hubwriter_add(&w, "ponder", "22-18 and more text");
	assert_true(w.truncated);
	assert_string_equal(buffer, "done move=11-15");
	HubLine line;
	assert_true(hubline_parse(buffer, &line, NULL, 0));
	assert_int_equal(line.count, 1);
}

static void test_reader_resyncs_after_long_line(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	assert_non_null(f);
	fputs("hub\r\nping\n", f);
	for (int i = 0; i < 1024 * 1024; i++)
		fputc('x', f);
	fputs("\nlast", f);
	fflush(f);
	rewind(f);
	LineReader r;
	assert_true(linereader_init(&r, fileno(f)));
	const char *line;
	size_t length;
	assert_int_equal(linereader_next(&r, &line, &length), LINE_OK);
	assert_string_equal(line, "hub");
	assert_int_equal(linereader_next(&r, &line, &length), LINE_OK);
	assert_string_equal(line, "ping");
	assert_int_equal(linereader_next(&r, &line, &length), LINE_TOO_LONG);
	assert_int_equal(linereader_next(&r, &line, &length), LINE_OK);
	assert_string_equal(line, "last");
	assert_int_equal(length, 4);
	assert_int_equal(linereader_next(&r, &line, &length), LINE_EOF);
	linereader_free(&r);
	fclose(f);
}

static void test_reader_keeps_nul_bytes_countable(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	assert_non_null(f);
	fwrite("pi\0ng\n", 1, 6, f);
	fflush(f);
	rewind(f);
	LineReader r;
	assert_true(linereader_init(&r, fileno(f)));
	const char *line;
	size_t length;
	assert_int_equal(linereader_next(&r, &line, &length), LINE_OK);
	assert_int_equal(length, 5);
	assert_false(hubline_check_bytes(line, length, NULL, 0));
	assert_int_equal(linereader_next(&r, &line, &length), LINE_EOF);
	linereader_free(&r);
	fclose(f);
}

/* The limit counts the text only: the longest line is accepted with "\n"
 * and with "\r\n", one byte more is refused with either ending. */
static void test_reader_limit_without_line_ending(void **state)
{
	(void)state;
	static const char *const endings[] = {"\n", "\r\n"};
	for (int e = 0; e < 2; e++) {
		FILE *f = tmpfile();
		assert_non_null(f);
		for (int extra = 0; extra < 2; extra++) {
			for (int i = 0; i < HUBLINE_MAX_LENGTH + extra; i++)
				fputc('x', f);
			fputs(endings[e], f);
		}
		fputs("ping\r\n", f);
		fflush(f);
		rewind(f);
		LineReader r;
		assert_true(linereader_init(&r, fileno(f)));
		const char *line;
		size_t length;
		assert_int_equal(linereader_next(&r, &line, &length), LINE_OK);
		assert_int_equal(length, HUBLINE_MAX_LENGTH);
		assert_int_equal(line[length - 1], 'x');
		assert_int_equal(linereader_next(&r, &line, &length), LINE_TOO_LONG);
		assert_int_equal(linereader_next(&r, &line, &length), LINE_OK);
		assert_string_equal(line, "ping");
		assert_int_equal(linereader_next(&r, &line, &length), LINE_EOF);
		linereader_free(&r);
		fclose(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_keys_words_and_quotes),
	    cmocka_unit_test(test_parse_blank_and_bare_words),
	    cmocka_unit_test(test_parse_errors_are_named),
	    cmocka_unit_test(test_check_bytes),
	    cmocka_unit_test(test_writer_quotes_only_when_needed),
	    cmocka_unit_test(test_writer_round_trips_through_parser),
	    cmocka_unit_test(test_writer_never_cuts_an_argument),
	    cmocka_unit_test(test_reader_resyncs_after_long_line),
	    cmocka_unit_test(test_reader_keeps_nul_bytes_countable),
	    cmocka_unit_test(test_reader_limit_without_line_ending),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
