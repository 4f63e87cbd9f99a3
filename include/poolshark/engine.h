/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine facade: owns the game, the hash table, options and the search thread. */
#ifndef POOLSHARK_ENGINE_H
#define POOLSHARK_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolshark/game.h"
#include "poolshark/move.h"
#include "poolshark/position.h"
#include "poolshark/search.h"

/* SearchLimits, SearchInfo and SearchResult live in search.h. */

typedef SearchInfoCallback EngineInfoCallback;
typedef void (*EngineDoneCallback)(const Position *root, const SearchResult *result, void *user);

enum { ENGINE_PATH_MAX = 1024 };

/* Which evaluation the searches use: the hand-written function of eval.h,
 * or the network of nnue.h (the rule set's compiled-in one or eval_file). */
typedef enum EngineEval { ENGINE_EVAL_CLASSIC, ENGINE_EVAL_NET } EngineEval;
#define ENGINE_EVAL_NAMES "classic net"

typedef struct EngineOptions {
	size_t hash_mb;       /* transposition table size, MiB */
	int move_overhead_ms; /* kept back from every clock budget */
	bool ponder;          /* whether the GUI may ask for pondering */
	int strength;         /* 0..100; 100 = full strength, below: weaker and varied (doc/PROTOCOL.md) */
	char egdb_path[ENGINE_PATH_MAX]; /* endgame database directory; "" for none */
	Variant variant;                 /* the rules played (doc/VARIANTS.md) */
	int threads;                     /* search threads, 1..threads_max() (threads.h) */
	char book[ENGINE_PATH_MAX];      /* "off", "default" or a book file (book.h, doc/BOOK.md) */
	EngineEval eval;                 /* the evaluation searched with (doc/EVAL.md) */
	char eval_file[ENGINE_PATH_MAX]; /* the network of eval=net: "default" (compiled in) or a file */
	int contempt; /* hundredths of a man a draw is worse than level for the engine (SearchControl) */
	int multipv;  /* lines searched and reported, 1..SEARCH_MAX_LINES (SearchLimits.multipv) */
} EngineOptions;

typedef struct Engine Engine;

/* Why an Engine call refused; ENGINE_OK (0) when it did what was asked. */
typedef enum EngineStatus {
	ENGINE_OK = 0,
	ENGINE_BUSY,            /* a search is running: stop it first */
	ENGINE_ILLEGAL_MOVE,    /* not a legal move in the current position */
	ENGINE_GAME_OVER,       /* the game has ended: no move may follow */
	ENGINE_RECORD_FULL,     /* the game record cannot hold another move */
	ENGINE_NOTHING_TO_UNDO, /* no move has been played */
	ENGINE_NO_MEMORY,       /* a table could not be had; the old setting stays */
	ENGINE_WRONG_VARIANT,   /* a game of other rules than the `variant` option's */
	ENGINE_HASH_TOO_LARGE, /* the table would not fit in the machine's memory (or its cgroup's limit); the
	                          old size stays */
	ENGINE_BAD_BOOK,       /* the book cannot be read; the old book stays */
	ENGINE_BAD_EGDB,   /* the endgame database directory holds no complete database of the variant (or a
	                      file of another rule set, a newer format, truncated); the old one stays */
	ENGINE_BAD_NETWORK /* the eval_file network cannot be used for the variant; the old one stays */
} EngineStatus;

/* A short text for people, e.g. "a search is running (send stop first)". */
const char *engine_status_text(EngineStatus status);

/* Default options: hash 64 MiB, move overhead 50 ms, ponder off, strength 100,
 * no endgame databases, pool checkers, one thread, book off, the learned
 * network (eval=net, the one compiled in for the variant), contempt 0, one
 * line (multipv 1). */
void engine_default_options(EngineOptions *out);

/* A new engine at the start position; NULL when memory is short. */
Engine *engine_create(const EngineOptions *options);

/* Stops any search, joins the threads, frees everything. */
void engine_destroy(Engine *e);

