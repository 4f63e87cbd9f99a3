/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine's options, declared once: every front-end reads and sets them through this table. */
#ifndef POOLSHARK_OPTIONS_H
#define POOLSHARK_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "poolshark/engine.h"

typedef enum OptionType { OPTION_ENUM, OPTION_INT, OPTION_BOOL, OPTION_TEXT } OptionType;

/*
 * One option: its name (as Hub `param`, `get`/`set` and the `--name` flag
 * spell it), its type and range, what it means, and how it is read from
 * and written to EngineOptions. Values travel as long long: the number of
 * an int, 0/1 of a bool, the index in `values` of an enum; a text option
 * has its own getter and a setter that checks the text.
 */
typedef struct OptionDef {
	const char *name;
	OptionType type;
	long long min, max; /* OPTION_INT */
	const char *values; /* OPTION_ENUM: the names, space-separated */
	const char *help;   /* one short line */
	long long (*get)(const EngineOptions *o);
	void (*set)(EngineOptions *o, long long value);
	/* OPTION_TEXT: the value as text, and a setter that refuses a bad text
	 * (too long, or a file that cannot be used) with a message naming the
	 * problem, *o unchanged. `values` then says what the text may be. */
	const char *(*get_text)(const EngineOptions *o);
	bool (*set_text)(EngineOptions *o, const char *text, char *error, size_t size);
	const char *flag; /* a shorter command-line flag than --name, or NULL */
	/* OPTION_INT: when not NULL, the maximum depends on the machine and is
	 * this function's answer, not `max` (threads: four per core). */
	long long (*max_now)(void);
} OptionDef;

enum { OPTION_TEXT_MAX = ENGINE_PATH_MAX, OPTION_ERROR_MAX = 400 };

/* The largest value of an OPTION_INT on this machine. */
long long options_max(const OptionDef *def);

/* The options in the order they are listed, and how many there are. */
const OptionDef *options_at(int index);
int options_count(void);

/* The option called `name`, or NULL. */
const OptionDef *options_find(const char *name);

/* The current value of `def` in *o as text ("64", "true", "pool"). */
void options_format(const OptionDef *def, const EngineOptions *o, char *out, size_t size);

/*
 * Reads `text` as a value of `def` and stores it in *o. False, with *o
 * unchanged and a message naming the option and the allowed values in
 * error, when the text is not such a value.
 */
bool options_parse(const OptionDef *def, const char *text, EngineOptions *o, char *error, size_t size);

/*
 * Sets option `name` to `text` in *o: options_parse() after looking the
 * name up ("unknown option 'x' (options: ...)" when there is none).
 */
bool options_parse_named(const char *name, const char *text, EngineOptions *o, char *error, size_t size);

/*
 * For command lines: when argv[*index] is `--NAME` (or the option's flag)
 * for an option NAME and a
 * value follows, sets it in *o, advances *index past the value and returns
 * true. Returns false with error "" when argv[*index] is not an option flag
 * (the caller tries its own flags), and false with a message when it is but
 * the value is missing or bad.
 */
bool options_parse_flag(int argc, char **argv, int *index, EngineOptions *o, char *error, size_t size);

/* What a value of `def` looks like, for messages: "a whole number from 0
 * to 100", "true or false", "one of: pool", "off, default or a book file". */
void options_describe_values(const OptionDef *def, char *out, size_t size);

/* "variant hash move-overhead ponder strength": every name, for messages. */
void options_names(char *out, size_t size);

#endif
