/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Private to the cbengine*.c files: the adapter's state, shared by getmove and enginecommand. */
#ifndef POOLSHARK_CBENGINE_INTERNAL_H
#define POOLSHARK_CBENGINE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>

#include "cbengine.h"
#include "poolshark/engine.h"
#include "poolshark/game.h"
#include "poolshark/movegen.h"

enum {
	/* Reversible moves kept from "set gamehist": twice what the 25-move
	 * rule allows, so a history that already ended the game still fits. */
	HISTORY_MAX = 2 * GAME_REVERSIBLE_LIMIT,
	COMMAND_MAX = 4096, /* longer commands are rejected, not parsed */
	STATUS_MAX = 256,   /* what getmove writes into CheckerBoard's status line */
	POLL_MS = 1         /* how often getmove looks at *playnow */
};

_Static_assert((int)STATUS_MAX <= (int)CB_STATUS_SIZE, "the status line fits CheckerBoard's buffer");
_Static_assert((int)MOVEPATH_MAX <= (int)CB_PATH_MAX + 1,
               "a capture's landings fit path[1..11] or are refused");

struct CbEngine {
	Engine *engine;
	/* Guards the engine's game and options and the history below between
	 * getmove and enginecommand calls from CheckerBoard's two threads. */
	pthread_mutex_t lock;
	bool have_history;
	Position history_start, history_end;
	int history_count;
	Move history[HISTORY_MAX];

	/* The running getmove: where the search thread reports. */
	char *status;
	Position root;
	SearchResult result;
};

#endif
