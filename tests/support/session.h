/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test helpers: a Hub session in process, whose printed lines are kept for the test to read. */
#ifndef POOLSHARK_TESTS_SESSION_H
#define POOLSHARK_TESTS_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "frontend/protocol.h"

enum { TRANSCRIPT_CAP = 4096, SESSION_LINE_MAX = 8192 /* for a copy of a printed line */ };

/* The lines a Protocol printed since the last command (session_send). */
typedef struct Transcript {
	int count;
	char *lines[TRANSCRIPT_CAP];
} Transcript;

typedef struct Session {
	Protocol *protocol;
	Transcript out;
} Session;

/* A Protocol with a 4 MiB table and perft up to depth 6, printing into
 * the session's transcript; fails the test when it cannot be made. */
Session *session_new(void);
void session_free(Session *s);

/* Forgets the lines printed so far. */
void session_clear(Session *s);

/* Sends a line (session_clear() first); protocol_handle_line()'s answer. */
bool session_send(Session *s, const char *line);

/* The value of `key` in the first printed line whose command is
 * `command`, copied to out; NULL when there is none. */
const char *session_value(Session *s, const char *command, const char *key, char *out, size_t size);

/* The position as `fen` answers it; fails the test when it does not. */
void session_fen(Session *s, char *out, size_t size);

/* Every line `get` prints, joined by ';'. */
void session_options(Session *s, char *out, size_t size);

#endif
