/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tools' command lines: getopt_long's table and the usage, both made from one table of options. */
#include "cmdline.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/number.h"

/* getopt_long's code for option i is FIRST_CODE + i, clear of every character. */
enum { FIRST_CODE = 256, NAME_COLUMN = 26 };

CmdlineOption cmdline_on(const char *name, bool *flag, const char *help)
{
	return (CmdlineOption){.name = name, .kind = CMDLINE_ON, .help = help, .to.flag = flag};
}

CmdlineOption cmdline_off(const char *name, bool *flag, const char *help)
{
	return (CmdlineOption){.name = name, .kind = CMDLINE_OFF, .help = help, .to.flag = flag};
}

CmdlineOption cmdline_text(const char *name, const char *value, const char **text, const char *help)
{
	return (CmdlineOption){
	    .name = name, .kind = CMDLINE_TEXT, .value_name = value, .help = help, .to.text = text};
}

CmdlineOption cmdline_int(const char *name, const char *value, int *number, long long min, long long max,
                          const char *help)
{
	return (CmdlineOption){.name = name,
	                       .kind = CMDLINE_INT,
	                       .value_name = value,
	                       .help = help,
	                       .min = min,
	                       .max = max,
	                       .to.number = number};
}

CmdlineOption cmdline_long(const char *name, const char *value, long long *number, long long min,
                           long long max, const char *help)
{
	return (CmdlineOption){.name = name,
	                       .kind = CMDLINE_LONG,
	                       .value_name = value,
	                       .help = help,
	                       .min = min,
	                       .max = max,
	                       .to.big = number};
}

CmdlineOption cmdline_decimal(const char *name, const char *value, double *number, double low, double high,
                              const char *help)
{
	return (CmdlineOption){.name = name,
	                       .kind = CMDLINE_DECIMAL,
	                       .value_name = value,
	                       .help = help,
	                       .low = low,
	                       .high = high,
	                       .to.decimal = number};
}

CmdlineOption cmdline_choice(const char *name, const char *choices, int *choice, const char *help)
{
	return (CmdlineOption){
	    .name = name, .kind = CMDLINE_CHOICE, .choices = choices, .help = help, .to.choice = choice};
}

CmdlineOption cmdline_variant(const char *name, Variant *variant, const char *help)
{
	return (CmdlineOption){.name = name, .kind = CMDLINE_VARIANT, .help = help, .to.variant = variant};
}

CmdlineOption cmdline_shard(const char *name, const char *value, int *index, int *count, const char *help)
{
	return (CmdlineOption){.name = name,
	                       .kind = CMDLINE_SHARD,
	                       .value_name = value,
	                       .help = help,
	                       .to.shard.index = index,
	                       .to.shard.count = count};
}

CmdlineOption cmdline_call(const char *name, const char *value,
                           bool (*set)(void *context, const char *value, char *problem, size_t size),
                           const char *help)
{
	return (CmdlineOption){
	    .name = name, .kind = CMDLINE_CALL, .value_name = value, .help = help, .set = set};
}

CmdlineOption cmdline_words(const char *name, const char *value,
                            bool (*set)(void *context, const char *value, char *problem, size_t size),
                            bool (*word)(void *context, char *word, char *problem, size_t size),
                            bool (*finish)(void *context, char *problem, size_t size), const char *help)
{
	return (CmdlineOption){.name = name,
	                       .kind = CMDLINE_WORDS,
	                       .value_name = value,
	                       .help = help,
	                       .set = set,
	                       .word = word,
	                       .finish = finish};
}

CmdlineOption cmdline_required(CmdlineOption option)
{
	option.required = true;
	return option;
}

/* The value of an option as the usage shows it, "" for none. */
static void value_of(const CmdlineOption *o, char *out, size_t size)
{
	const char *shown = o->value_name;
	if (!shown)
		switch (o->kind) {
		case CMDLINE_INT:
		case CMDLINE_LONG: shown = "N"; break;
		case CMDLINE_DECIMAL: shown = "X"; break;
		case CMDLINE_VARIANT: shown = VARIANT_CHOICES; break;
		case CMDLINE_SHARD: shown = "K/N"; break;
		case CMDLINE_TEXT:
		case CMDLINE_CALL: shown = "VALUE"; break;
		case CMDLINE_CHOICE: shown = o->choices; break;
		default: shown = ""; break;
		}
	snprintf(out, size, "%s", shown);
	if (o->kind == CMDLINE_CHOICE && !o->value_name)
		for (char *space = strchr(out, ' '); space; space = strchr(space, ' '))
			*space = '|';
}

/* One line of the usage per option; the help's further lines under its first. */
static void print_option(FILE *out, const char *name, const char *value, const char *help)
{
	int width = fprintf(out, "  %s%s%s", name, value[0] ? " " : "", value);
	if (width > NAME_COLUMN - 2) {
		fputc('\n', out);
		width = 0;
	}
	for (const char *line = help; line;) {
		const char *end = strchr(line, '\n');
		int length = end ? (int)(end - line) : (int)strlen(line);
		fprintf(out, "%*s%.*s\n", NAME_COLUMN - width, "", length, line);
		width = 0;
		line = end ? end + 1 : NULL;
	}
}

