/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tools' command lines: values stored by kind, words in order, and the messages of bad ones. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmdline.h"

/* The fields of a made-up program, and what its setters saw. */
typedef struct Fields {
	bool quiet, adjudicate;
	const char *out;
	int games, choice, shard_index, shard_count, engine_words;
	long long nodes;
	double margin;
	Variant variant;
	char seen[256]; /* every setter call, in order */
	CmdlineOperands operands;
} Fields;

static void note(Fields *f, const char *what)
{
	size_t at = strlen(f->seen);
	snprintf(f->seen + at, sizeof f->seen - at, "%s%s", at ? " " : "", what);
}

static bool set_limit(void *context, const char *value, char *problem, size_t size)
{
	if (!strcmp(value, "bad")) {
		snprintf(problem, size, "%s is not a limit", value);
		return false;
	}
	note(context, value);
	return true;
}

static bool begin_engine(void *context, const char *value, char *problem, size_t size)
{
	(void)value, (void)problem, (void)size;
	((Fields *)context)->engine_words = 0;
	note(context, "[");
	return true;
}

static bool engine_word(void *context, char *word, char *problem, size_t size)
{
	if (!strchr(word, '=')) {
		snprintf(problem, size, "expected key=value, got '%s'", word);
		return false;
	}
	((Fields *)context)->engine_words++;
	note(context, word);
	return true;
}

static bool end_engine(void *context, char *problem, size_t size)
{
	if (((Fields *)context)->engine_words == 0) {
		snprintf(problem, size, "needs cmd=COMMAND");
		return false;
	}
	note(context, "]");
	return true;
}

/* What one run printed on a stream: standard error or output moved to a file for the call. */
typedef struct Captured {
	bool run;
	int status; /* when not run */
	char text[8192];
} Captured;

static void parse(Fields *f, int argc, const char *const *words, int fd, Captured *out)
{
	*f = (Fields){.adjudicate = true, .games = 1000, .choice = -1, .shard_count = 1, .margin = 0.1};
	const CmdlineOption options[] = {
	    cmdline_on("quiet", &f->quiet, "no progress"),
	    cmdline_off("no-adjudicate", &f->adjudicate, "play on"),
	    cmdline_required(cmdline_text("out", "FILE", &f->out, "the file")),
	    cmdline_int("games", "N", &f->games, 1, 5000, "games\nand a second line"),
	    cmdline_long("nodes", "N", &f->nodes, 1, 1LL << 40, "nodes"),
	    cmdline_decimal("margin", "S", &f->margin, 0, 3600, "seconds"),
	    cmdline_choice("eval", "classic net", &f->choice, "evaluation"),
	    cmdline_variant("variant", &f->variant, "rules"),
	    cmdline_shard("shard", "K/N", &f->shard_index, &f->shard_count, "a slice"),
	    cmdline_call("depth", "D", set_limit, "a limit"),
	    cmdline_call("depth-b", "D", set_limit, "another"),
	    cmdline_words("engine", "KEY=VALUE...", begin_engine, engine_word, end_engine, "an engine"),
	};
	const Cmdline cmdline = {.program = "toy",
	                         .synopsis = "usage: toy --out FILE [OPTIONS] WORDS...\n",
	                         .options = options,
	                         .count = sizeof options / sizeof options[0],
	                         .operands = &f->operands,
	                         .context = f};
	char *argv[32] = {"toy"};
	for (int i = 1; i < argc; i++)
		argv[i] = (char *)words[i - 1];
	char path[] = "/tmp/test_cmdline.XXXXXX";
	int file = mkstemp(path), saved = dup(fd);
	assert_true(file >= 0 && saved >= 0);
	fflush(fd == 1 ? stdout : stderr);
	dup2(file, fd);
	out->status = -1;
	out->run = cmdline_parse(&cmdline, argc, argv, &out->status);
	fflush(fd == 1 ? stdout : stderr);
	dup2(saved, fd);
	close(saved);
	ssize_t n = pread(file, out->text, sizeof out->text - 1, 0);
	out->text[n > 0 ? n : 0] = '\0';
	close(file);
	unlink(path);
}

#define PARSE(f, out, fd, ...)                                                                               \
	do {                                                                                                 \
		const char *const words_[] = {__VA_ARGS__};                                                  \
		parse(f, 1 + (int)(sizeof words_ / sizeof words_[0]), words_, fd, out);                      \
	} while (0)

static void test_each_kind_stores_its_value(void **state)
{
	(void)state;
	Fields f;
	Captured c;
	PARSE(&f, &c, 2, "--out", "x.data", "--quiet", "--no-adjudicate", "--games", "12",
	      "--nodes=1099511627776", "--margin", "0.25", "--eval", "net", "--variant", "russian", "--shard",
	      "3/4");
	assert_true(c.run);
	assert_string_equal(c.text, "");
	assert_string_equal(f.out, "x.data");
	assert_true(f.quiet);
	assert_false(f.adjudicate);
	assert_int_equal(f.games, 12);
	assert_true(f.nodes == 1LL << 40);
	assert_true(f.margin == 0.25);
	assert_int_equal(f.choice, 1);
	assert_int_equal(f.variant, VARIANT_RUSSIAN);
	assert_int_equal(f.shard_index, 2);
	assert_int_equal(f.shard_count, 4);
	/* What is not given keeps the value set before; a name may be shortened. */
	PARSE(&f, &c, 2, "--ou", "y", "--quie");
	assert_true(c.run);
	assert_string_equal(f.out, "y");
	assert_true(f.quiet);
	assert_true(f.adjudicate);
	assert_int_equal(f.games, 1000);
	assert_int_equal(f.choice, -1);
	assert_int_equal(f.shard_count, 1);
}

