/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test helpers: a Hub session in process, its printed lines kept. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/hubline.h"

static void transcript_write(const char *line, void *user)
{
	Transcript *t = user;
	if (t->count < TRANSCRIPT_CAP)
		t->lines[t->count++] = strdup(line);
}

static void transcript_clear(Transcript *t)
{
	for (int i = 0; i < t->count; i++)
		free(t->lines[i]);
	t->count = 0;
}

Session *session_new(void)
{
	Session *s = calloc(1, sizeof *s);
	ProtocolConfig config;
	protocol_default_config(&config);
	config.hash_mb = 4;
	config.max_perft_depth = 6;
	s->protocol = protocol_create(&config, transcript_write, &s->out);
	assert_non_null(s->protocol);
	return s;
}

void session_free(Session *s)
{
	protocol_destroy(s->protocol);
	transcript_clear(&s->out);
	free(s);
}

void session_clear(Session *s)
{
	transcript_clear(&s->out);
}

bool session_send(Session *s, const char *line)
{
	transcript_clear(&s->out);
	return protocol_handle_line(s->protocol, line, strlen(line));
}

const char *session_value(Session *s, const char *command, const char *key, char *out, size_t size)
{
	for (int i = 0; i < s->out.count; i++) {
		char copy[SESSION_LINE_MAX];
		HubLine line;
		snprintf(copy, sizeof copy, "%s", s->out.lines[i]);
		if (!hubline_parse(copy, &line, NULL, 0) || !line.command || strcmp(line.command, command))
			continue;
		const char *v = hubline_value(&line, key);
		if (v) {
			snprintf(out, size, "%s", v);
			return out;
		}
	}
	return NULL;
}

void session_fen(Session *s, char *out, size_t size)
{
	session_send(s, "fen");
	assert_non_null(session_value(s, "fen", "value", out, size));
}

void session_options(Session *s, char *out, size_t size)
{
	session_send(s, "get");
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < s->out.count; i++)
		used += (size_t)snprintf(out + used, size - used, "%s;", s->out.lines[i]);
}