void cmdline_usage(const Cmdline *c, FILE *out)
{
	fputs(c->synopsis, out);
	fputs("\nOptions:\n", out);
	print_option(out, "-h, --help", "", "this text");
	for (int i = 0; i < c->count; i++) {
		const CmdlineOption *o = &c->options[i];
		char name[64], value[128];
		snprintf(name, sizeof name, "--%s", o->name);
		value_of(o, value, sizeof value);
		print_option(out, name, value, o->help ? o->help : "");
	}
}

int cmdline_fail(const Cmdline *c, const char *format, ...)
{
	va_list args;
	fprintf(stderr, "%s: ", c->program);
	va_start(args, format);
	vfprintf(stderr, format, args);
	va_end(args);
	fputc('\n', stderr);
	cmdline_usage(c, stderr);
	return CMDLINE_USAGE_ERROR;
}

/* "K/N" with 1 <= K <= N. */
static bool parse_shard(const char *text, int *index, int *count)
{
	char k[24];
	const char *slash = strchr(text, '/');
	long long kn, n;
	if (!slash || (size_t)(slash - text) >= sizeof k)
		return false;
	memcpy(k, text, (size_t)(slash - text));
	k[slash - text] = '\0';
	if (number_parse(slash + 1, 1, 1000000, &n) || number_parse(k, 1, n, &kn))
		return false;
	*index = (int)kn - 1;
	*count = (int)n;
	return true;
}

/* The index of `word` among the space-separated `names`, or -1. */
static int choice_index(const char *names, const char *word)
{
	size_t length = strlen(word);
	int index = 0;
	for (const char *at = names; *at; index++) {
		size_t n = strcspn(at, " ");
		if (n == length && !strncmp(at, word, n))
			return index;
		at += n + (at[n] == ' ');
	}
	return -1;
}

bool cmdline_read_number(const char *text, long long min, long long max, long long *out, char *problem,
                         size_t size)
{
	const char *why = number_parse(text, min, max, out);
	if (why)
		snprintf(problem, size, "%s is %s (from %lld to %lld)", text, why, min, max);
	return !why;
}

/* Stores `value` as option o says; false with the problem. */
static bool apply(const Cmdline *c, const CmdlineOption *o, const char *value, char *problem, size_t size)
{
	const char *why = NULL;
	long long whole = 0;
	switch (o->kind) {
	case CMDLINE_ON: *o->to.flag = true; return true;
	case CMDLINE_OFF: *o->to.flag = false; return true;
	case CMDLINE_TEXT: *o->to.text = value; return true;
	case CMDLINE_INT:
	case CMDLINE_LONG:
		if (!cmdline_read_number(value, o->min, o->max, &whole, problem, size))
			return false;
		if (o->kind == CMDLINE_INT)
			*o->to.number = (int)whole;
		else
			*o->to.big = whole;
		return true;
	case CMDLINE_DECIMAL:
		if ((why = number_parse_decimal(value, o->low, o->high, o->to.decimal))) {
			snprintf(problem, size, "%s is %s (from %g to %g)", value, why, o->low, o->high);
			return false;
		}
		return true;
	case CMDLINE_CHOICE:
		if ((*o->to.choice = choice_index(o->choices, value)) < 0) {
			snprintf(problem, size, "unknown value `%s` (known: %s)", value, o->choices);
			return false;
		}
		return true;
	case CMDLINE_VARIANT:
		if (!variant_parse(value, o->to.variant)) {
			snprintf(problem, size, "unknown variant `%s` (known: %s)", value, VARIANT_NAMES);
			return false;
		}
		return true;
	case CMDLINE_SHARD:
		if (!parse_shard(value, o->to.shard.index, o->to.shard.count)) {
			snprintf(problem, size, "%s is not K/N with 1 <= K <= N", value);
			return false;
		}
		return true;
	case CMDLINE_CALL: return o->set(c->context, value, problem, size);
	case CMDLINE_WORDS: return !o->set || o->set(c->context, NULL, problem, size);
	}
	return false;
}

/* Names the option getopt_long refused: unknown, ambiguous, or given a value it does not take. */
static void refused(const Cmdline *c, const char *word, int code, char *problem, size_t size)
{
	if (code >= FIRST_CODE) {
		snprintf(problem, size, "--%s: takes no value", c->options[code - FIRST_CODE].name);
		return;
	}
	if (code != 0) {
		snprintf(problem, size, "-%c: unknown option", code);
		return;
	}
	size_t length = strcspn(word + 2, "=");
	char matches[256] = "";
	int count = 0;
	for (int i = 0; i < c->count; i++)
		if (!strncmp(c->options[i].name, word + 2, length)) {
			size_t at = strlen(matches);
			snprintf(matches + at, sizeof matches - at, " --%s", c->options[i].name);
			count++;
		}
	if (count > 1)
		snprintf(problem, size, "%.*s: ambiguous option (%s)", (int)length + 2, word, matches + 1);
	else
		snprintf(problem, size, "%.*s: unknown option", (int)length + 2, word);
}

