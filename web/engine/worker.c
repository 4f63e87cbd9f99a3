/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The browser worker's engine: Hub lines in from JavaScript, each reply line out by postMessage. */
#include <emscripten.h>
#include <string.h>

#include "frontend/protocol.h"

/* A sized hash table: the page's memory grows with it. */
enum { WORKER_HASH_MB = 16, WORKER_MAX_HASH_MB = 512 };

EM_JS(void, worker_post_line, (const char *line), { postMessage(UTF8ToString(line)); })

Protocol *worker_create(void);
int worker_line(Protocol *p, const char *line);

static void post_line(const char *line, void *user)
{
	(void)user;
	worker_post_line(line);
}

/* A protocol session whose replies go to the page; NULL when memory is short. */
EMSCRIPTEN_KEEPALIVE Protocol *worker_create(void)
{
	ProtocolConfig config;
	protocol_default_config(&config);
	config.hash_mb = WORKER_HASH_MB;
	config.max_hash_mb = WORKER_MAX_HASH_MB;
	return protocol_create(&config, post_line, NULL);
}

/* Handles one line (the search, when `go` starts one, runs to its `done`
 * before this returns). 0 after `quit`, 1 otherwise. */
EMSCRIPTEN_KEEPALIVE int worker_line(Protocol *p, const char *line)
{
	return protocol_handle_line(p, line, strlen(line)) ? 1 : 0;
}
