/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PDN game records (GameType 23, 25, 26): writing and reading whole games. */
#ifndef POOLSHARK_PDN_H
#define POOLSHARK_PDN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "poolshark/game.h"

/* One tag pair, e.g. {"Event", "casual game"}. */
typedef struct PdnTag {
	const char *name;
	const char *value;
} PdnTag;

/*
 * Writes one game record: the tags given (GameType 23, 25 or 26 after the
 * game's variant, moves and the FEN written as its players write them,
 * numbered from the side that moves first, and, when the game did not
 * start from the start position, FEN and SetUp are added unless present), then the moves of `game` in PDN
 * move text with move numbers, then the result. comments may be NULL, or hold one string (or NULL) per ply,
 * written as `{...}` after that move. The result is the value of a "Result" tag when one is given, otherwise
 * what game_status() says (and a Result tag is added). Returns false on a write error.
 */
bool pdn_write_game(FILE *out, const Game *game, const PdnTag *tags, int tag_count,
                    const char *const *comments);

/* What pdn_write_annotated_game() writes after one ply. */
typedef struct PdnPlyNote {
	int nag;                 /* a NAG written as `$N` after the move; 0 for none */
	const char *comments[2]; /* each written as `{...}` (NULL: none), in this order */
	const Move *line;        /* a variation: moves from the position before this ply, */
	int line_length;         /* written as `( N. move ... )`; 0 for none */
} PdnPlyNote;

/*
 * pdn_write_game() with notes: `notes` (may be NULL) holds one entry per
 * ply, written after that ply's move in this order: the NAG, the comments,
 * the variation (an alternative to the move just written: its moves start
 * from the position before it, numbered as the main line, and it stops
 * at the first move that is not legal; none when that is the first). The move after the notes has no
 * "N..." of its own (the game is numbered once, as the simplest readers
 * want). Returns false on a write error.
 */
bool pdn_write_annotated_game(FILE *out, const Game *game, const PdnTag *tags, int tag_count,
                              const PdnPlyNote *notes);

/* A game read back from PDN. Everything in it is owned by it. */
typedef struct PdnGame {
	Game *game;        /* start position (from the FEN tag or the start) and the moves */
	GameResult result; /* from the result token; RESULT_NONE for `*` or none */
	int tag_count;
	PdnTag *tags;    /* in file order */
	char **comments; /* game->ply_count entries: the comment after each ply, or NULL */
} PdnGame;

typedef enum PdnReadStatus {
	PDN_READ_OK,    /* *out holds a game: free it with pdn_game_free() */
	PDN_READ_END,   /* no further game in the stream */
	PDN_READ_ERROR, /* a bad game: message in error; its rest was skipped,
	                   so the next call reads the following game */
	PDN_READ_FAILED /* the stream cannot be read on (a read error, or a NUL
	                   byte: not a text file): message in error; stop reading */
} PdnReadStatus;

/*
 * Reads the next game from `in`, as tolerant as PDN readers are: tags in any
 * order, move numbers (`12.`, `12...`, glued `12.11-15`) and NAGs are
 * skipped, comments `{...}` and `;` to the end of the line are kept per ply
 * (trimmed; several after one move are joined by a space), variations `(...)` are
 * skipped, a game ends at its result token (`1-0`, `0-1`, `1/2-1/2`, `2-0`,
 * `0-2`, `1-1`, `*`) or where the next game's tags begin. Moves are checked
 * against the rules (any form notation_parse_move() accepts) of the variant
 * that the GameType tag names (23 or no tag: pool, 25 Russian, 26
 * Brazilian; any other number is an error), in its short form or the
 * standard's long form "25,W,8,8,A0,0" (the colour that moves first sets
 * the side to move when there is no FEN tag; a board other than 8x8 is an
 * error). The FEN tag may name squares by number or algebraically. Empty
 * tag values and comments are fine. A NUL byte (no text file holds one) or a read error gives
 * PDN_READ_FAILED: the caller stops reading that stream.
 */
PdnReadStatus pdn_read_game(FILE *in, PdnGame *out, char *error, size_t error_size);

/* Where pdn_read_game_located() found a bad game. */
typedef struct PdnErrorPlace {
	long offset;     /* the stream offset at which the problem was noticed, -1 when unknown */
	int ply;         /* the ply the moves had reached (1 = the first move); 0 before the moves */
	int move_number; /* that ply's PDN move number; 0 before the moves */
	Color side;      /* the side to play that ply */
	char event[128]; /* the game's Event tag ("" when none), cut to fit */
	char round[32];  /* its Round tag ("" when none), cut to fit */
	long line;       /* the line (1-based) of offset; 0 when unknown or the stream cannot seek */
} PdnErrorPlace;

/* pdn_read_game() that also tells, on PDN_READ_ERROR and PDN_READ_FAILED,
 * where the bad game is (*where may be NULL; untouched on OK and END). */
PdnReadStatus pdn_read_game_located(FILE *in, PdnGame *out, char *error, size_t error_size,
                                    PdnErrorPlace *where);

/* Frees what pdn_read_game() allocated; safe on a zeroed PdnGame. */
void pdn_game_free(PdnGame *g);

/* The value of the first tag called `name` (case-insensitive), or NULL. */
const char *pdn_game_tag(const PdnGame *g, const char *name);

/* The same among tags[0..count): the tags a writer was given. */
const char *pdn_tag_find(const PdnTag *tags, int count, const char *name);

/* The result that a PDN result token stands for (first number White's);
 * false when `text` is not a result token. */
bool pdn_parse_result(const char *text, GameResult *out);

#endif