void cmdline_operands_free(CmdlineOperands *operands)
{
	free(operands->words);
	*operands = (CmdlineOperands){NULL, 0};
}

/* Hands a word to the CMDLINE_WORDS option being read, else to the operands. */
static bool take_word(const Cmdline *c, int words, char *word, char *problem, size_t size)
{
	char why[CMDLINE_PROBLEM_MAX];
	if (words >= 0) {
		if (c->options[words].word(c->context, word, why, sizeof why))
			return true;
		snprintf(problem, size, "--%s: %s", c->options[words].name, why);
		return false;
	}
	CmdlineOperands *list = c->operands;
	if (!list) {
		snprintf(problem, size, "%s: not an option", word);
		return false;
	}
	const char **grown = realloc(list->words, ((size_t)list->count + 1) * sizeof *grown);
	if (!grown) {
		snprintf(problem, size, "out of memory");
		return false;
	}
	list->words = grown;
	list->words[list->count++] = word;
	return true;
}

/* Ends the CMDLINE_WORDS option being read, if any. */
static bool end_words(const Cmdline *c, int *words, char *problem, size_t size)
{
	char why[CMDLINE_PROBLEM_MAX];
	const CmdlineOption *o = *words >= 0 ? &c->options[*words] : NULL;
	*words = -1;
	if (!o || !o->finish || o->finish(c->context, why, sizeof why))
		return true;
	snprintf(problem, size, "--%s: %s", o->name, why);
	return false;
}

/* The loop over argv; false with the problem. *help when --help was met. */
static bool read_words(const Cmdline *c, const struct option *table, bool *given, int argc, char **argv,
                       bool *help, char *problem, size_t size)
{
	int words = -1, code;
	char why[CMDLINE_PROBLEM_MAX];
	opterr = 0;
	optind = 0; /* glibc: start afresh */
	while ((code = getopt_long(argc, argv, "-:h", table, NULL)) != -1) {
		if (code == 1) {
			if (!take_word(c, words, optarg, problem, size))
				return false;
			continue;
		}
		if (!end_words(c, &words, problem, size))
			return false;
		if (code == 'h') {
			*help = true;
			return true;
		}
		if (code == ':') {
			snprintf(problem, size, "--%s: needs a value", c->options[optopt - FIRST_CODE].name);
			return false;
		}
		if (code == '?') {
			refused(c, argv[optind - 1], optopt, problem, size);
			return false;
		}
		const CmdlineOption *o = &c->options[code - FIRST_CODE];
		given[code - FIRST_CODE] = true;
		if (!apply(c, o, optarg, why, sizeof why)) {
			snprintf(problem, size, "--%s: %s", o->name, why);
			return false;
		}
		if (o->kind == CMDLINE_WORDS)
			words = code - FIRST_CODE;
	}
	if (!end_words(c, &words, problem, size))
		return false;
	for (int i = optind; i < argc; i++) /* the words after "--" */
		if (!take_word(c, -1, argv[i], problem, size))
			return false;
	for (int i = 0; i < c->count; i++)
		if (c->options[i].required && !given[i]) {
			char value[128];
			value_of(&c->options[i], value, sizeof value);
			snprintf(problem, size, "--%s%s%s is required", c->options[i].name,
			         value[0] ? " " : "", value);
			return false;
		}
	return true;
}

bool cmdline_parse(const Cmdline *c, int argc, char **argv, int *exit_status)
{
	struct option *table = calloc((size_t)c->count + 2, sizeof *table);
	bool *given = calloc((size_t)c->count + 1, sizeof *given);
	if (!table || !given) {
		free(table);
		free(given);
		fprintf(stderr, "%s: out of memory\n", c->program);
		*exit_status = 1;
		return false;
	}
	for (int i = 0; i < c->count; i++) {
		CmdlineKind kind = c->options[i].kind;
		bool bare = kind == CMDLINE_ON || kind == CMDLINE_OFF || kind == CMDLINE_WORDS;
		table[i] = (struct option){c->options[i].name, bare ? no_argument : required_argument, NULL,
		                           FIRST_CODE + i};
	}
	table[c->count] = (struct option){"help", no_argument, NULL, 'h'};
	char problem[CMDLINE_PROBLEM_MAX + 64];
	bool help = false;
	bool ok = read_words(c, table, given, argc, argv, &help, problem, sizeof problem);
	free(table);
	free(given);
	if (ok && !help)
		return true;
	if (c->operands)
		cmdline_operands_free(c->operands);
	if (!ok) {
		*exit_status = cmdline_fail(c, "%s", problem);
		return false;
	}
	cmdline_usage(c, stdout);
	*exit_status = 0;
	return false;
}

int cmdline_dispatch(const char *program, const char *usage, const CmdlineCommand *commands, int count,
                     int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return CMDLINE_USAGE_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		fputs(usage, stdout);
		return 0;
	}
	for (int i = 0; i < count; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "%s: %s: unknown subcommand\n%s", program, argv[1], usage);
	return CMDLINE_USAGE_ERROR;
}
