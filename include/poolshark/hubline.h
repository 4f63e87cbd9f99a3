/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Hub protocol lines: a bounded line reader, a tokenizer and a quoting writer. */
#ifndef POOLSHARK_HUBLINE_H
#define POOLSHARK_HUBLINE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * A Hub line is `command word key=value key="quoted value" ...`. Words are
 * separated by spaces or tabs; a value is quoted when it contains a space,
 * '=' or '"', or is empty; there are no escapes inside quotes (the protocol
 * has none), so a value can never hold a '"'.
 */
enum {
	HUBLINE_MAX_TOKENS = 64,
	/* Longest accepted input line, without the newline. A `pos` with the
	 * moves of the longest possible game stays well below it. */
	HUBLINE_MAX_LENGTH = 256 * 1024,
	HUBLINE_ERROR_MAX = 160
};

/* One argument: `key=value` (value != NULL, possibly "") or a bare word
 * (value == NULL), e.g. the `think` of `go think`. */
typedef struct HubToken {
	const char *key;
	const char *value;
} HubToken;

typedef struct HubLine {
	const char *command; /* NULL for a blank line */
	int count;
	HubToken tokens[HUBLINE_MAX_TOKENS];
} HubLine;

/*
 * Splits `text` in place (it writes NULs into it; the tokens point into it).
 * A blank line gives command == NULL and returns true. On malformed text
 * (a quote that never closes, text glued to a closing quote, a '"' inside a
 * word, `=value` with no key, a command with '=', too many arguments)
 * returns false and writes a message naming the problem into error.
 */
bool hubline_parse(char *text, HubLine *out, char *error, size_t error_size);

/* The value of the first `key=...` argument, NULL when there is none. */
const char *hubline_value(const HubLine *line, const char *key);

/* True when the bare word `word` is one of the arguments. */
bool hubline_has_word(const HubLine *line, const char *word);

/* The i-th bare word (0-based, counting bare words only), or NULL. */
const char *hubline_word(const HubLine *line, int index);

/*
 * Rejects bytes that have no place in a protocol line: NUL, other control
 * characters except tab, and bytes >= 0x80. Returns false with a message
 * ("line contains a NUL byte", "line contains a non-ASCII byte (0xc3)") when
 * one is found.
 */
bool hubline_check_bytes(const char *text, size_t length, char *error, size_t error_size);

/*
 * Builds one output line in a caller's buffer. Every add either appends a
 * whole well-formed argument or, when the buffer is too small, appends
 * nothing and sets `truncated`, so the text is always a valid line.
 */
typedef struct HubWriter {
	char *buffer;
	size_t size;
	size_t length;
	bool truncated;
} HubWriter;

/* Starts a line with `command` (a bare word). size must be at least 1. */
void hubwriter_init(HubWriter *w, char *buffer, size_t size, const char *command);

/* Appends ` key=value`, quoting the value when it needs it; a '"' inside the
 * value is written as '\'' because Hub has no escapes. */
void hubwriter_add(HubWriter *w, const char *key, const char *value);

/* hubwriter_add() with a printf-formatted value. */
void hubwriter_addf(HubWriter *w, const char *key, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends a bare word ` word` (quoted when it holds a blank, '=' or '"',
 * or is empty, as the tokenizer reads quoted words back). */
void hubwriter_word(HubWriter *w, const char *word);

/* True when `value` must be quoted in a Hub line. */
bool hubline_needs_quotes(const char *value);

/*
 * Reads lines from a file descriptor with a bounded buffer. A line longer
 * than HUBLINE_MAX_LENGTH (not counting its "\n" or "\r\n") is reported once
 * as LINE_TOO_LONG and the rest of
 * it is skipped up to its newline, so the next line is read in sync.
 */
typedef struct LineReader {
	int fd;
	char *line; /* HUBLINE_MAX_LENGTH + 2 bytes: the text, a CR, the NUL */
	size_t length;
	bool discarding; /* inside an over-long line */
	bool eof;
	size_t chunk_start, chunk_end;
	char chunk[4096];
} LineReader;

typedef enum LineStatus { LINE_OK, LINE_TOO_LONG, LINE_EOF, LINE_READ_ERROR } LineStatus;

/* Prepares a reader on fd; false when memory is short. */
bool linereader_init(LineReader *r, int fd);
void linereader_free(LineReader *r);

/*
 * Blocks until a whole line is available. On LINE_OK *line points to the
 * text (NUL-terminated, without "\n" or a trailing "\r"; it may contain NUL
 * bytes, hence *length) valid until the next call. A last line without a
 * newline is returned before LINE_EOF.
 */
LineStatus linereader_next(LineReader *r, const char **line, size_t *length);

#endif