/* Setters and the words of a CMDLINE_WORDS option in the order given; the other words are operands. */
static void test_words_go_where_they_stand(void **state)
{
	(void)state;
	Fields f;
	Captured c;
	PARSE(&f, &c, 2, "first", "--engine", "cmd=a", "name=b", "--depth", "7", "--out", "z", "second",
	      "--engine", "cmd=c", "--", "--last");
	assert_true(c.run);
	assert_string_equal(f.seen, "[ cmd=a name=b ] 7 [ cmd=c ]");
	assert_int_equal(f.operands.count, 3);
	assert_string_equal(f.operands.words[0], "first");
	assert_string_equal(f.operands.words[1], "second");
	assert_string_equal(f.operands.words[2], "--last");
	cmdline_operands_free(&f.operands);
}

/* Each refusal names the option and the value, then the usage; exit 2. */
static void test_bad_words_are_named(void **state)
{
	(void)state;
	static const struct {
		const char *words[4];
		const char *message;
	} cases[] = {
	    {{"--frob", "1"}, "toy: --frob: unknown option\nusage: toy"},
	    {{"--out"}, "toy: --out: needs a value\n"},
	    {{"--out", "x", "--games", "0"}, "toy: --games: 0 is too small (from 1 to 5000)\n"},
	    {{"--out", "x", "--games", "5e3"}, "toy: --games: 5e3 is not a whole number (from 1 to 5000)\n"},
	    {{"--out", "x", "--margin", "-1"}, "toy: --margin: -1 is negative (from 0 to 3600)\n"},
	    {{"--out", "x", "--eval", "fast"}, "toy: --eval: unknown value `fast` (known: classic net)\n"},
	    {{"--out", "x", "--variant", "go"}, "toy: --variant: unknown variant `go` (known: pool russian"},
	    {{"--out", "x", "--shard", "3/2"}, "toy: --shard: 3/2 is not K/N with 1 <= K <= N\n"},
	    {{"--out", "x", "--depth", "bad"}, "toy: --depth: bad is not a limit\n"},
	    {{"--out", "x", "--dep", "3"}, "toy: --dep: ambiguous option (--depth --depth-b)\n"},
	    {{"--out", "x", "--quiet=yes"}, "toy: --quiet: takes no value\n"},
	    {{"--out", "x", "-q"}, "toy: -q: unknown option\n"},
	    {{"--games", "3"}, "toy: --out FILE is required\n"},
	    {{"--out", "x", "--engine", "cmd"}, "toy: --engine: expected key=value, got 'cmd'\n"},
	    {{"--out", "x", "--engine"}, "toy: --engine: needs cmd=COMMAND\n"},
	    {{"--engine", "--out", "x"}, "toy: --engine: needs cmd=COMMAND\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Fields f;
		Captured c;
		int argc = 1;
		while (argc <= 4 && cases[i].words[argc - 1])
			argc++;
		parse(&f, argc, cases[i].words, 2, &c);
		if (c.run || c.status != CMDLINE_USAGE_ERROR ||
		    strncmp(c.text, cases[i].message, strlen(cases[i].message)) ||
		    !strstr(c.text, "usage: toy"))
			fail_msg("case %zu: exit %d, printed:\n%s\nexpected first:\n%s", i, c.status, c.text,
			         cases[i].message);
	}
}

/* --help: the usage on standard output, every option on a line with its value and help; exit 0. */
static void test_help_lists_every_option(void **state)
{
	(void)state;
	Fields f;
	Captured c;
	PARSE(&f, &c, 1, "--games", "3", "--help", "--frob");
	assert_false(c.run);
	assert_int_equal(c.status, 0);
	static const char *const lines[] = {
	    "usage: toy --out FILE [OPTIONS] WORDS...\n",
	    "\n  -h, --help              this text\n",
	    "\n  --no-adjudicate         play on\n",
	    "\n  --games N               games\n                          and a second line\n",
	    "\n  --eval classic|net      evaluation\n",
	    "\n  --variant " VARIANT_CHOICES "\n                          rules\n",
	    "\n  --shard K/N             a slice\n",
	    "\n  --engine KEY=VALUE...   an engine\n",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		if (!strstr(c.text, lines[i]))
			fail_msg("no \"%s\" in:\n%s", lines[i], c.text);
	PARSE(&f, &c, 1, "-h");
	assert_false(c.run);
	assert_int_equal(c.status, 0);
	assert_non_null(strstr(c.text, "usage: toy"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_each_kind_stores_its_value),
	    cmocka_unit_test(test_words_go_where_they_stand),
	    cmocka_unit_test(test_bad_words_are_named),
	    cmocka_unit_test(test_help_lists_every_option),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
