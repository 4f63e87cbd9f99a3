/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tools' command lines: one table of options per program, read by getopt_long. */
#ifndef POOLSHARK_CMDLINE_H
#define POOLSHARK_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "poolshark/variant.h"

/* What an option takes, and where it goes. */
typedef enum CmdlineKind {
	CMDLINE_ON,      /* no value: *to.flag = true */
	CMDLINE_OFF,     /* no value: *to.flag = false (--no-...) */
	CMDLINE_TEXT,    /* *to.text = the value (argv's own string) */
	CMDLINE_INT,     /* *to.number: a whole number in [min, max] */
	CMDLINE_LONG,    /* *to.big: a whole number in [min, max] */
	CMDLINE_DECIMAL, /* *to.decimal: a decimal number in [low, high] */
	CMDLINE_CHOICE,  /* *to.choice: the index of the value among `choices` */
	CMDLINE_VARIANT, /* *to.variant: a rule set by name */
	CMDLINE_SHARD,   /* "K/N", 1 <= K <= N: *to.shard.index = K - 1, *to.shard.count = N */
	CMDLINE_CALL,    /* set(context, value, ...) */
	CMDLINE_WORDS,   /* no value of its own: words up to the next option (cmdline_words) */
} CmdlineKind;

/*
 * One option of a program, as src/engine/options.c describes the engine's:
 * its name (`--NAME`), what it takes, a line of help, and the field it sets
 * or the function that sets it. Numbers are read with number_parse() and
 * number_parse_decimal() (poolshark/number.h), within the bounds given.
 * A setter's `problem` completes "PROGRAM: --NAME: " ("3/2 is not K/N"). The
 * functions below make the rows.
 */
typedef struct CmdlineOption {
	const char *name;
	CmdlineKind kind;
	const char *value_name; /* the value in the usage ("N", "FILE"); NULL for none */
	const char *help;       /* what it does; '\n' starts a further line */
	long long min, max;     /* CMDLINE_INT, CMDLINE_LONG */
	double low, high;       /* CMDLINE_DECIMAL */
	const char *choices;    /* CMDLINE_CHOICE: the names, space-separated */
	bool required;          /* the program cannot run without it */
	union {
		bool *flag;
		const char **text;
		int *number;
		long long *big;
		double *decimal;
		int *choice;
		Variant *variant;
		struct {
			int *index, *count;
		} shard;
	} to;
	bool (*set)(void *context, const char *value, char *problem, size_t size);
	/* CMDLINE_WORDS: argv's own string, which word() may cut ("key=value") */
	bool (*word)(void *context, char *word, char *problem, size_t size);
	bool (*finish)(void *context, char *problem, size_t size); /* may be NULL */
} CmdlineOption;

/*
 * The rows of a table, one function per kind: `name` without its dashes,
 * `value` the value's name in the usage ("N", "FILE"), `help` its line(s)
 * there. The field pointers must outlive cmdline_parse().
 */
CmdlineOption cmdline_on(const char *name, bool *flag, const char *help);
CmdlineOption cmdline_off(const char *name, bool *flag, const char *help);
CmdlineOption cmdline_text(const char *name, const char *value, const char **text, const char *help);
CmdlineOption cmdline_int(const char *name, const char *value, int *number, long long min, long long max,
                          const char *help);
CmdlineOption cmdline_long(const char *name, const char *value, long long *number, long long min,
                           long long max, const char *help);
CmdlineOption cmdline_decimal(const char *name, const char *value, double *number, double low, double high,
                              const char *help);
/* `choices`: the names, space-separated; *choice is the index of the one given. */
CmdlineOption cmdline_choice(const char *name, const char *choices, int *choice, const char *help);
CmdlineOption cmdline_variant(const char *name, Variant *variant, const char *help);
CmdlineOption cmdline_shard(const char *name, const char *value, int *index, int *count, const char *help);
CmdlineOption cmdline_call(const char *name, const char *value,
                           bool (*set)(void *context, const char *value, char *problem, size_t size),
                           const char *help);
