/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Game review: every move of a game searched, scored against the best one, marked with NAGs. */
#ifndef POOLSHARK_ANNOTATE_H
#define POOLSHARK_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "poolshark/engine.h"
#include "poolshark/game.h"
#include "poolshark/pdn.h"

enum {
	/* What a move lost against the best move of its position, in
	 * hundredths of a man from the mover's view, from which it is marked
	 * (doc/ANALYSIS.md, "Reviewing games"): a move that gives a man away for
	 * nothing loses about a hundred. */
	ANNOTATE_DUBIOUS = 30, /* $6 */
	ANNOTATE_MISTAKE = 60, /* $2 */
	ANNOTATE_BLUNDER = 90, /* $4 */
	/* Scores are capped at ten men either way before the loss is taken
	 * (a forced win or loss counts as the cap), so that a win found a
	 * few plies later loses nothing and a win thrown away loses the cap. */
	ANNOTATE_SCORE_CAP = 1000,
	ANNOTATE_LINE_MAX = 10,    /* moves of the variation given after a mistake */
	ANNOTATE_COMMENT_MAX = 96, /* a comment's text, terminator included */
};

/* The standard NAGs that annotate gives. */
typedef enum AnnotateNag {
	NAG_NONE = 0,
	NAG_GOOD = 1,    /* the only quiet move that holds: every other loses a mistake's worth */
	NAG_MISTAKE = 2, /* lost ANNOTATE_MISTAKE or more */
	NAG_BLUNDER = 4, /* lost ANNOTATE_BLUNDER or more */
	NAG_DUBIOUS = 6  /* lost ANNOTATE_DUBIOUS or more */
} AnnotateNag;

/* The review of one ply. */
typedef struct AnnotatedPly {
	bool searched;                /* false when no iteration completed: nothing below is set */
	int depth;                    /* of the last completed iteration */
	int legal_moves;              /* in the position before the ply */
	Move best;                    /* the best move found */
	int best_score;               /* its score: hundredths of a man, mover's view */
	int played_score;             /* the played move's score, mover's view */
	int loss;                     /* capped best minus capped played score, >= 0 */
	AnnotateNag nag;              /* from the loss (annotate_nag()) */
	int line_length;              /* for a mistake or a blunder: the engine's line */
	Move line[ANNOTATE_LINE_MAX]; /* from the best move, else empty */
} AnnotatedPly;

/* One side's figures over a game. */
typedef struct AnnotateSide {
	int moves; /* plies this side played that were searched */
	int dubious, mistakes, blunders, good;
	long loss_total; /* hundredths of a man */
} AnnotateSide;

/* Called before each ply is searched: ply counts from 0. */
typedef void (*AnnotateProgress)(int ply, int ply_count, void *user);

/*
 * The NAG of a move that lost `loss` (capped, as AnnotatedPly.loss) when
 * the best of the other moves would have lost `others_loss` (negative when
 * the position had no other move): $4, $2, $6 by the thresholds above,
 * else $1 when the move was the best, not a capture (choosing among
 * captures is the game's forced play, not a find) and every other move
 * lost a mistake's worth, else none.
 */
AnnotateNag annotate_nag(int loss, int others_loss, bool capture);

/*
 * Reviews every ply of *game with engine e: sets the engine's variant to
 * the game's, starts a new game (an empty table, so the review of a game
 * does not depend on what the engine did before), and searches the
 * position before each ply within *limits with every root move scored
 * (its history included, so repetitions count), filling plies[0 ..
 * game->ply_count - 1]. progress may be NULL. Returns false when the
 * engine refuses (out of memory, or a search still running).
 */
bool annotate_game(Engine *e, const Game *game, const SearchLimits *limits, AnnotatedPly *plies,
                   AnnotateProgress progress, void *user);

/*
 * The comment of a ply `played` (without braces): the score after it
 * in men from White's view and the depth, "+0.35/8", then ", best 9-14
 * +0.10" when another move scored better (its score as the first). A
 * forced end reads "#7" (White wins in 7 plies) or "#-7" (Black does). ""
 * when the ply was not searched.
 */
void annotate_comment(const Position *before, Move played, const AnnotatedPly *ply, char *out, size_t size);

/* Adds up each side's moves, NAGs and losses; out[BLACK] and out[WHITE]. */
void annotate_summary(const Game *game, const AnnotatedPly *plies, AnnotateSide out[2]);

/*
 * Writes *game as PDN (pdn_write_annotated_game()) with the review: after
 * each move its NAG, the comment it had (old_comments may be NULL, or hold
 * one string or NULL per ply), the comment of annotate_comment(), and the
 * engine's line as a variation after a mistake or a blunder. Returns false
 * on a write error or when memory is short.
 */
bool annotate_write_game(FILE *out, const Game *game, const PdnTag *tags, int tag_count,
                         const char *const *old_comments, const AnnotatedPly *plies);

#endif
