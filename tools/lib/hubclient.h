/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GUI side of the Hub protocol: run an engine process and talk to it over pipes. */
#ifndef POOLSHARK_HUBCLIENT_H
#define POOLSHARK_HUBCLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

enum {
	HUB_LINE_MAX = 8192, /* longer lines are cut at this length */
	HUB_NAME_MAX = 128
};

/*
 * One engine process. The engine runs `/bin/sh -c "exec <command>"` in a
 * process group of its own, so that a Ctrl-C at the terminal reaches only
 * the match runner (which then ends its engines itself) and so that killing
 * the group also ends anything a wrapper script started.
 */
typedef struct HubEngine {
	pid_t pid;       /* 0 when no process runs (or it has been reaped) */
	int to_engine;   /* write end of the engine's stdin, -1 when closed */
	int from_engine; /* read end of the engine's stdout, -1 when closed */
	bool exited;     /* the process has ended and been reaped */
	int wait_status; /* its waitpid() status when exited (-1: reaped elsewhere) */
	size_t buffered; /* bytes of a partial line in buffer */
	char buffer[HUB_LINE_MAX];
	char name[HUB_NAME_MAX]; /* from `id name=...` during the handshake */
	/* When set (after hub_engine_spawn()) and *interrupt becomes nonzero,
	 * the handshake gives up within 50 ms: a signal handler's flag. */
	volatile const sig_atomic_t *interrupt;
} HubEngine;

/* A `set-param` sent during the handshake. */
typedef struct HubParam {
	const char *name;
	const char *value;
} HubParam;

typedef enum HubRead {
	HUB_READ_LINE,    /* a whole line was stored (without its newline) */
	HUB_READ_TIMEOUT, /* nothing complete within the time given */
	HUB_READ_EOF      /* the engine closed its stdout (usually: it died) */
} HubRead;

/* Marks *e as not running; call once before anything else. */
void hub_engine_init(HubEngine *e);

/*
 * Starts `command` with pipes on its stdin and stdout (stderr is shared with
 * the caller). The caller should ignore SIGPIPE so that writing to a dead
 * engine fails with an error instead of killing it. False with a message
 * when the pipes or the process cannot be made; a command that does not
 * exist shows up later as EOF and an exit status of 127.
 */
bool hub_engine_spawn(HubEngine *e, const char *command, char *error, size_t error_size);

/* Sends one line (the newline is added). False when the engine is gone.
 * Build lines with hubwriter (hubline.h), parse replies with hubline_parse(). */
bool hub_engine_send(HubEngine *e, const char *line);

/* printf-style hub_engine_send(); lines longer than HUB_LINE_MAX fail. */
bool hub_engine_sendf(HubEngine *e, const char *format, ...) __attribute__((format(printf, 2, 3)));

/*
 * Reads the next line, waiting at most timeout_ms (0: only what is already
 * there). Carriage returns are dropped; a line longer than the buffer is
 * returned in pieces.
 */
HubRead hub_engine_read_line(HubEngine *e, char *line, size_t size, int timeout_ms);

/* Whether the process still runs. If not, kills what is left of its process
 * group and reaps it (keeping its status), as hub_engine_kill() does. */
bool hub_engine_is_alive(HubEngine *e);

/*
 * The Hub handshake: `hub`, reading up to `wait` (keeping the name from
 * `id`), a `set-param` per param, `init`, reading up to `ready`. False with a
 * message when the engine dies, answers a set-param or init with `error`,
 * the whole exchange takes longer than timeout_ms, or e->interrupt is set
 * and becomes nonzero ("interrupted").
 */
bool hub_engine_handshake(HubEngine *e, const HubParam *params, int param_count, int timeout_ms, char *error,
                          size_t error_size);

/*
 * Ends the engine: sends `quit`, closes its stdin, gives it grace_ms to exit,
 * then kills its process group and reaps it. Safe on an engine that is not
 * running. Afterwards e->exited and e->wait_status tell how it ended.
 */
void hub_engine_stop(HubEngine *e, int grace_ms);

/*
 * Kills the process group at once and reaps the process. Members of the
 * group that outlive it are handed to the nearest child subreaper: a caller
 * that is one (prctl PR_SET_CHILD_SUBREAPER, as pool-match is) has them
 * reaped here too, waiting up to 2 s for the group to be empty, so that
 * nothing of the engine outlives this call.
 */
void hub_engine_kill(HubEngine *e);

/* "exited with status 1", "killed by signal 11 (Segmentation fault)" or
 * "still running" for the last known state of the process. */
void hub_engine_describe_exit(const HubEngine *e, char *out, size_t size);

#endif