/* `set` (may be NULL) when the option is met, `word` for each word after
 * it up to the next option, `finish` (may be NULL) after the last. */
CmdlineOption cmdline_words(const char *name, const char *value,
                            bool (*set)(void *context, const char *value, char *problem, size_t size),
                            bool (*word)(void *context, char *word, char *problem, size_t size),
                            bool (*finish)(void *context, char *problem, size_t size), const char *help);
/* `option`, which the program cannot run without. */
CmdlineOption cmdline_required(CmdlineOption option);

/* The words of a command line that are not options, in order. */
typedef struct CmdlineOperands {
	const char **words; /* argv's own strings, in an array freed by cmdline_operands_free() */
	int count;
} CmdlineOperands;

void cmdline_operands_free(CmdlineOperands *operands);

/* A program's command line: its name, its usage and its options. */
typedef struct Cmdline {
	const char *program; /* "datagen gen": the start of every message */
	/* "usage: ..." lines and what the program does, printed before the options */
	const char *synopsis;
	const CmdlineOption *options;
	int count;
	/* Where the words go that are neither options, their values nor the
	 * words of a CMDLINE_WORDS option; NULL when the program takes none. */
	CmdlineOperands *operands;
	void *context; /* handed to every setter */
} Cmdline;

enum { CMDLINE_USAGE_ERROR = 2, CMDLINE_PROBLEM_MAX = 512 };

/*
 * Reads argv[1..argc) with getopt_long against c's options (a name may be
 * shortened while it stays unambiguous; `--name=value` is the same as
 * `--name value`; `--help` and `-h` print the usage; the words after `--`
 * are operands). Returns true when every word was taken and every required
 * option given: the program runs, and frees *c->operands when done.
 * Otherwise false (*c->operands freed) with the exit status in
 * *exit_status: 0 after printing
 * the usage on standard output for --help (the caller checks that output,
 * textfile_exit()), CMDLINE_USAGE_ERROR after printing
 * "PROGRAM: --NAME: problem" and the usage on stderr (an unknown or
 * ambiguous option, a missing or bad value, a missing required option, a
 * word nothing takes). Fields of options not given keep their values, so
 * the caller sets the defaults first. Not reentrant (getopt's state).
 */
bool cmdline_parse(const Cmdline *c, int argc, char **argv, int *exit_status);

/* For setters: a whole number in [min, max] read as CMDLINE_LONG reads it;
 * false with the problem as CMDLINE_LONG words it ("0 is too small (from 1
 * to 60)"), *out unchanged. */
bool cmdline_read_number(const char *text, long long min, long long max, long long *out, char *problem,
                         size_t size);

/* Prints the synopsis and one line per option ("  --games N   help"). */
void cmdline_usage(const Cmdline *c, FILE *out);

/* A problem found after cmdline_parse() (options that do not go together):
 * prints "PROGRAM: " and the message, then the usage, on stderr; returns
 * CMDLINE_USAGE_ERROR. */
int cmdline_fail(const Cmdline *c, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* A program made of commands ("datagen gen", "datagen info"): each reads
 * its own options, argv[0] being its name, and returns the exit status. */
typedef struct CmdlineCommand {
	const char *name;
	int (*run)(int argc, char **argv);
} CmdlineCommand;

/*
 * Runs the command that argv[1] names with the words after it, and returns
 * its exit status. Without a command: `usage` on stderr,
 * CMDLINE_USAGE_ERROR; with `--help`, `-h` or `help`: `usage` on standard
 * output, 0; an unknown one: "PROGRAM: NAME: unknown subcommand" and
 * `usage` on stderr, CMDLINE_USAGE_ERROR.
 */
int cmdline_dispatch(const char *program, const char *usage, const CmdlineCommand *commands, int count,
                     int argc, char **argv);

#endif
