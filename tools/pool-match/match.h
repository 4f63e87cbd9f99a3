/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pool-match internals: configuration, the referee of one game, the match scheduler. */
#ifndef POOL_MATCH_MATCH_H
#define POOL_MATCH_MATCH_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/game.h"
#include "edges.h"
#include "hubclient.h"
#include "openings.h"
#include "stats.h"

enum { MAX_PARAMS = 32, TERMINATION_MAX = 48, DETAIL_MAX = 512, MAX_TERMINATIONS = 32 };

typedef enum LimitKind { LIMIT_NONE, LIMIT_DEPTH, LIMIT_NODES, LIMIT_MOVETIME, LIMIT_CLOCK } LimitKind;

/* How long one engine may think: a fixed depth or node count (no clock,
 * only the stall check), a fixed time per move, or a clock with increment. */
typedef struct Limits {
	LimitKind kind;
	long long depth, nodes;
	double move_time;       /* seconds */
	double base, increment; /* seconds */
} Limits;

typedef struct EngineSpec {
	const char *command;
	char name[HUB_NAME_MAX]; /* "" until named by name= or its `id` */
	HubParam params[MAX_PARAMS];
	int param_count;
	Limits limits;
} EngineSpec;

typedef struct MatchConfig {
	EngineSpec engines[2];
	int games;
	int concurrency;
	const char *openings_path;
	char openings_default[OPENINGS_PATH_MAX]; /* the path when --openings is not given */
	const char *pdn_path;
	bool sprt_enabled;
	SprtConfig sprt;
	bool seeded;
	uint64_t seed;
	int shard_index, shard_count; /* 0-based slice index, number of slices */
	double margin;                /* seconds of grace on every time limit */
	double stall_timeout;         /* seconds: ping after this much silence, stall after as much again */
	double move_timeout;          /* seconds: the longest move without a clock (depth, nodes limits) */
	double handshake_timeout;
	int max_moves;           /* adjudicate a draw after this many moves each; 0 = never */
	double adjudicate_score; /* men; 0 = no score adjudication */
	int adjudicate_moves;
	bool comments;   /* {score/depth time} after each move */
	Variant variant; /* the rules of every game; engines get set-param variant */
} MatchConfig;

/* One engine process as a worker holds it. */
typedef struct Seat {
	const EngineSpec *spec;
	HubEngine engine;
	bool running;
} Seat;

/* How a game ended, beyond the result. */
typedef struct GameOutcome {
	GameResult result;
	char termination[TERMINATION_MAX]; /* "no legal move", "time forfeit", ... */
	char detail[DETAIL_MAX];           /* who did what, "" when the rules ended it */
	bool aborted;                      /* interrupted: not to be recorded */
	bool restart[2];                   /* by engine index: the process must be replaced */
} GameOutcome;

/*
 * Plays one game from *opening: engine black_engine (0 or 1) has Black. The
 * seats must be running. Fills *game, comments[ply] (malloc'd strings or
 * NULL, freed by the caller) and *out. Returns early with out->aborted when
 * *interrupted or *stop becomes true.
 */
void referee_play(const MatchConfig *config, Seat seats[2], int black_engine, const Position *opening,
                  Game *game, char **comments, char *line_buffer, size_t line_size,
                  volatile const sig_atomic_t *interrupted, const atomic_bool *stop, GameOutcome *out);

/* Spawns the seat's engine and does the handshake; false with a message,
 * also when *interrupted becomes nonzero meanwhile (the engine is ended). */
bool seat_start(const MatchConfig *config, Seat *seat, volatile const sig_atomic_t *interrupted, char *error,
                size_t error_size);

/* Ends the seat's engine (quit, then kill) and reaps it. */
void seat_stop(Seat *seat);

/* Plays the whole match (or this shard of it); returns the exit status. */
int match_run(MatchConfig *config, volatile const sig_atomic_t *interrupted);

/* Reads PDN files written by pool-match and prints the summary; exit status. */
int match_summarize(const char *const *paths, int count, const SprtConfig *sprt);

/* Counts per termination reason, in order of first appearance. */
typedef struct TerminationCounts {
	int count;
	char names[MAX_TERMINATIONS][TERMINATION_MAX];
	int games[MAX_TERMINATIONS];
} TerminationCounts;

void termination_add(TerminationCounts *t, const char *name);

/* Prints the final summary (stdout); `edges` may be NULL. */
void match_print_summary(const char *name0, const char *name1, const MatchTally *tally,
                         const TerminationCounts *terms, const EdgeTally *edges, const SprtConfig *sprt,
                         double seconds, int games);

#endif
