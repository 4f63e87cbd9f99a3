/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: arbitrary bytes as protocol input lines; every reply must be a well-formed line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "poolshark/hubline.h"
#include "frontend/protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_LINES = 48 };

/* Each line printed must read back through the tokenizer. */
static void check_line(const char *line, void *user)
{
	(void)user;
	size_t n = strlen(line);
	char *copy = malloc(n + 1);
	char error[HUBLINE_ERROR_MAX];
	HubLine parsed;
	memcpy(copy, line, n + 1);
	if (!hubline_check_bytes(line, n, error, sizeof error) ||
	    !hubline_parse(copy, &parsed, error, sizeof error)) {
		fprintf(stderr, "malformed output line '%s': %s\n", line, error);
		abort();
	}
	free(copy);
}

/* One session for the whole run, reset before each input: creating one
 * per input (hash table, game records) would dominate the time. */
static Protocol *session(void)
{
	static Protocol *p;
	if (!p) {
		ProtocolConfig config;
		protocol_default_config(&config);
		config.hash_mb = 1;
		config.max_hash_mb = 4;
		config.max_perft_depth = 3;
		config.allow_bench = false;
		p = protocol_create(&config, check_line, NULL);
		if (!p)
			abort();
	}
	return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Protocol *p = session();
	protocol_reset(p);
	const char *s = (const char *)data, *end = s + size;
	for (int lines = 0; s < end && lines < MAX_LINES; lines++) {
		const char *newline = memchr(s, '\n', (size_t)(end - s));
		size_t n = newline ? (size_t)(newline - s) : (size_t)(end - s);
		if (!protocol_handle_line(p, s, n))
			break;
		s += n + 1;
	}
	protocol_stop(p);
	protocol_wait(p);
	return 0;
}