/*
 * Applies options. A new hash size is mapped at once and made resident in
 * the background, so this never blocks for long; a search that starts
 * before that is done stops the preparation and takes the rest of the
 * pages as it uses them. A new variant starts a new game from that variant's start position
 * (as engine_new_game(e, NULL)). Refuses, changing no option, with
 * ENGINE_BUSY during a search, ENGINE_HASH_TOO_LARGE when the size is more
 * than bigmem_available_bytes() (the machine's memory, or the limit of the
 * process's memory cgroup when that is lower), ENGINE_NO_MEMORY when the table or the
 * threads' state cannot be had (the old size is kept, emptied),
 * ENGINE_BAD_BOOK when the book cannot be read, ENGINE_BAD_EGDB when a new
 * egdb_path holds no complete endgame database of the variant (a change
 * of variant alone reopens the same directory for the new rules and plays
 * on without databases when it has none: engine_egdb_pieces() says why),
 * ENGINE_BAD_NETWORK when
 * eval_file (or, after a change of variant, the file already set) is not a
 * network of the variant (engine_refusal_text() then says why for these
 * two). Everything is checked before anything changes, so a refusal
 * needs no rollback.
 */
EngineStatus engine_set_options(Engine *e, const EngineOptions *options);

/* Why engine_set_options() last refused with ENGINE_BAD_EGDB or
 * ENGINE_BAD_NETWORK (the directory's or the file's problem); owned by the
 * engine, valid until the next call. */
const char *engine_refusal_text(const Engine *e);
void engine_get_options(const Engine *e, EngineOptions *out);

/*
 * Waits until the hash table is resident: a new table (engine_create(),
 * a new hash size) is made so in the background, and a search that starts
 * before that is done takes the rest of the page faults on its clock. For
 * a client's moment of preparation before the game (the Hub's init, before
 * ready). ENGINE_BUSY, without waiting, during a search.
 */
EngineStatus engine_prepare(Engine *e);

/*
 * Why engine_create() could not load options.eval_file for options.variant
 * ("" when it could): the engine then holds the variant's compiled-in
 * network instead, and a program should refuse to go on. engine_set_options()
 * refuses such a file instead (ENGINE_BAD_NETWORK).
 */
const char *engine_network_error(const Engine *e);

/*
 * The network's kernel this engine runs (nnue.h: "portable", "avx2",
 * "avxvnni", "avx512vnni"), chosen once by engine_create() from the
 * processor, or the one POOLSHARK_KERNEL names. When the variable names
 * one this processor cannot run, or no kernel, the engine runs the best it
 * has and engine_kernel_error() says why ("" otherwise): a program should
 * then refuse to go on, as the command line does.
 */
const char *engine_kernel(const Engine *e);
const char *engine_kernel_error(const Engine *e);

/* The static score of *p that a search under eval=net uses, with the
 * engine's network (of options.variant and options.eval_file, whatever
 * options.eval): the network's, or eval_kings_ending() in the kings endings
 * the search keeps from the network (eval_is_kings_ending()). Side to
 * move's view, in score units; false when *p is of another rule set than
 * the network, or its rule set has no network (nnue_has_default()). */
bool engine_network_score(const Engine *e, const Position *p, int *score);

/*
 * The most pieces the endgame databases of options.egdb_path cover (0: none
 * open). engine_create() given a directory without databases plays on
 * without, and *error (may be NULL) then says why; engine_set_options()
 * refuses such a directory (ENGINE_BAD_EGDB).
 */
int engine_egdb_pieces(const Engine *e, const char **error);

/*
 * The endgame databases' verdict on the current position and on each of
 * its legal moves (egdb_lookup(): best first, at most `max` written).
 * Returns the number of legal moves, or -1 with the reason in *why when
 * the engine has no databases, they are of another rule set than the
 * position's, or the position is not in them. Safe while a search runs.
 */
int engine_lookup(Engine *e, EgdbVerdict *verdict, EgdbMoveVerdict *moves, int max, const char **why);

/*
 * The opening book's moves of the current position with their weights
 * (book_moves(), at most `max`): the book of the `book` option, or the
 * compiled-in default book while the option is off (opened on first use).
 * 0 when the position is not in it (or not pool checkers).
 */
int engine_book_moves(Engine *e, Move *moves, int *weights, int max);

/*
 * The game the engine plays: read it, never write it (the mutators below
 * do). It stays valid as long as the engine, and does not change while a
 * search runs.
 */
const Game *engine_game(const Engine *e);

/* The engine's hash table, to read only (tests, diagnostics); it does not
 * change while no search runs. */
const TT *engine_table(const Engine *e);

/* The rules the engine plays: its `variant` option. */
Variant engine_variant(const Engine *e);

/* A new game from *start (the start position of the engine's variant when
 * NULL): the game record starts there, the hash table and search history
 * are forgotten. The table is not touched for it (tt_new_game(): the next
 * search behaves as in a cleared table), so a new game costs no time on
 * the first move's clock, except that one new game in 64 clears a table
 * in use. ENGINE_WRONG_VARIANT when start->variant is not the engine's
 * (front-ends read positions in engine_variant()). */
