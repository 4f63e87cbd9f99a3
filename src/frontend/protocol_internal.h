/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Private to the protocol: the session, its output, and the command tables of its three files. */
#ifndef POOLSHARK_PROTOCOL_INTERNAL_H
#define POOLSHARK_PROTOCOL_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>

#include "poolshark/engine.h"
#include "poolshark/hubline.h"
#include "protocol.h"

enum {
	PROTOCOL_OUTPUT_MAX = 16384, /* a pv of 128 captures still fits */
	PROTOCOL_MESSAGE_MAX = 400
};

struct Protocol {
	ProtocolConfig config;
	ProtocolWrite write;
	void *user;
	pthread_mutex_t output_lock;
	Engine *engine;
	Move *pos_moves;      /* the moves= of `pos` (GAME_MAX_PLIES), read before the engine sees them */
	char *text;           /* a copy of the line being split */
	bool have_position;   /* pos, new-game or move has set up a game */
	bool search_bounded;  /* the running (or last) search ends by itself */
	SearchLimits pending; /* level lines since the last pos or search */
	bool level_refused;   /* the last of them could not be read: go answers at once */
};

/* One command: its name, its handler (false only for quit), and whether it
 * may run while a search runs (it neither changes the game nor the engine). */
typedef struct ProtocolCommand {
	const char *name;
	bool (*run)(Protocol *p, const HubLine *line);
	bool during_search;
} ProtocolCommand;

/* The commands of Hub v2 (protocol_hub.c). */
extern const ProtocolCommand protocol_hub_commands[];
extern const int protocol_hub_command_count;

/* The commands for people and scripts (protocol_extensions.c). */
extern const ProtocolCommand protocol_extension_commands[];
extern const int protocol_extension_command_count;

/* Writes a block of lines under the output lock. */
void protocol_emit(Protocol *p, const char *text);

/* The same, for a caller that already holds p->output_lock. */
void protocol_emit_locked(Protocol *p, const char *text);

/* protocol_error() with a printf format. */
void protocol_errorf(Protocol *p, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* The current position of the engine's game. */
const Position *protocol_position(const Protocol *p);

/* Applies option `name`=`value` to the engine; false with a message. */
bool protocol_set_option(Protocol *p, const char *name, const char *value, char *error, size_t size);

#endif