EngineStatus engine_new_game(Engine *e, const Position *start);

/* Replaces the game record by a copy of *g (a GUI's `pos` with moves); the
 * table is kept. ENGINE_WRONG_VARIANT as engine_new_game(). */
EngineStatus engine_set_game(Engine *e, const Game *g);

/*
 * The one way a front-end sets up a game a GUI sends: *start, then
 * moves[0..count) (the table is kept). A draw rule (25-move rule, counted
 * draw, repetition) that ends the game on the way, or at its last move,
 * does not refuse it: the GUI is the referee. The engine takes the whole
 * list, goes on from the first such draw with fresh counters (so that a
 * search plays a move from the position sent), and *drawn (may be NULL)
 * says which rule ended it, after how many of the moves
 * (drawn->status.result is RESULT_NONE when none did). Refuses, with the
 * game unchanged and *bad_index (may be NULL) the index of the move, with
 * ENGINE_ILLEGAL_MOVE for a move not legal where it comes and
 * ENGINE_RECORD_FULL for more moves than a game can hold; ENGINE_BUSY,
 * ENGINE_WRONG_VARIANT as engine_set_game(), ENGINE_NO_MEMORY.
 */
typedef struct EngineDrawn {
	GameStatus status;
	int after_moves;
} EngineDrawn;
EngineStatus engine_set_position(Engine *e, const Position *start, const Move *moves, int count,
                                 int *bad_index, EngineDrawn *drawn);

/* Plays `m` in the current position: ENGINE_ILLEGAL_MOVE unless it is one
 * of the legal moves, ENGINE_GAME_OVER once the game has ended. */
EngineStatus engine_play(Engine *e, Move m);

/* Takes back the last move. */
EngineStatus engine_undo(Engine *e);

/*
 * Starts a search of the current game position in a background thread and
 * returns at once: ENGINE_BUSY when a search already runs, ENGINE_NO_MEMORY
 * when the thread cannot start. A table still being made resident is not
 * waited for: that thread stops the preparation.
 * `info` (may be NULL) is called after each iteration, `done` (may be NULL)
 * exactly once at the end, both from the search thread. The engine stops
 * counting as searching just before `done` is called, so the callback may
 * wake the controlling thread to start the next search; engine_start()
 * first joins the thread of a finished search (so never call it from a
 * callback, nor while holding a lock a callback takes). With limits->ponder
 * or limits->infinite the search does not end on its own before
 * engine_stop() (or, pondering, engine_ponder_hit() when it is complete).
 * Built with POOLSHARK_SINGLE_THREAD (the WebAssembly worker), it searches
 * in the calling thread instead and returns after `done`.
 */
EngineStatus engine_start(Engine *e, const SearchLimits *limits, EngineInfoCallback info,
                          EngineDoneCallback done, void *user);

/* Asks the running search to stop; returns at once. Safe from any thread. */
void engine_stop(Engine *e);

/* Pondering turned into a real search: the clock starts now. */
void engine_ponder_hit(Engine *e);

/* Waits for the running search (if any) to finish. */
void engine_wait(Engine *e);

bool engine_is_searching(const Engine *e);

/*
 * Seeds the generator that a strength below 100 uses to vary its moves
 * (engine_create() seeds it from the clock). The same seed, options, game
 * and limits without a clock give the same moves. ENGINE_BUSY during a
 * search.
 */
EngineStatus engine_seed(Engine *e, uint64_t seed);

/* Searches the current game position synchronously in the calling thread
 * (bench, analyse, the terminal game), after waiting for a table still
 * being made resident. ENGINE_BUSY, with *out untouched, when a
 * background search is running.
 *
 * Both kinds of search use the options' threads (threads.h; one below
 * strength 100) and, when the book is on, play a book move at once (depth
 * 0, no node) instead of searching, unless the variant is not pool, the
 * search is infinite or pondering, or strength is below 100. */
EngineStatus engine_search_sync(Engine *e, const SearchLimits *limits, EngineInfoCallback info, void *user,
                                SearchResult *out);

/*
 * After a search with limits->score_all_moves (engine_search_sync() or a
 * finished engine_start()): the root moves and their exact scores
 * (hundredths of a man, side to move's view) from the last completed
 * iteration, at most `max` of them; returns how many were written. 0 while
 * a search runs, after a search without that mode, and when no iteration
 * completed. A book move is no search: turn the book off to have scores.
 * At strength 100 such a search uses the `threads` option like any other.
 */
int engine_root_scores(const Engine *e, Move *moves, int *scores, int max);

#endif
